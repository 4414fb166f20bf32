package dev.kvasir.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code kvasir dag ls | head -1}: once the reader of standard output is gone, the listing
 * stops with status 141, as the database commands' do. It walked the whole pail and exited 0.
 */
class DagClosedPipeTest {
  @TempDir Path dir;
  private String store;
  private String firstRoot;

  @BeforeEach
  void pail() {
    store = dir.resolve("pail").toString();
    for (int i = 0; i < 40; i++) {
      StringWriter root = new StringWriter();
      assertThat(run(root, "dag", "--store", store, "put", "key-" + i, "value-" + i)).isZero();
      firstRoot = firstRoot == null ? root.toString().strip() : firstRoot;
    }
  }

  @Test
  void listingTreeAndDiff_stopAtAClosedOutput() {
    for (String[] command : new String[][] {{"ls"}, {"ls", "--json"}, {"tree"},
        {"diff", firstRoot}}) {
      String[] args = new String[command.length + 3];
      args[0] = "dag";
      args[1] = "--store";
      args[2] = store;
      System.arraycopy(command, 0, args, 3, command.length);
      assertThat(run(closed(), args)).as(String.join(" ", command))
          .isEqualTo(Kvasir.PIPE_CLOSED);
    }
  }

  private static int run(Object out, String... args) {
    PrintWriter writer = out instanceof PrintWriter p ? p : new PrintWriter((StringWriter) out);
    return Kvasir.commandLine(new Kvasir(), writer, new PrintWriter(new StringWriter(), true))
        .execute(args);
  }

  /** Standard output whose reader went away: every write fails, as on a closed pipe. */
  private static PrintWriter closed() {
    return new PrintWriter(new OutputStreamWriter(new OutputStream() {
      @Override
      public void write(int b) throws IOException {
        throw new IOException("Broken pipe");
      }
    }, StandardCharsets.UTF_8), true);
  }
}
