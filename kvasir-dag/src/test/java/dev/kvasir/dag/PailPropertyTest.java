package dev.kvasir.dag;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kvasir.dag.cid.Cid;
import dev.kvasir.dag.store.Blockstore;
import dev.kvasir.dag.store.Car;
import dev.kvasir.dag.store.DirectoryBlockstore;
import dev.kvasir.dag.store.MemoryBlockstore;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Seeded random puts and deletes against a {@link TreeMap} model, in the spec mode: every
 * listing, get, range query and diff agrees with the model and every reachable shard fits
 * {@code maxShardSize}. Small alphabets make keys share prefixes (so shards split); some keys
 * are long (chunk chains) and some hold astral characters (surrogate pairs at boundaries).
 */
class PailPropertyTest {
  @TempDir
  Path dir;

  static Stream<Arguments> configurations() {
    return Stream.of(Arguments.of(1L, 512, 400), Arguments.of(2L, 1024, 600),
        Arguments.of(3L, 4096, 1500), Arguments.of(4L, 2048, 500),
        Arguments.of(5L, PailOptions.DEFAULT_MAX_SHARD_SIZE, 800));
  }

  @ParameterizedTest(name = "seed {0}, maxShardSize {1}, {2} ops")
  @MethodSource("configurations")
  void randomOperations_agreeWithAModel(long seed, int maxShardSize, int ops)
      throws IOException {
    Random random = new Random(seed);
    PailOptions options = PailOptions.defaults().withMaxShardSize(maxShardSize);
    Pail pail = Pail.open(new MemoryBlockstore(), options);
    Pail onDisk = Pail.open(DirectoryBlockstore.open(dir.resolve("blocks")), options);
    TreeMap<String, Cid> model = new TreeMap<>();
    List<Cid> history = new ArrayList<>();
    List<TreeMap<String, Cid>> models = new ArrayList<>();
    Cid root = pail.empty();
    Cid diskRoot = onDisk.empty();
    int refused = 0;
    for (int i = 0; i < ops; i++) {
      boolean delete = !model.isEmpty() && random.nextInt(10) < 3;
      String key = delete && random.nextBoolean() ? randomExisting(model, random)
          : randomKey(random);
      Cid value = Cid.of(Cid.RAW, ("v" + i).getBytes(StandardCharsets.UTF_8));
      try {
        root = delete ? pail.del(root, key).root() : pail.put(root, key, value).root();
        diskRoot = delete ? onDisk.del(diskRoot, key).root() : onDisk.put(diskRoot, key, value)
            .root();
      } catch (ShardLimitException e) {
        refused++;
        assertThat(pail.get(root, key)).isEqualTo(model.get(key));
        continue;
      }
      if (delete) {
        model.remove(key);
      } else {
        model.put(key, value);
      }
      assertThat(diskRoot).as("roots do not depend on the blockstore").isEqualTo(root);
      assertThat(pail.get(root, key)).as("op %d %s", i, key).isEqualTo(model.get(key));
      if (i % 50 == 0 || i == ops - 1) {
        assertThat(pail.entries(root).toList()).isEqualTo(ScenarioReplay.modelEntries(model));
        assertEveryShardFits(pail, root, maxShardSize);
        history.add(root);
        models.add(new TreeMap<>(model));
      }
    }
    assertThat(refused).as("refused puts of %d", ops).isLessThan(ops / 10);
    checkQueries(pail, root, model, random);
    checkDiffs(pail, history, models);
    checkCar(pail, root, model);
  }

  private static void checkQueries(Pail pail, Cid root, TreeMap<String, Cid> model,
      Random random) {
    for (int q = 0; q < 200; q++) {
      EntriesQuery query = random.nextInt(3) == 0 ? EntriesQuery.prefix(
          PIECES[random.nextInt(PIECES.length)]) : EntriesQuery.all();
      String a = randomKey(random);
      switch (random.nextInt(3)) {
        case 0: query = query.gt(a); break;
        case 1: query = query.gte(random.nextBoolean() ? a : randomExisting(model, random));
          break;
        default: break;
      }
      String b = randomKey(random);
      switch (random.nextInt(3)) {
        case 0: query = query.lt(b); break;
        case 1: query = query.lte(random.nextBoolean() ? b : randomExisting(model, random));
          break;
        default: break;
      }
      List<PailEntry> expected = new ArrayList<>();
      for (PailEntry e : ScenarioReplay.modelEntries(model)) {
        if (query.matches(e.key())) {
          expected.add(e);
        }
      }
      assertThat(pail.entries(root, query).toList()).as(query.toString()).isEqualTo(expected);
    }
  }

  private static void checkDiffs(Pail pail, List<Cid> history, List<TreeMap<String, Cid>> m) {
    for (int i = 0; i + 1 < history.size(); i++) {
      for (int j : new int[] {i + 1, history.size() - 1}) {
        List<KeyChange> expected = ScenarioReplay.changes(m.get(i), m.get(j));
        PailDiff diff = pail.diff(history.get(i), history.get(j));
        assertThat(diff.keys()).isEqualTo(expected);
        assertThat(diff.additions().isEmpty() && diff.removals().isEmpty())
            .isEqualTo(history.get(i).equals(history.get(j)));
      }
    }
  }

  private static void checkCar(Pail pail, Cid root, TreeMap<String, Cid> model)
      throws IOException {
    ByteArrayOutputStream car = new ByteArrayOutputStream();
    Car.export(pail.store(), root, car);
    MemoryBlockstore fresh = new MemoryBlockstore();
    assertThat(Car.load(new ByteArrayInputStream(car.toByteArray()), fresh)).containsExactly(root);
    assertThat(Pail.open(fresh).entries(root).toList())
        .isEqualTo(ScenarioReplay.modelEntries(model));
  }

  static void assertEveryShardFits(Pail pail, Cid root, int max) {
    Deque<Cid> todo = new ArrayDeque<>(List.of(root));
    while (!todo.isEmpty()) {
      Cid cid = todo.pop();
      Blockstore store = pail.store();
      assertThat(store.require(cid).size()).as("shard %s", cid).isLessThanOrEqualTo(max);
      for (ShardEntry e : pail.shard(cid).entries()) {
        if (e.isLink()) {
          todo.push(e.link());
        }
      }
    }
  }

  private static final String[] PIECES = {"a", "b", "c", "ab", "ba", "/", "x", "😀", "é"};

  static String randomKey(Random random) {
    StringBuilder key = new StringBuilder();
    int parts = random.nextInt(10) == 0 ? 40 + random.nextInt(60) : 1 + random.nextInt(8);
    for (int i = 0; i < parts; i++) {
      key.append(PIECES[random.nextInt(PIECES.length)]);
    }
    return key.toString();
  }

  private static String randomExisting(TreeMap<String, Cid> model, Random random) {
    if (model.isEmpty()) {
      return randomKey(random);
    }
    String probe = randomKey(random);
    String k = model.ceilingKey(probe);
    return k != null ? k : model.firstKey();
  }
}
