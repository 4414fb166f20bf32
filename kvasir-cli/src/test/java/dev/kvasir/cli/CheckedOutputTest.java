package dev.kvasir.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
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

  @Test
  void aLineWrittenJustBeforeTheReaderWent_wasPrinted_thoughCheckErrorNowFails() {
    // The race behind a message that listen gave back although head -1 had read its line: the
    // watch saw the reader go between the line's write and the check that followed it.
    ByteArrayOutputStream written = new ByteArrayOutputStream();
    CheckedOutput[] stdout = new CheckedOutput[1];
    stdout[0] = new CheckedOutput(new OutputStream() {
      @Override
      public void write(int b) {
        written.write(b);
      }

      @Override
      public void write(byte[] bytes, int offset, int length) {
        written.write(bytes, offset, length);
        stdout[0].readerGone(); // read, and the reader closed the pipe at once
      }
    });
    StandardOutput out = new StandardOutput(stdout[0]);

    assertThat(StandardOutput.printLine(out, "m1")).isTrue();
    assertThat(written.toString(StandardCharsets.UTF_8)).isEqualTo("m1\n");
    assertThat(out.checkError()).isTrue();
    assertThat(StandardOutput.printLine(out, "m2")).as("written after the reader went").isFalse();
    assertThat(written.toString(StandardCharsets.UTF_8)).isEqualTo("m1\n");
  }

  @Test
  void anyOtherWriter_saysWhetherTheLineWasPrinted_byCheckError() {
    ByteArrayOutputStream written = new ByteArrayOutputStream();
    CheckedOutput stdout = new CheckedOutput(written);
    PrintWriter out = new PrintWriter(new OutputStreamWriter(stdout, StandardCharsets.UTF_8));
    assertThat(StandardOutput.printLine(out, "m1")).isTrue();
    stdout.readerGone();
    assertThat(StandardOutput.printLine(out, "m2")).isFalse();
    assertThat(written.toString(StandardCharsets.UTF_8)).isEqualTo("m1\n");
  }
}
