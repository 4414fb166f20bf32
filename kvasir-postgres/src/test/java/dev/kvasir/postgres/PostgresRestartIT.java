package dev.kvasir.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kvasir.Kv;
import dev.kvasir.KvEntry;
import dev.kvasir.KvKey;
import dev.kvasir.WatchStream;
import dev.kvasir.base.KvUnavailableException;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The server is stopped and started again while writers commit: every commit applies whole or
 * not at all, those that fail say so with {@link KvUnavailableException}, and the engine carries
 * on by itself afterwards, watches included.
 */
class PostgresRestartIT {
  @TempDir Path dir;

  /** One writer thread's account of what it was told. */
  private static final class Account {
    final AtomicLong acknowledged = new AtomicLong();
    final AtomicLong maybeApplied = new AtomicLong();
    final AtomicLong notApplied = new AtomicLong();
    final AtomicLong afterRestart = new AtomicLong();
  }

  @Test
  void restart_shorterThanTheRetryTimeout_isRiddenThrough() throws Exception {
    List<Account> accounts = writeThroughRestart(30_000, "ride");
    for (Account a : accounts) {
      assertThat(a.notApplied.get() + a.maybeApplied.get()).as("failed commits").isZero();
    }
  }

  @Test
  void restart_longerThanTheRetryTimeout_failsCommitsClearly_thenRecovers() throws Exception {
    List<Account> accounts = writeThroughRestart(300, "fail");
    long failed = accounts.stream().mapToLong(a -> a.notApplied.get() + a.maybeApplied.get())
        .sum();
    assertThat(failed).as("commits that failed with KvUnavailableException").isPositive();
  }

  /**
   * Runs 4 checked writers, stops the server for 2 s, starts it again, and checks every
   * counter against what its writer was told.
   */
  private List<Account> writeThroughRestart(int retryTimeoutMs, String schema) throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    Path data = dir.resolve("pgdata");
    EmbeddedPostgres server = TestPostgres.start(data, port);
    String url = TestPostgres.url(port) + "?schema=" + schema + "&retryTimeoutMs="
        + retryTimeoutMs;
    AtomicBoolean stop = new AtomicBoolean();
    AtomicBoolean restarted = new AtomicBoolean();
    ConcurrentLinkedQueue<Throwable> unexpected = new ConcurrentLinkedQueue<>();
    int writers = 4;
    List<Account> accounts = new ArrayList<>();
    List<Thread> threads = new ArrayList<>();
    try (Kv kv = Kv.open(url);
        WatchStream watch = kv.watch(List.of(KvKey.of("watched")))) {
      assertThat(watch.next().get(0).exists()).isFalse();
      for (int t = 0; t < writers; t++) {
        Account account = new Account();
        accounts.add(account);
        int id = t;
        Thread thread = new Thread(() -> {
          while (!stop.get()) {
            try {
              if (increment(kv, id)) {
                account.acknowledged.incrementAndGet();
                if (restarted.get()) {
                  account.afterRestart.incrementAndGet();
                }
              }
            } catch (KvUnavailableException e) {
              if (!e.getMessage().contains("unavailable")) {
                unexpected.add(e);
              }
              (e.maybeApplied() ? account.maybeApplied : account.notApplied).incrementAndGet();
            } catch (Throwable e) {
              unexpected.add(e);
              return;
            }
          }
        });
        threads.add(thread);
        thread.start();
      }
      Thread.sleep(1_000);
      server.close(); // fast shutdown: in-flight transactions are cut off
      Thread.sleep(2_000);
      server = TestPostgres.start(data, port);
      restarted.set(true);
      Thread.sleep(3_000);
      stop.set(true);
      for (Thread t : threads) {
        t.join(60_000);
      }
      assertThat(unexpected).isEmpty();
      for (int t = 0; t < writers; t++) {
        Account a = accounts.get(t);
        long first = counter(kv, "a", t);
        assertThat(counter(kv, "b", t)).as("both keys of each commit, or neither").isEqualTo(first);
        assertThat(first).isBetween(a.acknowledged.get(), a.acknowledged.get() + a.maybeApplied.get());
        assertThat(a.afterRestart.get()).as("commits after the restart").isPositive();
        System.out.printf("retry %d ms, writer %d: %d acknowledged (%d after the restart), %d failed maybe"
            + " applied, %d failed not applied, counter %d%n", retryTimeoutMs, t, a.acknowledged.get(),
            a.afterRestart.get(), a.maybeApplied.get(), a.notApplied.get(), first);
      }
      // The notification connection came back too.
      kv.set(KvKey.of("watched"), "after restart");
      List<KvEntry> seen = watch.next();
      assertThat(seen.get(0).value()).isEqualTo("after restart");
      return accounts;
    } finally {
      server.close();
    }
  }

  /** Adds 1 to both counters of writer {@code id} in one checked commit. */
  private static boolean increment(Kv kv, int id) {
    KvEntry a = kv.get(KvKey.of("a", id));
    long next = (a.exists() ? ((Number) a.value()).longValue() : 0L) + 1;
    return kv.atomic().check(a).set(KvKey.of("a", id), next).set(KvKey.of("b", id), next)
        .commit().ok();
  }

  private static long counter(Kv kv, String name, int id) {
    KvEntry e = kv.get(KvKey.of(name, id));
    return e.exists() ? ((Number) e.value()).longValue() : 0;
  }
}
