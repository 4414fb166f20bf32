package dev.kvasir.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kvasir.Kv;
import dev.kvasir.KvKey;
import dev.kvasir.dag.engine.Backup;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code kvasir diff} prints the changed keys as the walk finds them, and a reader that goes
 * away stops it within {@link OutputWatch#EVERY} lines, with status 141.
 */
class DiffCommandTest {
  private static final int CHANGED = 500;

  @TempDir Path dir;
  private String first;

  @BeforeEach
  void twoCopies() {
    try (Kv source = Kv.open(":memory:"); Backup backup = Backup.open(dir.resolve("bk"))) {
      source.set(KvKey.of("same"), 0);
      first = backup.take(source.engine()).orElseThrow().commit().toString();
      for (int i = 0; i < CHANGED; i++) {
        source.set(KvKey.of("k", i), i);
      }
      backup.take(source.engine()).orElseThrow();
    }
  }

  @Test
  void everyChangedKey_isPrinted_inKeyOrder() {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();

    int status = run(new PrintWriter(out), err);

    assertThat(status).isZero();
    String[] lines = out.toString().split("\n");
    assertThat(lines).hasSize(CHANGED);
    assertThat(lines[0]).startsWith("+ [\"k\", 0]  (none) -> ");
    assertThat(lines[CHANGED - 1]).startsWith("+ [\"k\", " + (CHANGED - 1) + "]");
    assertThat(err.toString()).contains(CHANGED + " keys differ");
  }

  @Test
  void aClosedOutput_stopsTheDiff() {
    int[] lines = {0};
    PrintWriter closed = new PrintWriter(new OutputStream() {
      @Override
      public void write(int b) throws IOException {
        throw new IOException("Broken pipe");
      }
    }, true) {
      @Override
      public void println(String line) {
        lines[0]++;
        super.println(line);
      }
    };

    assertThat(run(closed, new StringWriter())).isEqualTo(Kvasir.PIPE_CLOSED);
    assertThat(lines[0]).isBetween(1, OutputWatch.EVERY);
  }

  private int run(PrintWriter out, StringWriter err) {
    return Kvasir.commandLine(new Kvasir(), out, new PrintWriter(err, true))
        .execute("diff", "--db", "dag:" + dir.resolve("bk"), "--from", first);
  }
}
