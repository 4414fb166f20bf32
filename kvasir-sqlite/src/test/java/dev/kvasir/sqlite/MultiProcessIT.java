package dev.kvasir.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kvasir.Kv;
import dev.kvasir.KvEntry;
import dev.kvasir.KvKey;
import dev.kvasir.WatchStream;
import dev.kvasir.testkit.ChildJvm;
import dev.kvasir.value.KvU64;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Several databases on one file: in one JVM, and in separate JVMs. */
class MultiProcessIT {
  @TempDir Path dir;

  @Test
  void twoProcessesAndThisOne_checkAndSetOnOneCounter_loseNoUpdate() throws Exception {
    String file = dir.resolve("shared.sqlite3").toString();
    int each = 300;
    try (Kv kv = Kv.open(file)) {
      kv.set(KvKey.of("start"), true); // create the file before the children race for it
      Process a = ChildJvm.start(CasWorker.class, file, "c", String.valueOf(each));
      Process b = ChildJvm.start(CasWorker.class, file, "c", String.valueOf(each));
      CasWorker.increment(kv, KvKey.of("counter", "c"), each);
      for (Process p : List.of(a, b)) {
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        String out = new String(p.getInputStream().readAllBytes());
        assertThat(p.exitValue()).as(out).isZero();
        assertThat(out).contains("done");
      }
      assertThat(kv.get(KvKey.of("counter", "c")).value()).isEqualTo(KvU64.of(3L * each));
    }
  }

  @Test
  void twoKvsInOneJvm_watchSeesTheOthersWrites() throws Exception {
    String file = dir.resolve("watched.sqlite3").toString();
    try (Kv writer = Kv.open(file); Kv reader = Kv.open(file);
        WatchStream watch = reader.watch(List.of(KvKey.of("w")))) {
      assertThat(watch.next().get(0).exists()).isFalse();
      writer.set(KvKey.of("w"), "hello");
      List<KvEntry> next = watch.next();
      assertThat(next.get(0).value()).isEqualTo("hello");
    }
  }
}
