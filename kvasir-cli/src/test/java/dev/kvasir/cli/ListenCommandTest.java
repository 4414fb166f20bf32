package dev.kvasir.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kvasir.EnqueueOptions;
import dev.kvasir.Kv;
import dev.kvasir.KvKey;
import dev.kvasir.testkit.Blocking;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.Writer;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** {@code kvasir listen} in the shell's way: on an open database, in this process. */
class ListenCommandTest {
  private static int listen(Kv kv, PrintWriter out, String... args) {
    DatabaseOption db = new DatabaseOption();
    db.location = ":memory:";
    PrintWriter err = new PrintWriter(new StringWriter(), true);
    String[] line = new String[args.length + 1];
    line[0] = "listen";
    System.arraycopy(args, 0, line, 1, args.length);
    return Kvasir.commandLine(new Kvasir(new Kvasir.Session(kv, db)), out, err).execute(line);
  }

  @Test
  void ctrlC_stopsTheWait_andTakesNothing() throws Exception {
    try (Kv kv = Kv.open(":memory:")) {
      StringWriter screen = new StringWriter();
      CompletableFuture<Integer> run = Blocking.call(
          () -> listen(kv, new PrintWriter(screen, true)));
      Thread.sleep(300); // waiting for a message by now, or about to
      while (!Kvasir.interrupt()) {
        Thread.sleep(10);
      }
      assertThat(run.get(10, TimeUnit.SECONDS)).isZero();
      kv.enqueue("after", EnqueueOptions.defaults().backoffSchedule(List.of()));
      assertThat(listen(kv, new PrintWriter(screen, true), "--count", "1")).isZero();
      assertThat(screen.toString()).isEqualTo("\"after\"\n");
    }
  }

  @Test
  void aLineThatCannotBeWritten_givesItsMessageBack_withItsRetriesUntouched() throws Exception {
    try (Kv kv = Kv.open(":memory:")) {
      kv.enqueue("only try", EnqueueOptions.defaults().backoffSchedule(List.of())
          .keysIfUndelivered(List.of(KvKey.of("dead"))));
      PrintWriter closed = new PrintWriter(new Writer() {
        @Override
        public void write(char[] chars, int off, int len) throws java.io.IOException {
          throw new java.io.IOException("Broken pipe");
        }

        @Override
        public void flush() throws java.io.IOException {
          throw new java.io.IOException("Broken pipe");
        }

        @Override
        public void close() {}
      }, true);
      assertThat(listen(kv, closed)).isEqualTo(Kvasir.PIPE_CLOSED);
      assertThat(kv.get(KvKey.of("dead")).exists()).as("not dead-lettered").isFalse();

      StringWriter screen = new StringWriter();
      assertThat(listen(kv, new PrintWriter(screen, true), "--count", "1")).isZero();
      assertThat(screen.toString()).isEqualTo("\"only try\"\n");
    }
  }
}
