package dev.kvasir.dag.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kvasir.dag.CanonicalPail;
import dev.kvasir.dag.PailEntry;
import dev.kvasir.dag.cbor.DagCbor;
import dev.kvasir.dag.cid.Cid;
import dev.kvasir.dag.store.MemoryBlockstore;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A view of the empty pail streams ascending puts into a build and packs puts in any other order,
 * and a view of any other pail applies ascending changes in parts (docs/dag-engine.md §2, "Large
 * transactions"); whatever it is asked, it answers as the map of changes would, and commits the
 * root that applying them gives.
 */
class PailViewTest {
  private final MemoryBlockstore store = new MemoryBlockstore();
  private final CanonicalPail pail = CanonicalPail.open(store);
  private final Cid empty = pail.reader().empty();
  private final TreeMap<String, Cid> model = new TreeMap<>();

  private static Cid value(int n) {
    return Cid.of(Cid.DAG_CBOR, DagCbor.encode((long) n));
  }

  private static String key(int i) {
    return String.format("02%08x00", i * 7L);
  }

  private PailView viewWithAscendingPuts(int count) {
    PailView view = new PailView(pail, pail.reader(), empty);
    for (int i = 0; i < count; i++) {
      assertThat(view.get(key(i))).isNull();
      view.put(key(i), value(i));
      model.put(key(i), value(i));
    }
    return view;
  }

  /** The root that applying the model to the empty pail gives, which never streams. */
  private Cid expectedRoot() {
    return pail.apply(empty, model);
  }

  @Test
  void ascendingPutsOnTheEmptyPail_commitTheRootOfApplyingThem() {
    PailView view = viewWithAscendingPuts(3 * PailView.STREAM_AFTER);

    assertThat(view.get(key(3 * PailView.STREAM_AFTER - 1)))
        .isEqualTo(value(3 * PailView.STREAM_AFTER - 1));
    assertThat(view.get(key(3 * PailView.STREAM_AFTER))).isNull();
    assertThat(view.commit()).isEqualTo(expectedRoot());
  }

  /** Each way of leaving the ascending puts, after they began to stream. */
  @ParameterizedTest
  @ValueSource(strings = {"get", "overwrite", "put below", "remove", "range", "prefixed"})
  void anythingButAnotherAscendingPut_finishesTheStream_andTheViewGoesOnAsAMap(String step) {
    int count = PailView.STREAM_AFTER + 1000;
    PailView view = viewWithAscendingPuts(count);
    switch (step) {
      case "get" -> assertThat(view.get(key(17))).isEqualTo(value(17));
      case "overwrite" -> {
        view.put(key(17), value(-1));
        model.put(key(17), value(-1));
      }
      case "put below" -> {
        view.put("01", value(-2));
        model.put("01", value(-2));
      }
      case "remove" -> {
        view.remove(key(17));
        model.remove(key(17));
      }
      case "range" -> assertThat(keys(view.range(key(10), key(13), true)))
          .containsExactly(key(12), key(11), key(10));
      default -> assertThat(keys(view.prefixed("02"))).hasSize(count);
    }
    view.put(key(count), value(count)); // ascending again, but no longer streamed
    model.put(key(count), value(count));

    assertThat(view.get(key(17))).isEqualTo(model.get(key(17)));
    assertThat(view.commit()).isEqualTo(expectedRoot());
  }

  @Test
  void ascendingPutsOntoAPailThatHoldsEntries_keepThoseEntries() {
    model.put("00", value(0));
    Cid root = pail.build(model);
    PailView view = new PailView(pail, pail.reader(), root);
    for (int i = 0; i < 2 * PailView.STREAM_AFTER; i++) {
      view.put(key(i), value(i));
      model.put(key(i), value(i));
    }
    assertThat(view.commit()).isEqualTo(pail.apply(empty, model));
  }

  /**
   * A backup copy after many changes: puts and removals in ascending key order onto a pail that
   * holds entries. They are applied in parts as they come (their shards are stored before the
   * commit), reads see them, and the commit's root is that of applying them all at once.
   */
  @Test
  void orderedChangesOntoAPailThatHoldsEntries_areAppliedAsTheyCome() {
    for (int i = 0; i < 6 * PailView.STREAM_AFTER; i += 2) {
      model.put(key(i), value(i));
    }
    Cid base = pail.build(model);
    PailView view = new PailView(pail, pail.reader(), base);
    int stored = store.size();
    TreeMap<String, Cid> changes = new TreeMap<>();
    for (int i = 0; i < 6 * PailView.STREAM_AFTER; i++) {
      Cid value = i % 3 == 0 ? null : value(-i);
      if (value == null) {
        view.remove(key(i));
      } else {
        view.put(key(i), value);
      }
      changes.put(key(i), value);
      if (i % 1000 == 999) { // reads below and above the changes so far
        assertThat(view.get(key(i - 500))).isEqualTo(changes.get(key(i - 500)));
        assertThat(view.get(key(i + 2))).isEqualTo(model.get(key(i + 2)));
      }
    }
    assertThat(store.size()).as("shards stored before the commit").isGreaterThan(stored);
    assertThat(keys(view.range(key(2), key(7), false))).containsExactly(key(2), key(4), key(5));

    assertThat(view.commit()).isEqualTo(pail.apply(base, changes));
  }

  /** Changes in any other order would touch the same shards in every part: they wait. */
  @Test
  void unorderedChangesOntoAPailThatHoldsEntries_waitForTheCommit() {
    model.put("00", value(0));
    Cid base = pail.build(model);
    PailView view = new PailView(pail, pail.reader(), base);
    int stored = store.size();
    TreeMap<String, Cid> changes = new TreeMap<>();
    for (int i = 2 * PailView.STREAM_AFTER; i > 0; i--) {
      view.put(key(i), value(i));
      changes.put(key(i), value(i));
    }
    assertThat(store.size()).isEqualTo(stored);
    assertThat(view.commit()).isEqualTo(pail.apply(base, changes));
  }

  /** Puts onto the empty pail in no order, some keys put twice, as a restore's expiry index. */
  private PailView viewWithUnorderedPuts(int count) {
    PailView view = new PailView(pail, pail.reader(), empty);
    Random random = new Random(11);
    for (int i = 0; i < count; i++) {
      int k = random.nextInt(count);
      view.put(key(k), value(i));
      model.put(key(k), value(i));
    }
    return view;
  }

  @Test
  void unorderedPutsOnTheEmptyPail_arePacked_andCommitTheRootOfApplyingThem() {
    PailView view = viewWithUnorderedPuts(3 * PailView.STREAM_AFTER);

    assertThat(view.packedPuts()).isGreaterThan(PailView.STREAM_AFTER);
    assertThat(view.commit()).isEqualTo(expectedRoot());
  }

  /** Each way of leaving the packed puts: they go into the map, and the view goes on as one. */
  @ParameterizedTest
  @ValueSource(strings = {"get", "remove", "range", "prefixed", "a key not Latin-1"})
  void anythingButAnotherPut_sortsThePackedPuts_andTheViewGoesOnAsAMap(String step) {
    PailView view = viewWithUnorderedPuts(PailView.STREAM_AFTER + 1000);
    String some = model.firstKey();
    switch (step) {
      case "get" -> assertThat(view.get(some)).isEqualTo(model.get(some));
      case "remove" -> {
        view.remove(some);
        model.remove(some);
      }
      case "range" -> assertThat(keys(view.range(key(0), key(5_000), false)))
          .containsExactlyElementsOf(model.headMap(key(5_000)).keySet());
      case "prefixed" -> assertThat(keys(view.prefixed("02"))).hasSize(model.size());
      default -> {
        view.put("02\u00e9\u4e2d", value(-3));
        model.put("02\u00e9\u4e2d", value(-3));
      }
    }
    assertThat(view.packedPuts()).isZero();
    view.put(key(1), value(-4)); // not packed again
    model.put(key(1), value(-4));

    assertThat(view.packedPuts()).isZero();
    assertThat(view.get(some)).isEqualTo(model.get(some));
    assertThat(view.commit()).isEqualTo(expectedRoot());
  }

  private static List<String> keys(Iterator<PailEntry> entries) {
    List<String> out = new ArrayList<>();
    entries.forEachRemaining(e -> out.add(e.key()));
    return out;
  }
}
