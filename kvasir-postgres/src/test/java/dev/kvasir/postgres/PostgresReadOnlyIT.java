package dev.kvasir.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kvasir.Kv;
import dev.kvasir.KvEntry;
import dev.kvasir.KvKey;
import dev.kvasir.WatchStream;
import dev.kvasir.base.KvException;
import dev.kvasir.base.KvOptions;
import dev.kvasir.base.MeterSink;
import dev.kvasir.testkit.Blocking;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.DoubleConsumer;
import java.util.function.DoubleSupplier;
import java.util.function.LongConsumer;
import org.junit.jupiter.api.Test;

/**
 * {@code postgres.readOnly}: what a role with nothing but SELECT can do (a backup's, a report's).
 * Without it such a role could read, but every open tried to delete expired rows and warned of
 * the refusal, and a watch looped on "permission denied" promising to listen.
 */
class PostgresReadOnlyIT {
  private static final KvOptions READ_ONLY = PostgresOptions.defaults().readOnly(true).build();

  @Test
  void aSelectOnlyRole_reads_watches_andChangesNothing() throws Exception {
    String schema = TestPostgres.freshSchema("reader");
    String role = schema + "_ro";
    String owner = TestPostgres.url() + "?schema=" + schema;
    String reader = owner.replaceFirst("postgres@", role + "@");
    try (Kv kv = Kv.open(owner)) {
      kv.set(KvKey.of("greeting"), "hello");
      kv.set(KvKey.of("brief"), "gone soon", Duration.ofMillis(300));
    }
    try (Connection c = TestPostgres.admin(); Statement s = c.createStatement()) {
      s.execute("create role " + role + " login");
      s.execute("grant usage on schema " + schema + " to " + role);
      s.execute("grant select on all tables in schema " + schema + " to " + role);
    }
    Thread.sleep(400); // the brief entry has expired; no writer is open to delete it

    try (Kv kv = Kv.open(reader, READ_ONLY)) {
      assertThat(kv.get(KvKey.of("greeting")).value()).isEqualTo("hello");
      assertThat(kv.get(KvKey.of("brief")).exists()).isFalse();
      assertThatThrownBy(() -> kv.set(KvKey.of("greeting"), "changed"))
          .isInstanceOf(KvException.class).hasMessageContaining("open for reading only");
      assertThat(rows(schema)).as("the expired row is left for a writer").isEqualTo(2);

      try (WatchStream watch = kv.watch(List.of(KvKey.of("greeting")));
          Kv writer = Kv.open(owner)) {
        assertThat(watch.next().get(0).value()).isEqualTo("hello");
        CompletableFuture<List<KvEntry>> next = Blocking.call(watch::next);
        writer.set(KvKey.of("greeting"), "hello again");
        assertThat(next.get(10, TimeUnit.SECONDS).get(0).value()).isEqualTo("hello again");
      }
    }
  }

  /**
   * The same role opened without the option, as a Java application might: its watch tried to
   * promise to listen, was refused, and reconnected to fail again, a warning each time, for as
   * long as it watched; and each commit with an expiry that it heard of scheduled a sweep that
   * failed, a warning each.
   */
  @Test
  void aSelectOnlyRole_openedForWriting_neitherReconnectsNorSweepsInALoop() throws Exception {
    String schema = TestPostgres.freshSchema("unsaid");
    String role = schema + "_ro";
    String owner = TestPostgres.url() + "?schema=" + schema;
    try (Kv kv = Kv.open(owner)) {
      kv.set(KvKey.of("greeting"), "hello");
    }
    try (Connection c = TestPostgres.admin(); Statement s = c.createStatement()) {
      s.execute("create role " + role + " login");
      s.execute("grant usage on schema " + schema + " to " + role);
      s.execute("grant select on all tables in schema " + schema + " to " + role);
    }
    AtomicLong reconnects = new AtomicLong();
    AtomicLong failedSweeps = new AtomicLong();
    try (Kv kv = Kv.open(owner.replaceFirst("postgres@", role + "@"));
        Kv writer = Kv.open(owner)) {
      kv.engine().bindMeters(counting(reconnects, failedSweeps));
      try (WatchStream watch = kv.watch(List.of(KvKey.of("greeting")))) {
        assertThat(watch.next().get(0).value()).isEqualTo("hello");
        for (int i = 0; i < 10; i++) {
          writer.set(KvKey.of("brief", i), i, Duration.ofMillis(300));
          Thread.sleep(300);
        }
        CompletableFuture<List<KvEntry>> next = Blocking.call(watch::next);
        writer.set(KvKey.of("greeting"), "hello again");
        assertThat(next.get(10, TimeUnit.SECONDS).get(0).value()).isEqualTo("hello again");
      }
      // PostgreSQL's "permission denied for table data_version" named neither role nor remedy.
      assertThatThrownBy(() -> kv.set(KvKey.of("greeting"), "mine"))
          .hasMessageContaining("permission denied")
          .hasMessageContaining("The role lacks a privilege: reading takes USAGE on the schema"
              + " and SELECT on its tables, writing INSERT, UPDATE and DELETE as well")
          .hasMessageContaining("postgres.readOnly=true");
    }
    assertThat(reconnects.get()).as("connections lost").isZero();
    assertThat(failedSweeps.get()).as("failed sweeps").isZero();
  }

  /** A sink that adds up lost connections and failed sweeps, and drops everything else. */
  private static MeterSink counting(AtomicLong reconnects, AtomicLong failedSweeps) {
    return new MeterSink() {
      @Override
      public LongConsumer counter(String counter, String description, String... tags) {
        if (counter.equals("kvasir.postgres.reconnects")) {
          return reconnects::addAndGet;
        }
        if (counter.equals("kvasir.engine.sweeps") && List.of(tags).contains("failed")) {
          return failedSweeps::addAndGet;
        }
        return n -> { };
      }

      @Override
      public void functionCounter(String counter, String description, DoubleSupplier value,
          String... tags) {}

      @Override
      public DoubleConsumer summary(String summary, String description, String... tags) {
        return v -> { };
      }

      @Override
      public LongConsumer timer(String timer, String description, String... tags) {
        return n -> { };
      }

      @Override
      public void gauge(String gauge, String description, DoubleSupplier value,
          String... tags) {}
    };
  }

  private static int rows(String schema) throws Exception {
    try (Connection c = TestPostgres.admin(); Statement s = c.createStatement();
        ResultSet r = s.executeQuery("select count(*) from " + schema + ".kv")) {
      r.next();
      return r.getInt(1);
    }
  }

  @Test
  void aSchemaThatIsNotThere_isNotCreated() throws Exception {
    String schema = TestPostgres.freshSchema("absent");
    assertThatThrownBy(() -> Kv.open(TestPostgres.url() + "?schema=" + schema, READ_ONLY))
        .isInstanceOf(KvException.class)
        .hasMessageContaining("there is no Kvasir database in schema " + schema);
    try (Connection c = TestPostgres.admin(); Statement s = c.createStatement();
        ResultSet r = s.executeQuery("select count(*) from pg_namespace where nspname = '"
            + schema + "'")) {
      r.next();
      assertThat(r.getInt(1)).isZero();
    }
  }
}
