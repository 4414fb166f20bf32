package dev.kvasir.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kvasir.testkit.KilledWriters;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * A process writing a PostgreSQL database is killed with SIGKILL at random moments, ten times
 * over: the server rolls back what the dead connection had not committed, so each time the
 * database holds every acknowledged commit and none in part, and the next writer goes on
 * (KilledWriters). {@code -Dkilled.seed=N} replays the moments of a failed run.
 */
class PostgresKilledWriterIT {
  @Test
  void aWriterKilledAtRandomMoments_losesNoAcknowledgedCommit_andHalfAppliesNone()
      throws Exception {
    long seed = Long.getLong("killed.seed", System.nanoTime());
    String url = TestPostgres.url() + "?schema=" + TestPostgres.freshSchema("killed");
    int[] committed = KilledWriters.killRepeatedly(url, seed);
    assertThat(Arrays.stream(committed).sum()).as("commits over the writers").isPositive();
  }
}
