package dev.kvasir.dag;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kvasir.dag.cbor.DagCbor;
import dev.kvasir.dag.cid.Cid;
import dev.kvasir.dag.store.MemoryBlockstore;
import java.util.ArrayDeque;
import java.util.HashSet;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The streaming build against {@link CanonicalPail#apply} on the empty pail, which builds from
 * the whole set of entries at once: the same root, and the same blocks stored.
 */
class CanonicalBuilderTest {
  private static final String[] ALPHABETS = {"01", "0123456789abcdef", "ab\u00e9\u4e2d",
      "x\ud83d\ude00\ud83d\ude01\ud83e\udd14"};

  private static Cid value(int n) {
    return Cid.of(Cid.DAG_CBOR, DagCbor.encode((long) n));
  }

  /** A key of code points from {@code alphabet}, which nest deeply when it is small. */
  private static String key(Random random, String alphabet, int maxLength) {
    int[] points = alphabet.codePoints().toArray();
    StringBuilder b = new StringBuilder();
    for (int n = 1 + random.nextInt(maxLength); n > 0; n--) {
      b.appendCodePoint(points[random.nextInt(points.length)]);
    }
    return b.toString();
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12})
  void sortedEntries_giveTheRootAndBlocksOfApplyingThemToTheEmptyPail(int seed) {
    Random random = new Random(seed);
    for (int round = 0; round < 40; round++) {
      int maxShardSize = 64 + random.nextInt(round % 4 == 0 ? 4000 : 300);
      String alphabet = ALPHABETS[random.nextInt(ALPHABETS.length)];
      TreeMap<String, Cid> all = new TreeMap<>();
      for (int i = random.nextInt(round % 5 == 0 ? 3000 : 150); i > 0; i--) {
        all.put(key(random, alphabet, 1 + random.nextInt(16)), value(random.nextInt(50)));
      }
      MemoryBlockstore whole = new MemoryBlockstore();
      CanonicalPail byApply = CanonicalPail.open(whole, maxShardSize);
      Cid expected = byApply.apply(byApply.build(new TreeMap<>()), all);
      MemoryBlockstore streamed = new MemoryBlockstore();
      CanonicalBuilder builder = CanonicalPail.open(streamed, maxShardSize).builder();
      all.forEach(builder::add);

      Cid root = builder.finish();

      String what = "seed " + seed + " round " + round + ", " + all.size() + " keys, shards of "
          + maxShardSize;
      assertThat(root).as(what).isEqualTo(expected);
      Set<Cid> shards = reachable(whole, root);
      assertThat(shards).as(what).allMatch(cid -> streamed.get(cid) != null);
      assertThat(streamed.size()).as(what).isEqualTo(shards.size());
      Map<String, Cid> read = Pail.open(streamed).entries(root)
          .collect(Collectors.toMap(PailEntry::key, PailEntry::value, (a, b) -> a, TreeMap::new));
      assertThat(read).as(what).isEqualTo(all);
    }
  }

  @Test
  void keysThatArePrefixesOfEachOther_rideOnTheirLinks() {
    TreeMap<String, Cid> all = new TreeMap<>();
    String key = "";
    for (int i = 0; i < 200; i++) {
      key += "ab".charAt(i % 2);
      all.put(key, value(i));
      all.put(key + "z", value(-i));
    }
    MemoryBlockstore store = new MemoryBlockstore();
    CanonicalPail pail = CanonicalPail.open(store, 128);
    CanonicalBuilder builder = pail.builder();
    all.forEach(builder::add);

    Cid root = builder.finish();

    assertThat(root).isEqualTo(pail.apply(Pail.open(store).empty(), all));
    assertThat(builder.count()).isEqualTo(400);
  }

  @Test
  void aKeyOutOfOrder_isRefused_andTheBuildGoesOnFromTheLastGoodOne() {
    CanonicalPail pail = CanonicalPail.open(new MemoryBlockstore(), 128);
    CanonicalBuilder builder = pail.builder();
    builder.add("b", value(1));

    assertThatThrownBy(() -> builder.add("a", value(2)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("ascending");
    assertThatThrownBy(() -> builder.add("b", value(2)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("ascending");
    assertThatThrownBy(() -> builder.add("", value(2)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("empty");
    builder.add("c", value(3));

    assertThat(builder.finish()).isEqualTo(pail.build(new TreeMap<>(Map.of("b", value(1),
        "c", value(3)))));
    assertThatThrownBy(() -> builder.add("d", value(4))).isInstanceOf(IllegalStateException.class);
  }

  /** The shards reachable from {@code root} in {@code store}. */
  private static Set<Cid> reachable(MemoryBlockstore store, Cid root) {
    Pail reader = Pail.open(store);
    Set<Cid> out = new HashSet<>();
    ArrayDeque<Cid> todo = new ArrayDeque<>();
    todo.push(root);
    while (!todo.isEmpty()) {
      Cid cid = todo.pop();
      if (out.add(cid)) {
        reader.shard(cid).entries().stream().filter(ShardEntry::isLink)
            .forEach(e -> todo.push(e.link()));
      }
    }
    return out;
  }
}
