package dev.kvasir.dag;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kvasir.dag.cbor.DagCbor;
import dev.kvasir.dag.cid.Cid;
import dev.kvasir.dag.store.MemoryBlockstore;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class CanonicalPailTest {
  private final MemoryBlockstore store = new MemoryBlockstore();

  private static Cid value(int n) {
    return Cid.of(Cid.DAG_CBOR, DagCbor.encode((long) n));
  }

  /** Keys from a small alphabet, so that they share long prefixes and nest deeply. */
  private static String key(Random random, String alphabet, int maxLength) {
    int length = 1 + random.nextInt(maxLength);
    StringBuilder b = new StringBuilder(length);
    for (int i = 0; i < length; i++) {
      b.append(alphabet.charAt(random.nextInt(alphabet.length())));
    }
    return b.toString();
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 2, 3, 4, 5, 6, 7, 8})
  void applyingBatches_givesTheRootThatBuildingTheResultGives(int seed) {
    Random random = new Random(seed);
    CanonicalPail pail = CanonicalPail.open(store, 64 + random.nextInt(400));
    String alphabet = seed % 2 == 0 ? "01" : "0123456789abcdef";
    TreeMap<String, Cid> model = new TreeMap<>();
    Cid root = pail.build(model);
    for (int round = 0; round < 60; round++) {
      TreeMap<String, Cid> changes = new TreeMap<>();
      int size = 1 + random.nextInt(round % 10 == 0 ? 200 : 8);
      List<String> existing = new ArrayList<>(model.keySet());
      for (int i = 0; i < size; i++) {
        boolean delete = !existing.isEmpty() && random.nextInt(3) == 0;
        if (delete) {
          changes.put(existing.get(random.nextInt(existing.size())), null);
        } else {
          changes.put(key(random, alphabet, 12), value(random.nextInt(1000)));
        }
      }
      changes.forEach((k, v) -> {
        if (v == null) {
          model.remove(k);
        } else {
          model.put(k, v);
        }
      });
      root = pail.apply(root, changes);
      assertThat(root).as("round %d", round).isEqualTo(pail.build(model));
      Map<String, Cid> read = pail.reader().entries(root)
          .collect(Collectors.toMap(PailEntry::key, PailEntry::value, (a, b) -> a, TreeMap::new));
      assertThat(read).isEqualTo(model);
    }
  }

  /**
   * Keys whose first characters are different code points with one high surrogate (😀, 😁,
   * 🤔 and 😀x share U+D83D or U+D83E): grouped by UTF-16 unit they formed one group with an
   * empty common prefix, and the build recursed until the stack overflowed, or wrote a link
   * with an empty key that no reader accepts (docs/dag-keyspace.md §3).
   */
  @ParameterizedTest
  @ValueSource(ints = {1, 2, 3, 4})
  void keysSharingAHighSurrogate_buildAReadablePail_andApplyingGivesTheSameRoot(int seed) {
    Random random = new Random(seed);
    CanonicalPail pail = CanonicalPail.open(store, 64 + random.nextInt(200));
    TreeMap<String, Cid> all = new TreeMap<>();
    Cid root = pail.build(all);
    for (int round = 0; round < 20; round++) {
      TreeMap<String, Cid> batch = new TreeMap<>();
      for (int i = 0; i < 25; i++) {
        StringBuilder key = new StringBuilder();
        for (int n = 1 + random.nextInt(6); n > 0; n--) {
          key.appendCodePoint(new int[] {0x1F600, 0x1F601, 0x1F914, 'x'}[random.nextInt(4)]);
        }
        batch.put(key.toString(), value(i));
      }
      all.putAll(batch);
      root = pail.apply(root, batch);
      assertThat(root).as("round %d", round).isEqualTo(pail.build(all));
    }
    Map<String, Cid> read = Pail.open(store).entries(root)
        .collect(Collectors.toMap(PailEntry::key, PailEntry::value, (a, b) -> a, TreeMap::new));
    assertThat(read).isEqualTo(all);
    assertThat(pail.reader().shard(root).entries()).anyMatch(ShardEntry::isLink);
  }

  /**
   * A large apply, with no shard cache at all: the shards it makes are stored only when it ends,
   * and it read them back through the cache alone, so one that the cache had dropped was "missing
   * from the blockstore". A backup copy after half of a million keys changed failed so, with
   * any heap (docs/dag-keyspace.md §3).
   */
  @Test
  void aLargeApply_readsBackTheShardsItMade_whateverTheCacheHolds() {
    CanonicalPail pail = CanonicalPail.open(store, 256, 0);
    TreeMap<String, Cid> all = new TreeMap<>();
    for (int i = 0; i < 20_000; i++) {
      all.put(String.format("%08x", i * 2654435761L & 0xffffffffL), value(i));
    }
    Cid root = pail.build(all);
    TreeMap<String, Cid> changes = new TreeMap<>();
    int n = 0;
    for (String k : all.keySet()) {
      if (n++ % 2 == 0) {
        changes.put(k, value(100_000 + n));
      }
    }
    Random random = new Random(11);
    for (int i = 0; i < 5_000; i++) {
      changes.put(String.format("%08x", random.nextInt()) + "z", value(i));
    }
    all.putAll(changes);

    root = pail.apply(root, changes);

    assertThat(root).isEqualTo(CanonicalPail.open(new MemoryBlockstore(), 256).build(all));
  }

  @Test
  void theOrderOfWrites_doesNotChangeTheRoot() {
    Random random = new Random(42);
    TreeMap<String, Cid> all = new TreeMap<>();
    for (int i = 0; i < 2000; i++) {
      all.put(key(random, "0123456789abcdef", 20), value(i));
    }
    CanonicalPail pail = CanonicalPail.open(store, 512);
    List<String> keys = new ArrayList<>(all.keySet());
    List<Cid> roots = new ArrayList<>();
    for (int order = 0; order < 3; order++) {
      Collections.shuffle(keys, new Random(order));
      Cid root = pail.build(new TreeMap<>());
      for (int from = 0; from < keys.size(); from += 37) {
        TreeMap<String, Cid> batch = new TreeMap<>();
        for (String k : keys.subList(from, Math.min(keys.size(), from + 37))) {
          batch.put(k, all.get(k));
        }
        root = pail.apply(root, batch);
      }
      roots.add(root);
    }
    assertThat(roots).containsOnly(pail.build(all));
    assertThat(pail.reader().shard(roots.get(0)).entries()).anyMatch(ShardEntry::isLink);
  }

  @Test
  void deletingEverything_givesTheEmptyPail() {
    CanonicalPail pail = CanonicalPail.open(store, 128);
    TreeMap<String, Cid> all = new TreeMap<>();
    for (int i = 0; i < 300; i++) {
      all.put(Integer.toHexString(i * 7919), value(i));
    }
    Cid root = pail.build(all);
    TreeMap<String, Cid> gone = new TreeMap<>();
    all.keySet().forEach(k -> gone.put(k, null));
    assertThat(pail.apply(root, gone)).isEqualTo(Pail.open(store).empty());
  }

  @Test
  void onlyTheShardsOfTheNewRootAreStored() {
    CanonicalPail pail = CanonicalPail.open(store, 256);
    TreeMap<String, Cid> all = new TreeMap<>();
    for (int i = 0; i < 500; i++) {
      all.put(String.format("%08x", i * 2654435761L & 0xffffffffL), value(i));
    }
    Cid root = pail.build(all);
    int before = store.size();
    root = pail.apply(root, new TreeMap<>(Map.of("00000001", value(1))));
    int added = store.size() - before;
    assertThat(added).isBetween(1, 6);
  }

  @Test
  void anEmptyKey_isRefused() {
    CanonicalPail pail = CanonicalPail.open(store);
    TreeMap<String, Cid> bad = new TreeMap<>();
    bad.put("", value(1));
    assertThatThrownBy(() -> pail.build(bad)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("empty");
  }
}
