package dev.kvasir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kvasir.base.Hex;
import dev.kvasir.base.KvCorruptEntryException;
import dev.kvasir.base.Versionstamp;
import dev.kvasir.mapping.ValueMapper;
import dev.kvasir.value.EncodedValue;
import dev.kvasir.value.KvU64;
import dev.kvasir.value.ValueEncoding;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** An entry decodes its value once, on first use, and hands out that object from then on. */
class KvEntryTest {
  private static final KvKey KEY = KvKey.of("k");

  private static KvEntry entry(Object value) {
    return entry(EncodedValue.of(value));
  }

  private static KvEntry entry(EncodedValue encoded) {
    return new KvEntry(KEY, encoded, Versionstamp.ofVersion(1), ValueMapper.defaults());
  }

  @Test
  void value_isTheSameObjectOnEveryCall() {
    KvEntry e = entry(Map.of("a", 1));
    Object first = e.value();
    assertThat(first).isEqualTo(Map.of("a", 1.0));
    assertThat(e.value()).isSameAs(first);
  }

  @Test
  void storedNull_readsAsNullEveryTime_andMissingKeysToo() {
    KvEntry stored = entry((Object) null);
    assertThat(stored.value()).isNull();
    assertThat(stored.value()).isNull();
    assertThat(stored.exists()).isTrue();
    KvEntry missing = KvEntry.missing(KEY, ValueMapper.defaults());
    assertThat(missing.value()).isNull();
    assertThat(missing.exists()).isFalse();
  }

  @Test
  void threadsReadingAFreshEntryAtOnce_allGetOneObject() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      for (int round = 0; round < 1000; round++) {
        KvEntry e = entry(List.of("x", Map.of("y", round)));
        CountDownLatch start = new CountDownLatch(1);
        List<Future<Object>> reads = new ArrayList<>();
        for (int t = 0; t < 8; t++) {
          reads.add(pool.submit(() -> {
            start.await();
            return e.value();
          }));
        }
        start.countDown();
        Object first = reads.get(0).get();
        for (Future<Object> read : reads) {
          assertThat(read.get()).isSameAs(first);
        }
      }
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void corruptValue_failsOnEveryCall_notOnceAndThenNull() {
    KvEntry e = entry(EncodedValue.of(ValueEncoding.V8, Hex.decode("ff1001")));
    for (int i = 0; i < 2; i++) {
      assertThatThrownBy(e::value).isInstanceOf(KvCorruptEntryException.class)
          .hasMessageContaining("invalid tag 0x01");
    }
  }

  @Test
  void toString_showsTheValueAsRead_notItsEncoding() {
    assertThat(entry(Map.of("a", 1))).hasToString(
        "KvEntry[key=[\"k\"], value={a=1.0}, versionstamp=00000000000000010000]");
    assertThat(entry(new byte[] {1, (byte) 0xab}).toString()).contains("value=bytes 01ab,");
    assertThat(entry(KvU64.of(7)).toString()).contains("value=7,");
    assertThat(entry((Object) null).toString()).contains("value=null,");
    assertThat(KvEntry.missing(KEY, ValueMapper.defaults())).hasToString(
        "KvEntry[key=[\"k\"], value=null, versionstamp=null]");
  }

  @Test
  void toString_ofACorruptValue_showsItsBytes_andDoesNotThrow() {
    KvEntry e = entry(EncodedValue.of(ValueEncoding.V8, Hex.decode("ff1001")));
    assertThat(e.toString()).contains("value=corrupt V8:ff1001,");
  }

  @Test
  @Timeout(value = 20, threadMode = Timeout.ThreadMode.SEPARATE_THREAD) // it ran for hours
  void toString_ofAValueThatContainsItself_orSharesObjectsManyWays_endsAtOnce() {
    Map<String, Object> loop = new LinkedHashMap<>();
    loop.put("name", "loop");
    List<Object> items = new ArrayList<>(List.of("x"));
    items.add(loop);
    loop.put("items", items);
    // Before, a StackOverflowError from the JS object's and array's toString.
    assertThat(entry(loop).toString())
        .contains("value={name=loop, items=[x, (cycle)]},");
    // 40 levels, each referring twice to the next: 2^40 copies as text.
    List<Object> level = List.of("leaf");
    for (int i = 0; i < 40; i++) {
      level = List.of(level, level);
    }
    String shown = entry(level).toString();
    assertThat(shown).startsWith("KvEntry[key=[\"k\"], value=[[[[").contains("[leaf]")
        .contains("…, versionstamp=00000000000000010000]");
    assertThat(shown.length()).isLessThan(10_200);
  }
}
