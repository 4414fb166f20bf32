package dev.kvasir.bench;

import static dev.kvasir.bench.PeerProtocol.line;
import static dev.kvasir.bench.PeerProtocol.require;

import dev.kvasir.CommitResult;
import dev.kvasir.Kv;
import dev.kvasir.KvEntry;
import dev.kvasir.KvKey;
import dev.kvasir.ListSelector;
import dev.kvasir.base.KvOptions;
import dev.kvasir.base.Versionstamp;
import dev.kvasir.key.KeyPart;
import dev.kvasir.server.KvServer;
import dev.kvasir.sqlite.SqliteConfig;
import dev.kvasir.sqlite.SqliteEngine;
import dev.kvasir.value.KvU64;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntSupplier;

/**
 * Kvasir's SQLite engine as a peer of the shared benchmark harness ({@code
 * docs/peer-protocol.md}): six workloads on one database, each verified, one JSON line each.
 *
 * <pre>
 * ./mvnw -B -pl kvasir-bench -am package -DskipTests
 * ./run.sh --peer-cmd "kvasir=java -cp $PWD/kvasir-bench/target/benchmarks.jar dev.kvasir.bench.Peer"
 * </pre>
 *
 * (the second command in the harness directory). W6 workers are platform threads. With
 * {@code -Dkvasir.peer.db=remote} it is the {@code kvasir-remote} peer: the same workloads
 * through Kvasir's KV Connect client to a {@code KvServer} it starts on a SQLite file in
 * {@code --dir}; with {@code -Dkvasir.peer.db=postgresql://…}, the PostgreSQL engine.
 */
public final class Peer {
  private static final String REMOTE_TOKEN = "peer-remote-token";
  private final Map<String, String> args;

  private Peer(Map<String, String> args) {
    this.args = args;
  }

  public static void main(String[] argv) throws Exception {
    System.exit(new Peer(PeerProtocol.arguments(argv)).run());
  }

  private int n(String name, int fallback) {
    return PeerProtocol.n(args, name, fallback);
  }

  /** The protocol's {@code value(i)}: a fresh object, as each peer workload writes it. */
  static Map<String, Object> value(int i) {
    Map<String, Object> v = new LinkedHashMap<>();
    v.put("i", i);
    v.put("name", "user" + i);
    v.put("tags", List.of("a", "b"));
    v.put("active", true);
    return v;
  }

  private int run() throws Exception {
    List<String> workloads = List.of(args.getOrDefault("--workloads", "W1,W2,W3,W4,W5,W6")
        .split(","));
    int n1 = n("--n1", 10000);
    // -Dkvasir.peer.db=postgresql://… runs the workloads on the PostgreSQL engine instead, in a
    // fresh schema of that database, dropped afterwards; -Dkvasir.peer.db=remote through KV
    // Connect (HTTP/2) to a server in this process on a SQLite file in --dir, so the server's
    // cost is a ratio.
    String target = System.getProperty("kvasir.peer.db");
    boolean remote = "remote".equals(target);
    boolean postgres = target != null && !remote;
    String sqlite = Path.of(args.get("--dir")).resolve("kv.sqlite3").toString();
    String engine = postgres ? "postgres engine" : remote ? "KV Connect client, h2c, to"
        + " KvServer on the sqlite engine" : "sqlite engine";
    String durability = postgres
        ? "PostgreSQL synchronous_commit=on, group commit; acknowledged after the WAL flush"
        : "WAL, synchronous=FULL, group commit; acknowledged after fsync";
    System.out.println("{\"meta\":{\"peer\":\"" + (remote ? "kvasir-remote" : "kvasir")
        + "\",\"runtime\":\"java " + System.getProperty("java.version") + "\",\"lib\":\"kvasir"
        + " 0.1 (" + engine + ")\",\"durability\":\"" + durability + "\",\"w6\":\"platform"
        + " threads\"}}");
    try (TempSchema schema = postgres ? new TempSchema(target, "peer") : null;
        SqliteEngine served = remote ? SqliteEngine.open(SqliteConfig.of(sqlite)) : null;
        KvServer server = remote ? KvServer.builder(served).accessToken(REMOTE_TOKEN).port(0)
            .start() : null;
        Kv kv = remote ? Kv.open(server.url(), KvOptions.defaults().with("accessToken",
            REMOTE_TOKEN)) : Kv.open(postgres ? schema.url() : sqlite)) {
      boolean loaded = false;
      for (String w : PeerProtocol.WORKLOADS) {
        if (!workloads.contains(w)) {
          continue;
        }
        if ((w.equals("W2") || w.equals("W4")) && !loaded && !workloads.contains("W1")) {
          w1(kv, n1);
          loaded = true;
        }
        String line;
        try {
          line = switch (w) {
            case "W1" -> { loaded = true; yield w1(kv, n1); }
            case "W2" -> w2(kv, n1, n("--n2", 50000), Long.parseLong(args.getOrDefault("--seed", "42")));
            case "W3" -> w3(kv, n("--n3-commits", 100), n("--n3-batch", 100));
            case "W4" -> w4(kv, n1, n("--n4-reps", 5));
            case "W5" -> w5(kv, n("--n5", 10000));
            default -> w6(kv, n("--n6", 2000), n("--w6-workers", 4));
          };
        } catch (RuntimeException | AssertionError e) {
          System.out.println("{\"workload\":\"" + w + "\",\"ok\":false,\"error\":\""
              + String.valueOf(e.getMessage()).replace("\"", "'") + "\"}");
          return 1;
        }
        System.out.println(line);
        System.out.flush();
      }
    }
    return 0;
  }

  private static int count(Kv kv, KvKey prefix) {
    int n = 0;
    for (KvEntry ignored : kv.list(ListSelector.prefix(prefix))) {
      n++;
    }
    return n;
  }

  /** W1: sets {@code n1} entries, one commit each; the harness's line for it. */
  static String w1(Kv kv, int n1) {
    long start = System.nanoTime();
    Versionstamp previous = null;
    for (int i = 0; i < n1; i++) {
      CommitResult r = kv.set(KvKey.of("bench", i), value(i));
      if (!r.ok() || previous != null && r.versionstamp().compareTo(previous) <= 0) {
        throw new IllegalStateException("W1 commit " + i + " not ok or not increasing");
      }
      previous = r.versionstamp();
    }
    String out = line("W1", n1, start, "");
    require(count(kv, KvKey.of("bench")) == n1, "after W1 expected " + n1 + " entries");
    return out;
  }

  private static String w2(Kv kv, int n1, int n2, long seed) {
    IntSupplier keys = PeerProtocol.w2Keys(seed, n1);
    long checksum = 0;
    long start = System.nanoTime();
    for (int k = 0; k < n2; k++) {
      int r = keys.getAsInt();
      checkedGet(kv, r);
      checksum += r;
    }
    return line("W2", n2, start, ",\"checksum\":" + checksum);
  }

  /** One of W2's gets, checked as the JS peers check it: the value's field equals the index. */
  static void checkedGet(Kv kv, int r) {
    Object v = ((Map<?, ?>) kv.get(KvKey.of("bench", r)).value()).get("i");
    if (((Double) v).intValue() != r) {
      throw new IllegalStateException("W2 get " + r + " returned i=" + v);
    }
  }

  private static String w3(Kv kv, int commits, int batch) {
    long start = System.nanoTime();
    for (int c = 0; c < commits; c++) {
      var op = kv.atomic();
      for (int j = 0; j < batch; j++) {
        op.set(KvKey.of("batch", c, j), value(c * batch + j));
      }
      if (!op.commit().ok()) {
        throw new IllegalStateException("W3 commit " + c + " failed");
      }
    }
    String out = line("W3", (long) commits * batch, start, "");
    require(count(kv, KvKey.of("batch")) == commits * batch, "after W3 wrong entry count");
    return out;
  }

  private static String w4(Kv kv, int n1, int reps) {
    long start = System.nanoTime();
    for (int rep = 0; rep < reps; rep++) {
      checkedScan(kv, n1);
    }
    return line("W4", (long) n1 * reps, start, "");
  }

  /** One of W4's scans, checked as the JS peers check it: key part and value field = index. */
  static void checkedScan(Kv kv, int n1) {
    int k = 0;
    for (KvEntry e : kv.list(ListSelector.prefix(KvKey.of("bench")))) {
      if (!(e.key().get(1) instanceof KeyPart.Num part && part.value() == k
          && ((Double) ((Map<?, ?>) e.value()).get("i")).intValue() == k)) {
        throw new IllegalStateException("W4 entry " + k + " out of order");
      }
      k++;
    }
    require(k == n1, "W4 scan returned " + k + " entries");
  }

  private static String w5(Kv kv, int n5) {
    long start = System.nanoTime();
    for (int i = 0; i < n5; i++) {
      if (!kv.atomic().sum(KvKey.of("ctr"), 1).commit().ok()) {
        throw new IllegalStateException("W5 commit " + i + " failed");
      }
    }
    String out = line("W5", n5, start, "");
    require(KvU64.of(n5).equals(kv.get(KvKey.of("ctr")).value()), "after W5 wrong counter");
    return out;
  }

  private static String w6(Kv kv, int n6, int workers) throws Exception {
    KvKey key = KvKey.of("cas");
    long start = System.nanoTime();
    PeerProtocol.Contention c = PeerProtocol.contend(workers, w -> () -> {
      KvEntry e = kv.get(key);
      double current = e.exists() ? (Double) e.value() : 0;
      if (current >= n6) {
        return null;
      }
      return kv.atomic().check(e).set(key, current + 1).commit().ok();
    });
    String out = line("W6", c.successes(), start, ",\"retries\":" + c.retries()
        + ",\"workers\":" + workers);
    require(c.successes() == n6 && Double.valueOf(n6).equals(kv.get(key).value()),
        "after W6 expected " + n6);
    return out;
  }
}
