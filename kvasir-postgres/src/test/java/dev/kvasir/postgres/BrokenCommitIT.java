package dev.kvasir.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kvasir.CommitResult;
import dev.kvasir.Kv;
import dev.kvasir.KvKey;
import dev.kvasir.base.KvUnavailableException;
import dev.kvasir.testkit.Blocking;
import dev.kvasir.testkit.RecordingMeterSink;
import dev.kvasir.value.KvU64;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * The connection breaks while a commit is at the server. Both ways it can end must give the
 * caller the truth, and apply the commit exactly once: the server had not committed yet (the
 * writer must stop that transaction before running the commit again, or it would apply twice),
 * or it had committed and only the reply was lost (the writer must report success).
 */
class BrokenCommitIT {
  private static int serverPort() {
    String url = TestPostgres.url();
    return Integer.parseInt(url.substring(url.lastIndexOf(':') + 1, url.lastIndexOf('/')));
  }

  /** The engine on {@code schema}, through {@code proxy}, with the URL's other parameters. */
  private static Kv open(CuttableProxy proxy, String schema, String parameters) {
    return Kv.open("postgresql://postgres@localhost:" + proxy.port() + "/postgres?schema="
        + schema + parameters);
  }

  /** Takes the lock every commit waits for, in {@code admin}'s open transaction. */
  private static void holdCommitOrderLock(Connection admin, String schema) throws Exception {
    admin.setAutoCommit(false);
    try (Statement s = admin.createStatement()) {
      s.execute("select version from " + schema + ".data_version for update");
    }
  }

  private static long count(Connection admin, String sql) throws Exception {
    try (Statement s = admin.createStatement(); ResultSet r = s.executeQuery(sql)) {
      r.next();
      return r.getLong(1);
    }
  }

  @Test
  void connectionCutBeforeTheServerCommitted_pipelinedCommit_appliesExactlyOnce()
      throws Exception {
    cutBeforeCommit(kv -> kv.atomic().set(KvKey.of("once"), "x").enqueue("message").commit());
  }

  /**
   * A sum goes statement by statement: cut while it waits for the lock, its server process
   * would take the lock and then wait for the rest of the transaction, stalling every writer,
   * unless the writer ends it.
   */
  @Test
  void connectionCutBeforeTheServerCommitted_interactiveCommit_appliesExactlyOnce()
      throws Exception {
    cutBeforeCommit(kv -> kv.atomic().set(KvKey.of("once"), "x").sum(KvKey.of("n"), KvU64.of(1))
        .enqueue("message").commit());
  }

  private void cutBeforeCommit(Function<Kv, CommitResult> write) throws Exception {
    RecordingMeterSink meters = breakMidCommit(write, (proxy, admin, schema) -> {
      proxy.cutClients(); // the server still waits for the lock with the commit in hand
      Thread.sleep(200);
      admin.commit(); // releases the lock: an orphaned transaction would go on now
    });
    assertThat(meters.count("kvasir.postgres.retries{cause=connection}"))
        .as("the commit ran again").isPositive();
  }

  @Test
  void replyLostAfterTheServerCommitted_reportsTheCommit() throws Exception {
    breakMidCommit(kv -> kv.atomic().set(KvKey.of("once"), "y").enqueue("message").commit(),
        (proxy, admin, schema) -> {
          proxy.swallowReplies(true);
          admin.commit(); // the commit goes through; its reply is lost
          for (int i = 0; i < 500
              && count(admin, "select count(*) from " + schema + ".queue") == 0; i++) {
            Thread.sleep(10);
          }
          proxy.cutClients();
          proxy.swallowReplies(false);
        });
  }

  /**
   * A network that drops the server's packets and never closes the connection, after the server
   * committed: the writer waited on it for the kernel's keepalive (two hours). Now it gives up
   * after the retry timeout (3 s here) and says the commit may have been applied, which it was,
   * once.
   */
  @Test
  void repliesLostAndTheConnectionNeverClosed_failsWithinTheRetryTimeout_asPerhapsApplied()
      throws Exception {
    String schema = TestPostgres.freshSchema("broken");
    try (CuttableProxy proxy = new CuttableProxy(serverPort());
        Kv kv = open(proxy, schema, "&retryTimeoutMs=3000");
        Connection admin = TestPostgres.admin()) {
      kv.set(KvKey.of("warm"), 0);
      holdCommitOrderLock(admin, schema);
      CompletableFuture<CommitResult> commit = Blocking.call(
          () -> kv.atomic().set(KvKey.of("once"), "z").enqueue("message").commit());
      TestPostgres.awaitKvasirWaitingForALock(admin);
      proxy.swallowReplies(true);
      admin.commit(); // the commit goes through; its reply is lost, and so are all later ones
      try {
        assertThatThrownBy(() -> commit.get(20, TimeUnit.SECONDS))
            .as("within the socket timeout and the retries, not the kernel's two hours")
            .hasCauseInstanceOf(KvUnavailableException.class)
            .satisfies(e -> assertThat(((KvUnavailableException) e.getCause()).maybeApplied())
                .isTrue());
      } finally {
        proxy.cutClients(); // a writer still waiting (the failure above) could not be closed
      }
      proxy.swallowReplies(false); // the network heals
      assertThat(kv.get(KvKey.of("once")).value()).isEqualTo("z");
      assertThat(count(admin, "select count(*) from " + schema + ".queue")).as("enqueued once")
          .isOne();
    }
  }

  /**
   * The caller is interrupted while its commit waits at the server, and then the connection
   * breaks. The writer must still find out whether the commit happened (ending the orphaned
   * server process, which would otherwise commit once the lock is free) and say so: before, it
   * could not take a connection from the pool with the interrupt set and threw "interrupted while
   * waiting to retry", while the orphan went on to commit.
   */
  @Test
  void interruptedCaller_whoseConnectionBreaksMidCommit_isToldTheTruth() throws Exception {
    String schema = TestPostgres.freshSchema("broken");
    try (CuttableProxy proxy = new CuttableProxy(serverPort());
        Kv kv = open(proxy, schema, "&retryTimeoutMs=5000");
        Connection admin = TestPostgres.admin()) {
      kv.set(KvKey.of("warm"), 0);
      holdCommitOrderLock(admin, schema);
      AtomicReference<Object> outcome = new AtomicReference<>();
      AtomicBoolean stillInterrupted = new AtomicBoolean();
      Thread caller = new Thread(() -> { // alone, so it commits on its own thread
        try {
          outcome.set(kv.atomic().set(KvKey.of("once"), "x").enqueue("message").commit());
        } catch (RuntimeException e) {
          outcome.set(e);
        }
        stillInterrupted.set(Thread.currentThread().isInterrupted());
      });
      caller.start();
      TestPostgres.awaitKvasirWaitingForALock(admin);
      caller.interrupt();
      proxy.cutClients();
      Thread.sleep(200);
      admin.commit(); // releases the lock: an orphaned transaction would commit now
      caller.join(TimeUnit.SECONDS.toMillis(20));
      assertThat(caller.isAlive()).isFalse();
      Thread.sleep(500); // time for an orphan to commit
      Object value = kv.get(KvKey.of("once")).value();
      long queued = count(admin, "select count(*) from " + schema + ".queue");
      if (outcome.get() instanceof CommitResult result) {
        assertThat(result.ok()).isTrue();
        assertThat(value).isEqualTo("x");
        assertThat(queued).isOne();
      } else {
        assertThat((Throwable) outcome.get()).hasMessageContaining("nothing was applied");
        assertThat(value).as("told nothing was applied").isNull();
        assertThat(queued).isZero();
      }
      assertThat(stillInterrupted).as("the interrupt stays set for the caller").isTrue();
    }
  }

  /** Breaks the connection of a commit that waits for the lock {@code admin} holds. */
  private interface Breakage {
    void breakIt(CuttableProxy proxy, Connection admin, String schema) throws Exception;
  }

  /**
   * Runs {@code write} through a proxy while the commit-order lock is held, breaks it, and
   * checks that the caller is told the commit succeeded and that it applied exactly once; the
   * meters tell how it got there.
   */
  private RecordingMeterSink breakMidCommit(Function<Kv, CommitResult> write,
      Breakage breakage) throws Exception {
    RecordingMeterSink meters = new RecordingMeterSink();
    String schema = TestPostgres.freshSchema("broken");
    try (CuttableProxy proxy = new CuttableProxy(serverPort());
        Kv kv = open(proxy, schema, "");
        Connection admin = TestPostgres.admin()) {
      kv.set(KvKey.of("warm"), 0);
      kv.bindMeters(meters);
      assertThat(meters.read("kvasir.postgres.pool.connections{state=active}")).isNotNegative();
      holdCommitOrderLock(admin, schema);
      CompletableFuture<CommitResult> commit = Blocking.call(() -> write.apply(kv));
      TestPostgres.awaitKvasirWaitingForALock(admin);
      breakage.breakIt(proxy, admin, schema);
      // (An orphan left holding the lock would stall this for 30 s, past the guard.)
      CommitResult result = commit.get(10, TimeUnit.SECONDS);
      assertThat(result.ok()).isTrue();
      assertThat(kv.get(KvKey.of("once")).versionstamp()).isEqualTo(result.versionstamp());
      assertThat(count(admin, "select count(*) from " + schema + ".queue")).as("enqueued once")
          .isOne();
    }
    return meters;
  }
}
