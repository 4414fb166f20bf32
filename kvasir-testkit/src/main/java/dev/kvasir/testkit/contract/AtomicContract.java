package dev.kvasir.testkit.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kvasir.AtomicOperation;
import dev.kvasir.CommitResult;
import dev.kvasir.KvEntry;
import dev.kvasir.KvKey;
import dev.kvasir.ListSelector;
import dev.kvasir.base.Hex;
import dev.kvasir.base.KvArgumentException;
import dev.kvasir.base.KvTypeException;
import dev.kvasir.base.Versionstamp;
import dev.kvasir.spi.AtomicWrite;
import dev.kvasir.spi.Check;
import dev.kvasir.spi.Mutation;
import dev.kvasir.value.EncodedValue;
import dev.kvasir.value.KvU64;
import java.math.BigInteger;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Atomic operations: checks, mutation order, sum/min/max and versionstamps (§4, §3.4). */
public abstract class AtomicContract extends ContractBase {
  private static final KvU64 U64_MAX = KvU64.MAX;

  @Test
  void check_currentVersionstamp_commits() {
    kv.set(key("a"), 1);
    KvEntry a = kv.get(key("a"));
    CommitResult r = kv.atomic().check(a).set(key("a"), 2).commit();
    assertThat(r.ok()).isTrue();
    assertThat(kv.get(key("a")).value()).isEqualTo(2.0);
  }

  @Test
  void check_staleVersionstamp_failsAndChangesNothing() {
    kv.set(key("a"), 1);
    KvEntry stale = kv.get(key("a"));
    kv.set(key("a"), 2);
    CommitResult r = kv.atomic().check(stale).set(key("a"), 3).set(key("b"), 3).commit();
    assertThat(r.ok()).isFalse();
    assertThat(r.versionstamp()).isNull();
    assertThat(kv.get(key("a")).value()).isEqualTo(2.0);
    assertThat(kv.get(key("b")).exists()).isFalse();
  }

  @Test
  void check_null_meansTheKeyMustNotExist() {
    assertThat(kv.atomic().check(key("new"), null).set(key("new"), 1).commit().ok()).isTrue();
    assertThat(kv.atomic().check(key("new"), null).set(key("new"), 2).commit().ok()).isFalse();
    assertThat(kv.get(key("new")).value()).isEqualTo(1.0);
    // A missing entry as read is the same condition.
    KvEntry missing = kv.get(key("other"));
    assertThat(kv.atomic().check(missing).set(key("other"), 1).commit().ok()).isTrue();
  }

  @Test
  void manySetsOfRepeatedKeys_applyInOrder_withTheDeletesBetweenThem() {
    // 256 sets over 30 keys: an engine that writes sets in chunks of up to 256 rows meets
    // each key several times within one chunk, and the last value must win.
    AtomicOperation op = kv.atomic();
    for (int i = 0; i < 256; i++) {
      op.set(key("many", i % 30), i);
    }
    op.delete(key("many", 7));
    op.delete(key("many", 8)).set(key("many", 8), "again").set(key("many", 9), "last");
    CommitResult r = op.commit();
    assertThat(r.ok()).isTrue();
    assertThat(kv.get(key("many", 7)).exists()).isFalse();
    assertThat(kv.get(key("many", 8)).value()).isEqualTo("again");
    assertThat(kv.get(key("many", 9)).value()).isEqualTo("last");
    for (int k = 10; k < 30; k++) {
      KvEntry e = kv.get(key("many", k));
      assertThat(e.value()).as("key %d", k).isEqualTo((double) (k + 30 * ((255 - k) / 30)));
      assertThat(e.versionstamp()).isEqualTo(r.versionstamp());
    }
  }

  @Test
  void check_expiredKey_countsAsMissing() throws Exception {
    kv.set(key("t"), 1, Duration.ofMillis(50));
    Thread.sleep(120);
    assertThat(kv.atomic().check(key("t"), null).set(key("t"), 2).commit().ok()).isTrue();
  }

  @Test
  void check_manyKeys_allMustHold() {
    AtomicOperation setUp = kv.atomic();
    for (int i = 0; i < 20; i++) {
      setUp.set(key("m", i), i);
    }
    setUp.commit();
    List<KvKey> ks = java.util.stream.IntStream.range(0, 20).mapToObj(i -> key("m", i)).toList();
    List<KvEntry> first = new java.util.ArrayList<>();
    for (int i = 0; i < 20; i += 10) {
      first.addAll(kv.getMany(ks.subList(i, i + 10)));
    }
    AtomicOperation ok = kv.atomic();
    first.forEach(ok::check);
    assertThat(ok.set(key("done"), true).commit().ok()).isTrue();
    kv.set(key("m", 13), "changed");
    AtomicOperation stale = kv.atomic();
    first.forEach(stale::check);
    assertThat(stale.set(key("done"), false).commit().ok()).isFalse();
    assertThat(kv.get(key("done")).value()).isEqualTo(true);
  }

  @Test
  void mutations_applyInOrder_laterOnesSeeEarlierOnes() {
    kv.atomic().set(key("x"), 1).delete(key("x")).commit();
    kv.atomic().delete(key("y")).set(key("y"), 1).commit();
    kv.atomic().sum(key("z"), 2).sum(key("z"), 3).commit();
    kv.atomic().set(key("w"), "text").set(key("w"), KvU64.of(4)).sum(key("w"), 1).commit();
    assertThat(kv.get(key("x")).exists()).isFalse();
    assertThat(kv.get(key("y")).value()).isEqualTo(1.0);
    assertThat(kv.get(key("z")).value()).isEqualTo(KvU64.of(5));
    assertThat(kv.get(key("w")).value()).isEqualTo(KvU64.of(5));
  }

  @Test
  void commit_everyWriteSharesTheCommitVersionstamp_andLaterCommitsAreGreater() {
    CommitResult first = kv.atomic().set(key("a"), 1).set(key("b"), 2).sum(key("c"), 1).commit();
    assertThat(kv.getMany(List.of(key("a"), key("b"), key("c"))))
        .extracting(KvEntry::versionstamp).containsOnly(first.versionstamp());
    Versionstamp previous = first.versionstamp();
    for (int i = 0; i < 20; i++) {
      Versionstamp next = kv.set(key("a"), i).versionstamp();
      assertThat(next).isGreaterThan(previous);
      // Local versionstamps are the 8-byte commit version followed by two zero bytes.
      assertThat(next.toString()).endsWith("0000");
      previous = next;
    }
  }

  @Test
  void commit_empty_commitsWithANewVersionstamp() {
    Versionstamp a = kv.set(key("a"), 1).versionstamp();
    CommitResult empty = kv.atomic().commit();
    assertThat(empty.ok()).isTrue();
    assertThat(empty.versionstamp()).isGreaterThan(a);
  }

  @Test
  void commit_twice_isRejected() {
    AtomicOperation op = kv.atomic().set(key("a"), 1);
    op.commit();
    assertThatThrownBy(op::commit).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void sum_missingKey_takesTheOperand_andWrapsModulo2To64() {
    kv.atomic().sum(key("n"), 12).commit();
    assertThat(kv.get(key("n")).value()).isEqualTo(KvU64.of(12));
    kv.atomic().sum(key("n"), U64_MAX).commit();
    assertThat(kv.get(key("n")).value()).isEqualTo(KvU64.of(11));
  }

  @Test
  void minAndMax_compareUnsigned() {
    KvU64 big = KvU64.of(BigInteger.ONE.shiftLeft(63));
    kv.atomic().min(key("min"), big).max(key("max"), 5).commit();
    kv.atomic().min(key("min"), 5).max(key("max"), big).commit();
    assertThat(kv.get(key("min")).value()).isEqualTo(KvU64.of(5));
    assertThat(kv.get(key("max")).value()).isEqualTo(big);
  }

  @Test
  void sumMinMax_clearExpiry() throws Exception {
    kv.set(key("n"), KvU64.of(1), Duration.ofMillis(200));
    kv.atomic().sum(key("n"), 1).commit();
    Thread.sleep(300);
    assertThat(kv.get(key("n")).value()).isEqualTo(KvU64.of(2));
  }

  @Test
  void sum_onNonU64Value_failsTheWholeCommit_nothingVisible() {
    kv.set(key("str"), "text");
    Versionstamp before = kv.get(key("str")).versionstamp();
    assertThatThrownBy(() -> kv.atomic().set(key("p"), 1).sum(key("str"), 1)
        .set(key("q"), 1).commit())
        .isInstanceOf(KvTypeException.class)
        .hasMessage("Failed to perform 'sum' mutation on a non-U64 value in the database");
    assertThat(kv.get(key("p")).exists()).isFalse();
    assertThat(kv.get(key("q")).exists()).isFalse();
    assertThat(kv.get(key("str")).versionstamp()).isEqualTo(before);
    assertThatThrownBy(() -> kv.atomic().max(key("str"), 1).commit())
        .isInstanceOf(KvTypeException.class)
        .hasMessage("Failed to perform 'max' mutation on a non-U64 value in the database");
    assertThatThrownBy(() -> kv.atomic().min(key("str"), 1).commit())
        .hasMessage("Failed to perform 'min' mutation on a non-U64 value in the database");
  }

  @Test
  void sum_negativeOperand_subtracts_wrappingAroundBelowZero() {
    kv.atomic().sum(key("n"), 5).commit();
    kv.atomic().sum(key("n"), -2).commit();
    assertThat(kv.get(key("n")).value()).isEqualTo(KvU64.of(3));
    kv.atomic().sum(key("zero"), 0).sum(key("zero"), -1).commit();
    assertThat(kv.get(key("zero")).value()).isEqualTo(KvU64.MAX);
    assertThatThrownBy(() -> kv.atomic().min(key("n"), -1))
        .isInstanceOf(KvArgumentException.class);
  }

  @Test
  void sumNumber_addsJsNumbersAndBigints_asDenoDoes() {
    kv.atomic().sumNumber(key("f"), 1.5).commit();
    kv.atomic().sumNumber(key("f"), 2).commit();
    assertThat(kv.get(key("f")).value()).isEqualTo(3.5);
    // denokv's encoder: header ff 0f, numbers always as doubles.
    assertThat(Hex.encode(kv.get(key("f")).encodedValue().bytes()))
        .isEqualTo("ff0f4e0000000000000c40");
    kv.atomic().sumNumber(key("b"), BigInteger.valueOf(-3)).commit();
    kv.atomic().sumNumber(key("b"), BigInteger.valueOf(-7)).commit();
    assertThat(kv.get(key("b")).value()).isEqualTo(BigInteger.valueOf(-10));
    assertThat(Hex.encode(kv.get(key("b")).encodedValue().bytes())).isEqualTo("ff0f5a030a");
    kv.set(key("num"), 1);
    kv.atomic().sumNumber(key("num"), 41).commit();
    assertThat(kv.get(key("num")).value()).isEqualTo(42.0);
  }

  @Test
  void sumNumber_mixingNumberAndBigint_failsClearly() {
    kv.set(key("n"), 1);
    assertThatThrownBy(() -> kv.atomic().sumNumber(key("n"), BigInteger.ONE).commit())
        .isInstanceOf(KvTypeException.class).hasMessage("Cannot sum Number with BigInt");
    assertThat(kv.get(key("n")).value()).isEqualTo(1.0);
  }

  @Test
  void sumNumber_bigintOnStoredU64_isAU64Sum() {
    kv.set(key("u"), KvU64.of(5));
    kv.atomic().sumNumber(key("u"), BigInteger.TEN).commit();
    assertThat(kv.get(key("u")).value()).isEqualTo(KvU64.of(15));
  }

  @Test
  void setVersionstamped_keyEndsWithTheCommitVersionstamp_andSortsInCommitOrder() {
    CommitResult a = kv.atomic().setVersionstamped(key("log"), "first").commit();
    CommitResult b = kv.atomic().setVersionstamped(key("log"), "second").commit();
    KvEntry stored = kv.get(key("log", a.versionstamp().toString()));
    assertThat(stored.value()).isEqualTo("first");
    assertThat(stored.versionstamp()).isEqualTo(a.versionstamp());
    assertThat(list(ListSelector.prefix(key("log")))).extracting(KvEntry::value)
        .containsExactly("first", "second");
    assertThat(kv.get(key("log", b.versionstamp().toString())).value()).isEqualTo("second");
  }

  private AtomicWrite increment(KvKey counter, String idempotencyKey) {
    return new AtomicWrite(List.of(), List.of(new Mutation.Sum(counter.raw(),
        EncodedValue.of(KvU64.of(1)))), List.of(), idempotencyKey);
  }

  @Test
  void idempotencyKey_aRepeatedWrite_isAnsweredWithTheFirstResult_notAppliedAgain() {
    Optional<Versionstamp> first = engine.atomicWrite(increment(key("n"), "write-1"));
    kv.set(key("other"), "a commit in between");
    Optional<Versionstamp> again = engine.atomicWrite(increment(key("n"), "write-1"));
    assertThat(first).isPresent();
    assertThat(again).isEqualTo(first);
    assertThat(kv.get(key("n")).value()).isEqualTo(KvU64.of(1));
    assertThat(kv.get(key("n")).versionstamp()).isEqualTo(first.get());
    // Another key is another write.
    assertThat(engine.atomicWrite(increment(key("n"), "write-2"))).isPresent();
    assertThat(kv.get(key("n")).value()).isEqualTo(KvU64.of(2));
  }

  @Test
  void idempotencyKey_aRepeatedCheckedWrite_thatLanded_isNotReportedAsAFailedCheck() {
    kv.set(key("a"), 1);
    KvEntry a = kv.get(key("a"));
    AtomicWrite write = new AtomicWrite(List.of(new Check(key("a").raw(),
        a.versionstamp())), List.of(new Mutation.Set(key("a").raw(), EncodedValue.of(2),
        null)), List.of(), "checked-1");
    Optional<Versionstamp> first = engine.atomicWrite(write);
    assertThat(first).isPresent();
    assertThat(engine.atomicWrite(write)).isEqualTo(first);
    assertThat(kv.get(key("a")).value()).isEqualTo(2.0);
  }

  @Test
  void idempotencyKey_ofAWriteWhoseCheckFailed_recordsNothing() {
    kv.set(key("a"), 1);
    AtomicWrite write = new AtomicWrite(List.of(new Check(key("a").raw(), null)),
        List.of(new Mutation.Set(key("b").raw(), EncodedValue.of(2), null)), List.of(),
        "failed-1");
    assertThat(engine.atomicWrite(write)).isEmpty();
    kv.delete(key("a"));
    assertThat(engine.atomicWrite(write)).as("evaluated again, now the check holds").isPresent();
    assertThat(kv.get(key("b")).value()).isEqualTo(2.0);
  }
}
