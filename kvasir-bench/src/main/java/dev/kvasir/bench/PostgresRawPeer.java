package dev.kvasir.bench;

import static dev.kvasir.bench.PeerProtocol.line;
import static dev.kvasir.bench.PeerProtocol.require;

import java.sql.Array;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.IntSupplier;

/**
 * The {@code postgres-jdbc-raw} floor of the shared harness (docs/peer-protocol.md,
 * docs/performance.md §3): the six workloads as the fewest statements a minimal client of a
 * versioned key-value table on PostgreSQL would send through the same JDBC driver, each commit
 * one statement and one round trip, with the database version bumped in the same statement.
 * Values are the constant-size 52-byte arrays of the sqlite floor, not V8 objects; the W5 and W6
 * counters are a {@code bigint} column; the W6 row exists before the workload starts.
 *
 * <pre>KVASIR_PEER_PG='jdbc:postgresql://127.0.0.1/bench?user=…&amp;password=…' ./run.sh
 *     --peer-cmd "postgres-jdbc-raw=java -cp …/benchmarks.jar dev.kvasir.bench.PostgresRawPeer"</pre>
 *
 * Every run works in a fresh schema of that database and drops it afterwards.
 */
public final class PostgresRawPeer {
  private static final int VALUE_SIZE = 52;

  private final Map<String, String> args;
  private final String url;
  private final String schema = "raw_peer_" + System.nanoTime();

  private PostgresRawPeer(Map<String, String> args, String url) {
    this.args = args;
    this.url = url;
  }

  public static void main(String[] argv) throws Exception {
    Map<String, String> args = PeerProtocol.arguments(argv);
    String url = System.getenv("KVASIR_PEER_PG");
    if (url == null) {
      System.err.println("set KVASIR_PEER_PG to a jdbc:postgresql:// URL");
      System.exit(2);
    }
    System.exit(new PostgresRawPeer(args, url).run());
  }

  private int n(String name, int fallback) {
    return PeerProtocol.n(args, name, fallback);
  }

  private Connection connect() throws SQLException {
    Connection c = DriverManager.getConnection(url);
    try (Statement s = c.createStatement()) {
      s.execute("set search_path to " + schema);
    }
    return c;
  }

  private int run() throws Exception {
    List<String> workloads = List.of(args.getOrDefault("--workloads", "W1,W2,W3,W4,W5,W6")
        .split(","));
    int n1 = n("--n1", 10000);
    System.out.println("{\"meta\":{\"peer\":\"postgres-jdbc-raw\",\"runtime\":\"java "
        + System.getProperty("java.version") + "\",\"lib\":\"pgjdbc, one statement per"
        + " commit\",\"durability\":\"PostgreSQL synchronous_commit as configured (default on:"
        + " acknowledged after the WAL flush)\",\"values\":\"52-byte arrays\"}}");
    try (Connection c = DriverManager.getConnection(url)) {
      try (Statement s = c.createStatement()) {
        s.execute("create schema " + schema);
        s.execute("set search_path to " + schema);
        s.execute("create table data_version (k int primary key, version bigint not null)");
        s.execute("insert into data_version values (0, 0)");
        s.execute("create table kv (k bytea primary key, v bytea not null,"
            + " version bigint not null)");
        s.execute("create table ctr (k bytea primary key, n bigint not null,"
            + " version bigint not null)");
      }
      try {
        for (String w : PeerProtocol.WORKLOADS) {
          if (!workloads.contains(w)) {
            continue;
          }
          if ((w.equals("W2") || w.equals("W4")) && !workloads.contains("W1")
              && count(c) == 0) {
            w1(c, n1);
          }
          String line = switch (w) {
            case "W1" -> w1(c, n1);
            case "W2" -> w2(c, n1, n("--n2", 50000), Long.parseLong(args.getOrDefault("--seed",
                "42")));
            case "W3" -> w3(c, n("--n3-commits", 100), n("--n3-batch", 100));
            case "W4" -> w4(c, n1, n("--n4-reps", 5));
            case "W5" -> w5(c, n("--n5", 10000));
            default -> w6(c, n("--n6", 2000), n("--w6-workers", 4));
          };
          System.out.println(line);
          System.out.flush();
        }
      } catch (RuntimeException | SQLException e) {
        System.out.println("{\"ok\":false,\"error\":\"" + String.valueOf(e.getMessage())
            .replace("\"", "'") + "\"}");
        return 1;
      } finally {
        try (Statement s = c.createStatement()) {
          s.execute("drop schema " + schema + " cascade");
        }
      }
    }
    return 0;
  }

  /** ["bench", i] and the like as distinct byte strings; order is not what W4 checks here. */
  private static byte[] key(String prefix, long... parts) {
    StringBuilder k = new StringBuilder(prefix);
    for (long p : parts) {
      k.append('/').append(String.format("%012d", p));
    }
    return k.toString().getBytes(java.nio.charset.StandardCharsets.US_ASCII);
  }

  private static byte[] value(int i) {
    byte[] v = new byte[VALUE_SIZE];
    v[0] = (byte) (i >>> 24);
    v[1] = (byte) (i >>> 16);
    v[2] = (byte) (i >>> 8);
    v[3] = (byte) i;
    return v;
  }

  private static int valueInt(byte[] v) {
    return (v[0] & 0xff) << 24 | (v[1] & 0xff) << 16 | (v[2] & 0xff) << 8 | v[3] & 0xff;
  }

  private static final String BUMP = "with v as (update data_version set version = version + 1"
      + " where k = 0 returning version) ";

  private static int count(Connection c) throws SQLException {
    try (Statement s = c.createStatement();
        ResultSet r = s.executeQuery("select count(*) from kv where k like 'bench/%'")) {
      r.next();
      return r.getInt(1);
    }
  }

  private String w1(Connection c, int n1) throws SQLException {
    try (PreparedStatement p = c.prepareStatement(BUMP + "insert into kv (k, v, version)"
        + " select ?, ?, version from v on conflict (k) do update set v = excluded.v,"
        + " version = excluded.version returning version")) {
      long start = System.nanoTime();
      long previous = 0;
      for (int i = 0; i < n1; i++) {
        p.setBytes(1, key("bench", i));
        p.setBytes(2, value(i));
        try (ResultSet r = p.executeQuery()) {
          require(r.next() && r.getLong(1) > previous, "W1 commit " + i);
          previous = r.getLong(1);
        }
      }
      String out = line("W1", n1, start, "");
      require(count(c) == n1, "after W1 wrong count");
      return out;
    }
  }

  private String w2(Connection c, int n1, int n2, long seed) throws SQLException {
    try (PreparedStatement p = c.prepareStatement("select v, version from kv where k = ?")) {
      IntSupplier keys = PeerProtocol.w2Keys(seed, n1);
      long sum = 0;
      long start = System.nanoTime();
      for (int k = 0; k < n2; k++) {
        int r = keys.getAsInt();
        p.setBytes(1, key("bench", r));
        try (ResultSet rs = p.executeQuery()) {
          require(rs.next() && valueInt(rs.getBytes(1)) == r, "W2 get " + r);
        }
        sum += r;
      }
      return line("W2", n2, start, ",\"checksum\":" + sum);
    }
  }

  private String w3(Connection c, int commits, int batch) throws SQLException {
    try (PreparedStatement p = c.prepareStatement(BUMP + "insert into kv (k, v, version)"
        + " select nk, nv, v.version from v, unnest(?::bytea[], ?::bytea[]) as n(nk, nv)"
        + " on conflict (k) do update set v = excluded.v, version = excluded.version")) {
      long start = System.nanoTime();
      for (int ci = 0; ci < commits; ci++) {
        byte[][] keys = new byte[batch][];
        byte[][] values = new byte[batch][];
        for (int j = 0; j < batch; j++) {
          keys[j] = key("batch", ci, j);
          values[j] = value(ci * batch + j);
        }
        Array ks = c.createArrayOf("bytea", keys);
        Array vs = c.createArrayOf("bytea", values);
        p.setArray(1, ks);
        p.setArray(2, vs);
        require(p.executeUpdate() == batch, "W3 commit " + ci);
      }
      String out = line("W3", (long) commits * batch, start, "");
      try (Statement s = c.createStatement();
          ResultSet r = s.executeQuery("select count(*) from kv where k like 'batch/%'")) {
        require(r.next() && r.getInt(1) == commits * batch, "after W3 wrong count");
      }
      return out;
    }
  }

  private String w4(Connection c, int n1, int reps) throws SQLException {
    try (PreparedStatement p = c.prepareStatement("select k, v, version from kv where k >= ?"
        + " and k < ? order by k")) {
      long start = System.nanoTime();
      for (int rep = 0; rep < reps; rep++) {
        p.setBytes(1, "bench/".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        p.setBytes(2, "bench0".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        int idx = 0;
        try (ResultSet r = p.executeQuery()) {
          while (r.next()) {
            require(valueInt(r.getBytes(2)) == idx, "W4 entry " + idx);
            idx++;
          }
        }
        require(idx == n1, "W4 scan returned " + idx);
      }
      return line("W4", (long) n1 * reps, start, "");
    }
  }

  private String w5(Connection c, int n5) throws SQLException {
    try (PreparedStatement p = c.prepareStatement(BUMP + "insert into ctr (k, n, version)"
        + " select ?, 1, version from v on conflict (k) do update set n = ctr.n + 1,"
        + " version = excluded.version")) {
      long start = System.nanoTime();
      for (int i = 0; i < n5; i++) {
        p.setBytes(1, key("ctr"));
        require(p.executeUpdate() == 1, "W5 commit " + i);
      }
      String out = line("W5", n5, start, "");
      require(counter(c, key("ctr"))[0] == n5, "after W5 wrong counter");
      return out;
    }
  }

  private static long[] counter(Connection c, byte[] k) throws SQLException {
    try (PreparedStatement p = c.prepareStatement("select n, version from ctr where k = ?")) {
      p.setBytes(1, k);
      try (ResultSet r = p.executeQuery()) {
        return r.next() ? new long[] {r.getLong(1), r.getLong(2)} : new long[] {0, -1};
      }
    }
  }

  private String w6(Connection c, int n6, int workers) throws Exception {
    byte[] k = key("cas");
    try (Statement s = c.createStatement()) {
      s.execute("insert into ctr values ('\\x636173'::bytea, 0, 0)"); // "cas", untimed
    }
    List<Connection> connections = new ArrayList<>();
    for (int w = 0; w < workers; w++) {
      connections.add(connect());
    }
    // The version moves only if the check holds when the statement starts; the outer update's
    // own condition is checked again on the row it locks (read committed), so of two racing
    // increments one wins.
    String checked = "with v as (update data_version set version = version + 1 where k = 0"
        + " and exists (select 1 from ctr where k = ? and version = ?) returning version)"
        + " update ctr set n = ?, version = v.version from v where ctr.k = ? and ctr.version = ?";
    try {
      long start = System.nanoTime();
      PeerProtocol.Contention result = PeerProtocol.contend(workers, w -> () -> {
        Connection wc = connections.get(w);
        long[] e = counter(wc, k);
        if (e[0] >= n6) {
          return null;
        }
        try (PreparedStatement check = wc.prepareStatement(checked)) {
          check.setBytes(1, k);
          check.setLong(2, e[1]);
          check.setLong(3, e[0] + 1);
          check.setBytes(4, k);
          check.setLong(5, e[1]);
          return check.executeUpdate() == 1;
        }
      });
      String out = line("W6", result.successes(), start, ",\"retries\":" + result.retries()
          + ",\"workers\":" + workers);
      require(result.successes() == n6 && counter(c, k)[0] == n6, "after W6 expected " + n6);
      return out;
    } finally {
      for (Connection wc : connections) {
        wc.close();
      }
    }
  }
}
