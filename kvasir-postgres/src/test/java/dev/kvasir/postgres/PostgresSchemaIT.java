package dev.kvasir.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kvasir.Kv;
import dev.kvasir.KvEntry;
import dev.kvasir.KvKey;
import dev.kvasir.ListSelector;
import dev.kvasir.base.KvException;
import dev.kvasir.base.KvUnavailableException;
import dev.kvasir.key.KeyPart;
import dev.kvasir.value.KvU64;
import java.net.ServerSocket;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;

/** Opening: concurrent migration, refusing schemas that are not Kvasir's, key order. */
class PostgresSchemaIT {
  private static long count(String sql) throws Exception {
    try (Connection c = TestPostgres.admin(); Statement s = c.createStatement();
        ResultSet r = s.executeQuery(sql)) {
      r.next();
      return r.getLong(1);
    }
  }

  @Test
  void manyInstancesOpeningAFreshSchemaAtOnce_migrateItOnce() throws Exception {
    String schema = TestPostgres.freshSchema("race");
    String url = TestPostgres.url() + "?schema=" + schema + "&poolSize=3";
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      List<Future<Kv>> opened = new ArrayList<>();
      for (int i = 0; i < 8; i++) {
        int n = i;
        Callable<Kv> open = () -> {
          Kv kv = Kv.open(url);
          kv.set(KvKey.of("opened", n), true);
          return kv;
        };
        opened.add(pool.submit(open));
      }
      for (Future<Kv> f : opened) {
        f.get().close();
      }
    } finally {
      pool.shutdown();
    }
    assertThat(count("select count(*) from " + schema + ".migration_state")).isOne();
    assertThat(count("select version from " + schema + ".migration_state")).isEqualTo(
        Schema.VERSION);
    assertThat(count("select count(*) from " + schema + ".kv")).isEqualTo(8);
  }

  @Test
  void schemaWithOtherTables_isRefused_andLeftAlone() throws Exception {
    String schema = TestPostgres.freshSchema("app");
    try (Connection c = TestPostgres.admin(); Statement s = c.createStatement()) {
      s.execute("create schema " + schema);
      s.execute("create table " + schema + ".orders (id int)");
    }
    assertThatThrownBy(() -> Kv.open(TestPostgres.url() + "?schema=" + schema))
        .isInstanceOf(KvException.class)
        .hasMessageContaining("is not a Kvasir database").hasMessageContaining("[orders]");
    assertThat(count("select count(*) from information_schema.tables where table_schema = '"
        + schema + "'")).isOne();
  }

  @Test
  void schemaFromANewerKvasir_isRefused_andLeftAlone() throws Exception {
    String schema = TestPostgres.freshSchema("newer");
    String url = TestPostgres.url() + "?schema=" + schema;
    Kv.open(url).close();
    try (Connection c = TestPostgres.admin(); Statement s = c.createStatement()) {
      s.execute("update " + schema + ".migration_state set version = " + (Schema.VERSION + 1));
    }
    assertThatThrownBy(() -> Kv.open(url)).isInstanceOf(KvException.class)
        .hasMessageContaining("created by a newer Kvasir");
    assertThat(count("select version from " + schema + ".migration_state"))
        .isEqualTo(Schema.VERSION + 1);
  }

  @Test
  void schemaFromAnOlderKvasir_isUpgraded_keepingItsData() throws Exception {
    String schema = TestPostgres.freshSchema("older");
    String url = TestPostgres.url() + "?schema=" + schema;
    try (Kv kv = Kv.open(url)) {
      kv.set(KvKey.of("kept"), "from before");
    }
    // Undo the last two migrations (the server-side u64 functions, the promise to listen), as
    // an older Kvasir left it.
    try (Connection c = TestPostgres.admin(); Statement s = c.createStatement()) {
      s.execute("drop function " + schema + ".u64_mutate, " + schema + ".u64_value, " + schema
          + ".u64_bytes");
      s.execute("alter table " + schema + ".data_version drop column listened_until");
      s.execute("update " + schema + ".migration_state set version = " + (Schema.VERSION - 2));
    }
    try (Kv kv = Kv.open(url)) {
      assertThat(kv.get(KvKey.of("kept")).value()).isEqualTo("from before");
      kv.atomic().sum(KvKey.of("n"), 2).commit();
      kv.atomic().sum(KvKey.of("n"), 3).commit();
      assertThat(kv.get(KvKey.of("n")).value()).isEqualTo(KvU64.of(5));
      kv.set(KvKey.of("after"), "the upgrade"); // its statement reads listened_until
    }
    assertThat(count("select version from " + schema + ".migration_state"))
        .isEqualTo(Schema.VERSION);
  }

  @Test
  void aRoleWithoutPrivileges_isToldWhichItNeeds_andServedOnceGranted() throws Exception {
    String schema = TestPostgres.freshSchema("granted");
    String role = schema + "_app";
    try (Connection c = TestPostgres.admin(); Statement s = c.createStatement()) {
      s.execute("create role " + role + " login"); // no CREATE on the database
    }
    String admin = TestPostgres.url() + "?schema=" + schema;
    String app = admin.replaceFirst("postgres@", role + "@");
    assertThatThrownBy(() -> Kv.open(app)).isInstanceOf(KvException.class)
        .hasMessageContaining("the role " + role + " lacks a privilege")
        .hasMessageContaining("CREATE on the database");

    try (Kv kv = Kv.open(admin)) {
      kv.set(KvKey.of("made by"), "the owner");
    }
    // A Kvasir schema whose tables the role may not read was taken for an empty one, and its
    // tables created again: "relation already exists".
    assertThatThrownBy(() -> Kv.open(app)).isInstanceOf(KvException.class)
        .hasMessageContaining("lacks a privilege")
        .hasMessageContaining("USAGE on it and SELECT, INSERT, UPDATE and DELETE");

    try (Connection c = TestPostgres.admin(); Statement s = c.createStatement()) {
      s.execute("grant usage on schema " + schema + " to " + role);
      s.execute("grant select, insert, update, delete on all tables in schema " + schema
          + " to " + role);
    }
    try (Kv kv = Kv.open(app)) {
      assertThat(kv.get(KvKey.of("made by")).value()).isEqualTo("the owner");
      kv.atomic().sum(KvKey.of("n"), 2).commit();
      assertThat(kv.get(KvKey.of("n")).value()).isEqualTo(KvU64.of(2));
    }
  }

  @Test
  void dataSource_isBorrowedFrom_andStaysUsableAfterClose() throws Exception {
    PGSimpleDataSource source = new PGSimpleDataSource();
    source.setUrl("jdbc:" + TestPostgres.url().replace("postgres@", ""));
    source.setUser("postgres");
    String schema = TestPostgres.freshSchema("ds");
    try (Kv kv = Kv.of(PostgresEngine.open(PostgresConfig.of(source).schema(schema)))) {
      kv.set(KvKey.of("via", "data source"), 1);
      assertThat(kv.get(KvKey.of("via", "data source")).exists()).isTrue();
    }
    try (Connection c = source.getConnection(); Statement s = c.createStatement();
        ResultSet r = s.executeQuery("select count(*) from " + schema + ".kv")) {
      r.next();
      assertThat(r.getLong(1)).isOne();
    }
  }

  @Test
  void unreachableServer_failsAtOnceWithAClearError_thatSaysLaterMaySucceed() throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    // Unavailable, not a plain failure: kvasir serve waits for such a server (--db-wait).
    assertThatThrownBy(() -> Kv.open("postgresql://nobody:pw@localhost:" + port + "/none"))
        .isInstanceOf(KvUnavailableException.class).hasMessageContaining("cannot connect to")
        .hasMessageContaining("localhost:" + port).hasMessageNotContaining("pw");
    // pgjdbc says only "The connection attempt failed." for a name that does not resolve.
    assertThatThrownBy(() -> Kv.open("postgresql://nobody@no-such-host.invalid/none"))
        .isInstanceOf(KvUnavailableException.class)
        .hasMessageEndingWith("(unknown host no-such-host.invalid)");
    // A server that answers that there is no such database: waiting would not mend it.
    assertThatThrownBy(() -> Kv.open(TestPostgres.url().replaceAll("/postgres$", "/nosuchdb")))
        .isInstanceOf(KvException.class).isNotInstanceOf(KvUnavailableException.class)
        .hasMessageContaining("\"nosuchdb\" does not exist");
  }

  /** bytea compares as unsigned bytes whatever the database's collation: Deno's key order. */
  @Test
  void keys_listInUnsignedByteOrder() throws Exception {
    try (Kv kv = Kv.open(TestPostgres.url() + "?schema=" + TestPostgres.freshSchema("order"))) {
      Random random = new Random(7);
      List<byte[]> written = new ArrayList<>();
      for (int i = 0; i < 300; i++) {
        byte[] b = new byte[random.nextInt(4)];
        random.nextBytes(b);
        if (i % 3 == 0 && b.length > 0) {
          b[0] = (byte) (i % 2 == 0 ? 0x00 : 0xff); // extremes, and prefixes of each other
        }
        written.add(b);
        kv.set(KvKey.of("k", b), i);
      }
      List<String> expected = written.stream().map(b -> HexFormat.of().formatHex(b)).distinct()
          .sorted((x, y) -> java.util.Arrays.compareUnsigned(
              HexFormat.of().parseHex(x), HexFormat.of().parseHex(y))).toList();
      List<String> listed = new ArrayList<>();
      for (KvEntry e : kv.list(ListSelector.prefix(KvKey.of("k")))) {
        listed.add(HexFormat.of().formatHex(((KeyPart.Bytes) e.key().get(1)).value()));
      }
      assertThat(listed).isEqualTo(expected);
    }
  }
}
