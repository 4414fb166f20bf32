package dev.kvasir.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kvasir.Kv;
import dev.kvasir.KvKey;
import dev.kvasir.TransactOptions;
import dev.kvasir.testkit.load.ContendedIncrements;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code kv.transact} with its default options under 8 threads × 1000 increments of one
 * counter in a SQLite file: the count is exact and no transaction gives up. The retries it took
 * go to target/transact-contention.txt.
 */
class TransactContentionIT {
  @TempDir
  Path dir;

  @Test
  void eightThreadsIncrementingOneCounterAThousandTimesEach_countExactly() throws Exception {
    try (Kv kv = Kv.open(dir.resolve("counter.sqlite3").toString())) {
      ContendedIncrements.Result result =
          ContendedIncrements.run(kv, KvKey.of("counter"), 8, 1000, TransactOptions.defaults());

      result.appendTo(Path.of("target", "transact-contention.txt"), "sqlite");
      assertThat(result.counter()).isEqualTo(8000);
      assertThat(result.attempts()).isGreaterThanOrEqualTo(8000);
    }
  }
}
