package dev.kvasir.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * A reader that went away, as {@link ReaderWatch} reports it: the commands find it in {@code
 * checkError} without a line to write, and it ends them quietly, as a closed pipe does.
 */
class CheckedOutputTest {
  @Test
  void aReaderGone_failsTheNextFlushAndWrite_asAClosedPipe_notAsAnError() {
    ByteArrayOutputStream written = new ByteArrayOutputStream();
    CheckedOutput stdout = new CheckedOutput(written);
    PrintWriter out = new PrintWriter(new OutputStreamWriter(stdout, StandardCharsets.UTF_8));
    out.println("before");
    assertThat(out.checkError()).isFalse();

    stdout.readerGone();
    assertThat(out.checkError()).as("seen without writing").isTrue();
    out.println("after");
    out.flush();
    assertThat(written.toString(StandardCharsets.UTF_8)).isEqualTo("before\n");
    assertThat(stdout.isReaderGone()).isTrue();
    assertThat(stdout.failedOtherThanByAClosedPipe()).isFalse();
    assertThat(CheckedOutput.isClosedPipe(stdout.failure())).isTrue();
  }
}
