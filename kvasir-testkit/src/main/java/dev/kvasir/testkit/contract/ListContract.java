package dev.kvasir.testkit.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kvasir.KvEntry;
import dev.kvasir.KvKey;
import dev.kvasir.KvListIterator;
import dev.kvasir.ListOptions;
import dev.kvasir.ListSelector;
import dev.kvasir.base.KvArgumentException;
import dev.kvasir.base.KvLimitException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/** list: the four selector shapes, limit, reverse, batchSize, cursors (docs/list.md). */
public abstract class ListContract extends ContractBase {
  /** Keys under ["l"]: numbers 0..29 and a few strings, plus neighbours outside the prefix. */
  private final List<KvKey> under = new ArrayList<>();
  /** Every key written, in key order. */
  private final List<KvKey> all = new ArrayList<>();

  /** Called first by each list test; not a {@code @BeforeEach}, which every contract test runs. */
  private void fillListData() {
    var op = kv.atomic();
    for (int i = 0; i < 30; i++) {
      under.add(key("l", i));
    }
    under.add(key("l", "a"));
    under.add(key("l", "b", 1));
    under.add(key("l", "b", 2));
    for (KvKey k : under) {
      op.set(k, k.toString());
    }
    op.set(key("l"), "the prefix key itself");
    op.set(key("k", "before"), 0);
    op.set(key("m", "after"), 0);
    op.commit();
    Collections.sort(under);
    all.addAll(under);
    all.addAll(List.of(key("l"), key("k", "before"), key("m", "after")));
    Collections.sort(all);
  }

  @Test
  void list_prefix_returnsChildrenInKeyOrder_butNotThePrefixKey() {
    fillListData();
    assertThat(keys(list(ListSelector.prefix(key("l"))))).containsExactlyElementsOf(under);
  }

  @Test
  void list_planExample_usersByPrefixLimitReverseAndRange() {
    fillListData();
    kv.set(key("users", "alice"), Map.of("name", "Alice"));
    kv.set(key("users", "bob"), Map.of("name", "Bob"));
    kv.set(key("users", "charlie"), Map.of("name", "Charlie"));
    kv.set(key("posts", "1"), Map.of("title", "Post 1"));
    ListSelector users = ListSelector.prefix(key("users"));
    assertThat(keys(list(users))).containsExactly(
        key("users", "alice"), key("users", "bob"), key("users", "charlie"));
    assertThat(list(users, ListOptions.defaults().limit(2))).hasSize(2);
    assertThat(keys(list(users, ListOptions.defaults().reverse(true)))).containsExactly(
        key("users", "charlie"), key("users", "bob"), key("users", "alice"));
    assertThat(keys(list(ListSelector.range(key("users", "alice"), key("users", "charlie")))))
        .containsExactly(key("users", "alice"), key("users", "bob"));
  }

  @Test
  void list_everySelectorAndOption_matchesTheModel() {
    fillListData();
    Predicate<KvKey> isUnder = k -> k.size() > 1 && k.startsWith(key("l"));
    List<Case> selectors = List.of(
        new Case(ListSelector.prefix(key("l")), isUnder),
        new Case(ListSelector.prefix(key("l")).withStart(key("l", 10)),
            isUnder.and(k -> k.compareTo(key("l", 10)) >= 0)),
        new Case(ListSelector.prefix(key("l")).withEnd(key("l", 10)),
            isUnder.and(k -> k.compareTo(key("l", 10)) < 0)),
        new Case(ListSelector.range(key("l", "b"), key("l", 20)),
            k -> k.compareTo(key("l", "b")) >= 0 && k.compareTo(key("l", 20)) < 0),
        new Case(ListSelector.range(key("k"), key("l", 3)),
            k -> k.compareTo(key("k")) >= 0 && k.compareTo(key("l", 3)) < 0));
    for (Case c : selectors) {
      List<KvKey> model = all.stream().filter(c.filter).toList();
      for (boolean reverse : new boolean[] {false, true}) {
        List<KvKey> expected = new ArrayList<>(model);
        if (reverse) {
          Collections.reverse(expected);
        }
        for (int limit : new int[] {0, 1, 7, 1000}) {
          for (int batch : new int[] {0, 1, 3, 50}) {
            ListOptions o = ListOptions.defaults().reverse(reverse);
            o = limit > 0 ? o.limit(limit) : o;
            o = batch > 0 ? o.batchSize(batch) : o;
            List<KvKey> want = limit > 0 && limit < expected.size()
                ? expected.subList(0, limit) : expected;
            assertThat(keys(list(c.selector, o))).as("%s %s", c.selector, o)
                .containsExactlyElementsOf(want);
          }
        }
      }
    }
  }

  private record Case(ListSelector selector, Predicate<KvKey> filter) {}

  /**
   * Without a chosen batch size the reads grow (100, 200, 400, then 500; docs/list.md §2), so a
   * long list crosses batches of every size.
   */
  @Test
  void list_longerThanEveryGrownBatch_yieldsEachEntryOnce_inBothDirections() {
    int n = 1_234;
    for (int i = 0; i < n; i += 100) {
      var op = kv.atomic();
      for (int j = i; j < Math.min(i + 100, n); j++) {
        op.set(key("long", j), j);
      }
      op.commit();
    }
    List<KvKey> expected = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      expected.add(key("long", i));
    }
    ListSelector s = ListSelector.prefix(key("long"));
    assertThat(keys(list(s, ListOptions.defaults()))).containsExactlyElementsOf(expected);
    Collections.reverse(expected);
    assertThat(keys(list(s, ListOptions.defaults().reverse(true))))
        .containsExactlyElementsOf(expected);
  }

  @Test
  void cursor_takenMidIteration_resumesAtTheNextEntry_inBothDirections() {
    fillListData();
    ListSelector[] selectors = {
      ListSelector.prefix(key("l")),
      ListSelector.range(key("l", "b", 2), key("l", 25)),
      ListSelector.prefix(key("l")).withStart(key("l", 20)),
    };
    for (ListSelector s : selectors) {
      for (boolean reverse : new boolean[] {false, true}) {
        List<KvKey> all = keys(list(s, ListOptions.defaults().reverse(reverse)));
        for (int stop = 1; stop < all.size(); stop += 4) {
          KvListIterator it = kv.list(s, ListOptions.defaults().reverse(reverse).batchSize(3));
          for (int i = 0; i < stop; i++) {
            it.next();
          }
          String cursor = it.cursor();
          List<KvKey> rest = keys(list(s, ListOptions.defaults().reverse(reverse).cursor(cursor)));
          assertThat(rest).as("%s reverse=%s after %d", s, reverse, stop)
              .containsExactlyElementsOf(all.subList(stop, all.size()));
        }
      }
    }
  }

  @Test
  void cursor_afterLimit_isTheLastKey_andPagesThroughEverything() {
    fillListData();
    List<KvKey> seen = new ArrayList<>();
    String cursor = "";
    do {
      KvListIterator page =
          kv.list(ListSelector.prefix(key("l")), ListOptions.defaults().limit(4).cursor(cursor));
      page.forEach(e -> seen.add(e.key()));
      cursor = page.cursor();
    } while (!cursor.isEmpty() && seen.size() < 1000);
    assertThat(seen).containsExactlyElementsOf(under);
  }

  @Test
  void cursor_hasDenoFormat() {
    fillListData();
    kv.set(key("a", 1), 1);
    KvListIterator p = kv.list(ListSelector.prefix(key("a")));
    p.next();
    assertThat(p.cursor()).isEqualTo("Ib_wAAAAAAAA");
    KvListIterator r = kv.list(ListSelector.range(key("a"), key("b")));
    r.next();
    assertThat(r.cursor()).isEqualTo("YQAhv_AAAAAAAAA=");
  }

  @Test
  void cursor_beforeFirstIteration_fails_andAfterExhaustion_isEmpty() {
    fillListData();
    KvListIterator it = kv.list(ListSelector.prefix(key("l", "b")));
    assertThatThrownBy(it::cursor).isInstanceOf(IllegalStateException.class)
        .hasMessage("Cannot get cursor before first iteration");
    it.forEach(e -> { });
    assertThat(it.cursor()).isEmpty();
  }

  @Test
  void cursor_malformed_isRejected() {
    fillListData();
    ListSelector s = ListSelector.range(key("a"), key("b"));
    assertThatThrownBy(() -> kv.list(s, ListOptions.defaults().cursor("YQA")))
        .isInstanceOf(KvArgumentException.class).hasMessageContaining("invalid cursor");
    assertThatThrownBy(() -> kv.list(s, ListOptions.defaults().cursor("Y!A=")))
        .isInstanceOf(KvArgumentException.class).hasMessageContaining("invalid cursor");
    assertThat(kv.list(s, ListOptions.defaults().cursor("YQA=")).hasNext()).isFalse();
  }

  @Test
  void cursor_outsideTheSelector_isOutOfBounds() {
    fillListData();
    ListSelector s = ListSelector.prefix(key("l")).withStart(key("l", 10));
    KvListIterator it = kv.list(ListSelector.prefix(key("l")));
    it.next(); // ["l", 0], before the start of s
    String early = it.cursor();
    assertThatThrownBy(() -> kv.list(s, ListOptions.defaults().cursor(early)))
        .isInstanceOf(KvArgumentException.class).hasMessage("cursor out of bounds");
  }

  @Test
  void list_emptyPrefix_visitsEveryKey() {
    fillListData();
    assertThat(list(ListSelector.prefix(KvKey.of()))).hasSize(under.size() + 3);
  }

  @Test
  void list_iteratorIsLazy_andStreamable() {
    fillListData();
    assertThat(kv.list(ListSelector.prefix(key("l")), ListOptions.defaults().batchSize(2))
        .stream().limit(3).map(KvEntry::key).toList())
        .containsExactlyElementsOf(under.subList(0, 3));
  }

  @Test
  void list_batchSizeAboveLimit_isRejected() {
    fillListData();
    assertThat(list(ListSelector.prefix(key("l")), ListOptions.defaults().batchSize(1000)))
        .hasSize(under.size());
    assertThatThrownBy(() -> kv.list(ListSelector.prefix(key("l")),
        ListOptions.defaults().batchSize(1001)))
        .isInstanceOf(KvLimitException.class).hasMessageContaining("1001 (max 1000)");
  }

  @Test
  void list_invalidOptionsAndSelectors_areRejected() {
    fillListData();
    assertThatThrownBy(() -> ListOptions.defaults().limit(0))
        .hasMessage("Limit must be a positive integer: received 0");
    assertThatThrownBy(() -> ListOptions.defaults().batchSize(-1))
        .hasMessage("batchSize must be a positive integer: received -1");
    assertThatThrownBy(() -> ListSelector.prefix(key("a")).withStart(key("b", 1)))
        .hasMessageContaining("Start key is not in the keyspace defined by prefix");
    assertThatThrownBy(() -> ListSelector.prefix(key("a")).withEnd(key("a")))
        .hasMessageContaining("End key is not in the keyspace defined by prefix");
    assertThatThrownBy(() -> ListSelector.range(key("b"), key("a")))
        .hasMessageContaining("Start key is greater than end key");
    assertThatThrownBy(() -> ListSelector.prefix(key("a")).withStart(key("a", 1))
        .withEnd(key("a", 2)))
        .hasMessageContaining("can not specify both 'start' and 'end'");
  }
}
