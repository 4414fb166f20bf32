package dev.kvasir.sqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kvasir.Kv;
import dev.kvasir.KvKey;
import dev.kvasir.base.KvArgumentException;
import dev.kvasir.base.KvOptions;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Typed options, and a misspelt option refused instead of ignored. */
class SqliteOptionsTest {
  @TempDir Path dir;

  @Test
  void typedOptions_reachTheEngine() {
    KvOptions options = SqliteOptions.defaults().synchronous(SqliteConfig.Synchronous.NORMAL)
        .readers(2).busyTimeout(Duration.ofSeconds(9)).queuePoll(Duration.ofMinutes(2)).build();
    SqliteConfig c = SqliteConfig.from(dir.resolve("a.sqlite3").toString(), options);
    assertThat(c.synchronous()).isEqualTo(SqliteConfig.Synchronous.NORMAL);
    assertThat(c.readers()).isEqualTo(2);
    assertThat(c.busyTimeout()).isEqualTo(Duration.ofSeconds(9));
    assertThat(c.queuePoll()).isEqualTo(Duration.ofMinutes(2));
    assertThat(SqliteConfig.of("x.sqlite3").queuePoll()).isEqualTo(Duration.ofSeconds(1));
    try (Kv kv = Kv.open(dir.resolve("b.sqlite3").toString(), options)) {
      kv.set(KvKey.of("a"), 1);
    }
  }

  @Test
  void aMisspeltOption_isRefused_namingWhatTheEngineReads() {
    KvOptions typo = KvOptions.defaults().with("sqlite.synchronus", "NORMAL");
    assertThatThrownBy(() -> Kv.open(dir.resolve("c.sqlite3").toString(), typo))
        .isInstanceOf(KvArgumentException.class)
        .hasMessageContaining("unknown option sqlite.synchronus for the SQLite engine")
        .hasMessageContaining("sqlite.synchronous");
    assertThatThrownBy(() -> Kv.open(dir.resolve("d.sqlite3").toString(),
        KvOptions.defaults().with("sqlite.readers", "many")))
        .isInstanceOf(KvArgumentException.class).hasMessageContaining("must be an integer");
  }

  /** Named as the option, not the setter; 4294967297 readers, cast to an int, were 1. */
  @Test
  void anOptionOutOfRange_isRefused_namingTheOption() {
    for (String readers : new String[] {"0", "65", "4294967297"}) {
      assertThatThrownBy(() -> Kv.open(dir.resolve("e.sqlite3").toString(),
          KvOptions.defaults().with("sqlite.readers", readers)))
          .isInstanceOf(KvArgumentException.class)
          .hasMessage("sqlite.readers must be 1 to 64: received " + readers);
    }
    assertThatThrownBy(() -> Kv.open(dir.resolve("e.sqlite3").toString(),
        KvOptions.defaults().with("sqlite.busyTimeoutMs", "-5")))
        .isInstanceOf(KvArgumentException.class)
        .hasMessage("sqlite.busyTimeoutMs must not be negative: received -5");
    assertThatThrownBy(() -> Kv.open(dir.resolve("e.sqlite3").toString(),
        KvOptions.defaults().with("sqlite.queuePollMs", "0")))
        .isInstanceOf(KvArgumentException.class)
        .hasMessage("sqlite.queuePollMs must be at least 1 ms: received 0 ms");
    assertThatThrownBy(() -> SqliteConfig.of("x.sqlite3").queuePoll(Duration.ofNanos(500)))
        .isInstanceOf(KvArgumentException.class)
        .hasMessage("queuePoll must be at least 1 ms: received PT0.0000005S");
    assertThat(dir.resolve("e.sqlite3")).doesNotExist();
  }
}
