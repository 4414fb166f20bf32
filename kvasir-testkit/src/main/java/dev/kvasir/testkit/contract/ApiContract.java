package dev.kvasir.testkit.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kvasir.KvEntry;
import dev.kvasir.KvKey;
import dev.kvasir.ListOptions;
import dev.kvasir.ListSelector;
import dev.kvasir.TransactOptions;
import dev.kvasir.base.KvArgumentException;
import dev.kvasir.base.KvConflictException;
import dev.kvasir.testkit.load.ContendedIncrements;
import dev.kvasir.value.KvU64;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * What the Java API adds over the engine (docs/list.md §4, docs/atomic.md §8): reading any
 * number of keys, keys-only and depth-limited lists, counting and deleting a range, the u64
 * shortcuts, and transactions that retry.
 */
public abstract class ApiContract extends ContractBase {
  @Test
  void getAll_readsPastTenKeys_inOrder() {
    List<KvKey> keys = new ArrayList<>();
    for (int i = 0; i < 24; i++) {
      keys.add(key("index", i));
      if (i % 3 == 0) {
        kv.set(key("index", i), i);
      }
    }
    List<KvEntry> read = kv.getAll(keys);
    assertThat(read).extracting(KvEntry::key).isEqualTo(keys);
    for (int i = 0; i < 24; i++) {
      assertThat(read.get(i).exists()).as("key %d", i).isEqualTo(i % 3 == 0);
    }
  }

  @Test
  void u64Shortcuts_sumMinAndMax_andANegativeSumSubtracts() {
    kv.sum(key("n"), 10);
    kv.sum(key("n"), -3);
    assertThat(kv.get(key("n")).value()).isEqualTo(KvU64.of(7));
    kv.min(key("n"), 5);
    assertThat(kv.get(key("n")).value()).isEqualTo(KvU64.of(5));
    kv.max(key("n"), 9);
    assertThat(kv.get(key("n")).value()).isEqualTo(KvU64.of(9));
  }

  private void fillTree() {
    // users/{a,b,c}, with posts below a and c, and a deep comment below a's post.
    for (String user : List.of("a", "b", "c")) {
      kv.set(key("users", user), user);
    }
    kv.set(key("users", "a", "posts", 1), "a1");
    kv.set(key("users", "a", "posts", 1, "comments", 1), "deep");
    kv.set(key("users", "c", "posts", 1), "c1");
    kv.set(key("users", "d", "posts", 1), "only deep"); // no ["users", "d"] itself
    kv.set(key("other"), "x");
  }

  @Test
  void depthLimitedLists_returnOnlyTheLevelsAsked_inBothDirections() {
    fillTree();
    ListSelector users = ListSelector.prefix(key("users"));
    assertThat(keys(list(users, ListOptions.defaults().depth(1))))
        .containsExactly(key("users", "a"), key("users", "b"), key("users", "c"));
    assertThat(keys(list(users, ListOptions.defaults().depth(1).reverse(true))))
        .containsExactly(key("users", "c"), key("users", "b"), key("users", "a"));
    assertThat(keys(list(users, ListOptions.defaults().depth(3).batchSize(1))))
        .containsExactly(key("users", "a"), key("users", "a", "posts", 1), key("users", "b"),
            key("users", "c"), key("users", "c", "posts", 1), key("users", "d", "posts", 1));
    assertThat(keys(list(users, ListOptions.defaults().depth(1).limit(2))))
        .containsExactly(key("users", "a"), key("users", "b"));
    assertThatThrownBy(() -> kv.list(ListSelector.range(key("a"), key("z")),
        ListOptions.defaults().depth(1))).isInstanceOf(KvArgumentException.class);
  }

  @Test
  void listKeys_count_andDeleteRange_coverTheSelection() {
    for (int i = 0; i < 1_500; i++) { // more than one atomic operation of deletes
      kv.set(key("bulk", i), i);
    }
    kv.set(key("bulk"), "the prefix key itself stays");
    kv.set(key("keep", 1), 1);
    ListSelector bulk = ListSelector.prefix(key("bulk"));
    List<KvKey> listed = new ArrayList<>();
    kv.listKeys(bulk, ListOptions.defaults().limit(3)).forEach(listed::add);
    assertThat(listed).containsExactly(key("bulk", 0), key("bulk", 1), key("bulk", 2));
    assertThat(kv.count(bulk)).isEqualTo(1_500);
    assertThat(kv.deleteRange(bulk)).isEqualTo(1_500);
    assertThat(kv.count(bulk)).isZero();
    assertThat(kv.get(key("bulk")).exists()).isTrue();
    assertThat(kv.get(key("keep", 1)).exists()).isTrue();
  }

  @Test
  void transact_8ThreadsIncrementingOneCounter_reachTheExactCount() throws Exception {
    // Attempts are many on a slow engine; the count must be exact all the same.
    ContendedIncrements.Result result = ContendedIncrements.run(kv, key("counter"), 8, 25,
        TransactOptions.defaults().maxAttempts(10_000));
    assertThat(result.counter()).isEqualTo(result.increments());
    assertThat(result.attempts()).isGreaterThanOrEqualTo(result.increments());
  }

  @Test
  void transact_givesUpAfterItsAttempts_applyingNothing() {
    AtomicInteger runs = new AtomicInteger();
    assertThatThrownBy(() -> kv.transact(TransactOptions.defaults().maxAttempts(3), tx -> {
      runs.incrementAndGet();
      tx.get(key("contended"));
      kv.set(key("contended"), runs.get()); // another writer, every time
      tx.set(key("mine"), "never");
      return null;
    })).isInstanceOf(KvConflictException.class).hasMessageContaining("3 times");
    assertThat(runs.get()).isEqualTo(3);
    assertThat(kv.get(key("mine")).exists()).isFalse();
  }

  @Test
  void transact_anExceptionInTheWork_isThrown_andNothingIsApplied() {
    assertThatThrownBy(() -> kv.transact(tx -> {
      tx.set(key("half"), 1);
      throw new IllegalStateException("the work failed");
    })).isInstanceOf(IllegalStateException.class);
    assertThat(kv.get(key("half")).exists()).isFalse();
  }
}
