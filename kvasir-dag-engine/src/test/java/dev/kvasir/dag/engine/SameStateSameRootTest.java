package dev.kvasir.dag.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kvasir.Kv;
import dev.kvasir.KvKey;
import dev.kvasir.base.KvArgumentException;
import dev.kvasir.base.Versionstamp;
import dev.kvasir.dag.cid.Cid;
import dev.kvasir.memory.MemoryEngine;
import dev.kvasir.spi.KvEngine;
import dev.kvasir.spi.RawKey;
import dev.kvasir.spi.StoredEntry;
import dev.kvasir.sqlite.SqliteConfig;
import dev.kvasir.sqlite.SqliteEngine;
import dev.kvasir.value.EncodedValue;
import dev.kvasir.value.KvU64;
import java.math.BigInteger;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One random keyspace loaded in three orders into the memory, SQLite and KV/DAG engines: every
 * engine reports the same keyspace root, and the DAG engine's own incrementally kept root is
 * that root too (docs/dag-keyspace.md §3).
 */
class SameStateSameRootTest {
  @TempDir Path dir;

  private static List<StoredEntry> randomKeyspace(Random random, int n) {
    Map<RawKey, StoredEntry> out = new TreeMap<>();
    long far = System.currentTimeMillis() + 86_400_000L;
    while (out.size() < n) {
      KvKey key = switch (random.nextInt(4)) {
        case 0 -> KvKey.of("users", "u" + random.nextInt(5000));
        case 1 -> KvKey.of("orders", random.nextInt(300), "line", random.nextInt(40));
        case 2 -> KvKey.of("blob", new byte[] {(byte) random.nextInt(256)}, random.nextDouble());
        default -> KvKey.of("flag", random.nextBoolean(), BigInteger.valueOf(random.nextLong()));
      };
      Object value = switch (random.nextInt(4)) {
        case 0 -> "value " + random.nextInt();
        case 1 -> KvU64.of(random.nextInt(1_000_000));
        case 2 -> new byte[random.nextInt(64)];
        default -> Map.of("n", random.nextInt(), "s", "x".repeat(random.nextInt(200)));
      };
      long expiry = random.nextInt(5) == 0 ? far + random.nextInt(1_000_000) : StoredEntry.NEVER;
      RawKey raw = RawKey.wrap(key.encode());
      out.put(raw, new StoredEntry(raw, EncodedValue.of(value),
          Versionstamp.ofVersion(1 + random.nextInt(1_000_000)), expiry));
    }
    return new ArrayList<>(out.values());
  }

  /** Loads in batches of up to 97 entries, in the given order. */
  private static void load(KvEngine engine, List<StoredEntry> entries) {
    for (int from = 0; from < entries.size(); from += 97) {
      engine.load(entries.subList(from, Math.min(entries.size(), from + 97)));
    }
  }

  @Test
  void threeOrdersIntoThreeEngines_giveOneRoot() {
    List<StoredEntry> keyspace = randomKeyspace(new Random(7), 3000);
    List<StoredEntry> shuffled = new ArrayList<>(keyspace);
    Collections.shuffle(shuffled, new Random(1));
    List<StoredEntry> reversed = new ArrayList<>(keyspace);
    Collections.reverse(reversed);

    List<Cid> roots = new ArrayList<>();
    try (KvEngine memory = MemoryEngine.open();
        KvEngine sqlite = SqliteEngine.open(SqliteConfig.of(dir.resolve("a.sqlite3").toString()));
        DagEngine dag = DagEngine.open(dir.resolve("dag"))) {
      load(memory, keyspace);
      load(sqlite, shuffled);
      load(dag, reversed);
      roots.add(Fingerprint.of(memory));
      roots.add(Fingerprint.of(sqlite));
      roots.add(Fingerprint.of(dag));
      roots.add(dag.fingerprint());
    }
    assertThat(roots).hasSize(4).containsOnly(roots.get(0));
  }

  /**
   * One load of more entries than a transaction holds before it streams them into a build
   * ({@code PailView.STREAM_AFTER}, docs/dag-engine.md §2) against loads in small shuffled
   * batches, which apply theirs: one root, and the engine reads every entry back.
   */
  @Test
  void oneLargeLoadInKeyOrder_givesTheRootOfSmallLoadsInAnyOrder() {
    List<StoredEntry> keyspace = randomKeyspace(new Random(10), 3 * PailView.STREAM_AFTER);
    List<StoredEntry> shuffled = new ArrayList<>(keyspace);
    Collections.shuffle(shuffled, new Random(2));
    try (DagEngine whole = DagEngine.open(dir.resolve("whole"));
        DagEngine batches = DagEngine.open(dir.resolve("batches"))) {
      whole.load(keyspace);
      load(batches, shuffled);

      assertThat(whole.fingerprint()).isEqualTo(batches.fingerprint())
          .isEqualTo(Fingerprint.of(whole));
    }
  }

  @Test
  void oneChangedVersionstamp_changesTheRoot() {
    List<StoredEntry> keyspace = randomKeyspace(new Random(8), 200);
    List<StoredEntry> changed = new ArrayList<>(keyspace);
    StoredEntry e = changed.get(100);
    changed.set(100, new StoredEntry(e.key(), e.value(),
        Versionstamp.ofVersion(e.versionstamp().version() + 1), e.expireAtMs()));
    try (KvEngine a = MemoryEngine.open(); KvEngine b = MemoryEngine.open()) {
      load(a, keyspace);
      load(b, changed);
      assertThat(Fingerprint.of(a)).isNotEqualTo(Fingerprint.of(b));
    }
  }

  @Test
  void loading_movesTheVersionAboveEveryLoadedVersionstamp() throws Exception {
    List<StoredEntry> keyspace = randomKeyspace(new Random(9), 50);
    long highest = keyspace.stream().mapToLong(s -> s.versionstamp().version()).max()
        .orElseThrow();
    try (DagEngine dag = DagEngine.open(dir.resolve("dag2"));
        Kv kv = Kv.of(dag)) {
      dag.load(keyspace);
      Versionstamp next = kv.set(KvKey.of("after"), 1).versionstamp();
      assertThat(next.version()).isGreaterThan(highest);
    }
  }

  @Test
  void aVersionstampWithABatchSuffix_isRefused() {
    byte[] stamp = Versionstamp.ofVersion(5).toBytes();
    stamp[9] = 1;
    RawKey key = RawKey.wrap(KvKey.of("k").encode());
    try (KvEngine memory = MemoryEngine.open()) {
      assertThatThrownBy(() -> memory.load(List.of(new StoredEntry(key, EncodedValue.of(1),
          Versionstamp.of(stamp), StoredEntry.NEVER))))
          .isInstanceOf(KvArgumentException.class).hasMessageContaining("eight-byte");
    }
  }
}
