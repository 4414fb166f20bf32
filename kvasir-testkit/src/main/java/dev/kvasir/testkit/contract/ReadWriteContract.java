package dev.kvasir.testkit.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kvasir.CommitResult;
import dev.kvasir.KvEntry;
import dev.kvasir.KvKey;
import dev.kvasir.ListSelector;
import dev.kvasir.base.KvArgumentException;
import dev.kvasir.base.KvTypeException;
import dev.kvasir.golden.ValueDescriptions;
import dev.kvasir.golden.Vectors.KeyVector;
import dev.kvasir.golden.Vectors.ValueVector;
import dev.kvasir.golden.Vectors;
import dev.kvasir.value.EncodedValue;
import dev.kvasir.value.JsValues;
import dev.kvasir.value.KvU64;
import dev.kvasir.value.ValueEncoding;
import java.math.BigInteger;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** get, getMany, set, delete, expireIn, key order and value round trips. */
public abstract class ReadWriteContract extends ContractBase {
  record User(String name, int age, List<String> tags) {}

  @Test
  void set_thenGet_returnsKeyValueAndVersionstamp() {
    CommitResult r = kv.set(key("users", "alice"), Map.of("name", "Alice"));
    KvEntry e = kv.get(key("users", "alice"));
    assertThat(r.ok()).isTrue();
    assertThat(e.key()).isEqualTo(key("users", "alice"));
    assertThat(e.value()).isEqualTo(Map.of("name", "Alice"));
    assertThat(e.versionstamp()).isEqualTo(r.versionstamp());
    assertThat(e.exists()).isTrue();
  }

  @Test
  void get_missingKey_returnsNullValueAndVersionstamp() {
    KvEntry e = kv.get(key("users", "bob"));
    assertThat(e.key()).isEqualTo(key("users", "bob"));
    assertThat(e.value()).isNull();
    assertThat(e.versionstamp()).isNull();
    assertThat(e.exists()).isFalse();
  }

  @Test
  void set_existingKey_overwritesValueWithNewerVersionstamp() {
    CommitResult first = kv.set(key("users", "alice"), Map.of("name", "Alice"));
    CommitResult second = kv.set(key("users", "alice"), Map.of("name", "Alice Smith"));
    KvEntry e = kv.get(key("users", "alice"));
    assertThat(e.value()).isEqualTo(Map.of("name", "Alice Smith"));
    assertThat(second.versionstamp()).isGreaterThan(first.versionstamp());
    assertThat(e.versionstamp()).isEqualTo(second.versionstamp());
  }

  @Test
  void set_storedNull_existsWithNullValue() {
    kv.set(key("n"), null);
    KvEntry e = kv.get(key("n"));
    assertThat(e.exists()).isTrue();
    assertThat(e.value()).isNull();
  }

  @Test
  void getMany_returnsEntriesInRequestOrder_missingOnesEmpty() {
    kv.set(key("users", "alice"), Map.of("name", "Alice"));
    kv.set(key("users", "bob"), Map.of("name", "Bob"));
    List<KvEntry> r = kv.getMany(
        List.of(key("users", "bob"), key("users", "charlie"), key("users", "alice")));
    assertThat(r).extracting(KvEntry::value)
        .containsExactly(Map.of("name", "Bob"), null, Map.of("name", "Alice"));
    assertThat(r.get(1).key()).isEqualTo(key("users", "charlie"));
  }

  @Test
  void getMany_sameKeyTwice_returnsItTwice() {
    kv.set(key("a"), 1);
    assertThat(kv.getMany(List.of(key("a"), key("a")))).extracting(KvEntry::value)
        .containsExactly(1.0, 1.0);
  }

  @Test
  void delete_removesTheValue() {
    kv.set(key("users", "alice"), "x");
    kv.delete(key("users", "alice"));
    assertThat(kv.get(key("users", "alice")).versionstamp()).isNull();
  }

  @Test
  void delete_missingKey_isNoOp() {
    kv.delete(key("users", "bob"));
    assertThat(kv.get(key("users", "bob")).exists()).isFalse();
  }

  @Test
  void get_emptyKey_isAllowedAndMissing() {
    assertThat(kv.get(KvKey.of()).exists()).isFalse();
  }

  @Test
  void set_everyValueVector_readsBackEqualWithIdenticalBytes() {
    List<ValueVector> vectors = Vectors.values();
    for (ValueVector v : vectors) {
      kv.set(key("v", v.id()), ValueDescriptions.build(v.description()));
    }
    for (ValueVector v : vectors) {
      KvEntry e = kv.get(key("v", v.id()));
      Object expected = ValueDescriptions.build(v.description());
      assertThat(JsValues.deepEquals(e.value(), expected))
          .as("vector %s: read %s, expected %s", v, e.value(), expected).isTrue();
      assertThat(e.encodedValue())
          .as("vector %s", v).isEqualTo(EncodedValue.of(expected));
    }
  }

  @Test
  void set_storedDenoBytes_areReturnedUnchanged() {
    // Bytes Deno wrote, some of which Kvasir would write differently, come back as they are.
    for (ValueVector v : Vectors.values()) {
      EncodedValue stored = EncodedValue.of(ValueEncoding.ofCode(v.encoding()), v.stored());
      kv.set(key("raw", v.id()), stored);
      KvEntry e = kv.get(key("raw", v.id()));
      assertThat(e.encodedValue()).as("vector %s", v).isEqualTo(stored);
      assertThat(JsValues.deepEquals(e.value(), stored.decode())).as("vector %s", v).isTrue();
    }
  }

  @Test
  void list_everyKeyType_returnsDenoOrder() {
    List<KeyVector> vectors = Vectors.keys();
    Map<String, KvKey> distinct = new LinkedHashMap<>();
    for (KeyVector v : vectors) {
      if (v.encoded().length > 0) {
        distinct.put(v.encodedHex(), KvKey.decode(v.encoded()));
      }
    }
    List<KvKey> shuffled = new ArrayList<>(distinct.values());
    java.util.Collections.shuffle(shuffled, new java.util.Random(7));
    for (KvKey k : shuffled) {
      kv.set(k, k.toString());
    }
    List<KvKey> expected = new ArrayList<>(distinct.values());
    expected.sort((a, b) -> Arrays.compareUnsigned(a.encode(), b.encode()));
    assertThat(keys(list(ListSelector.prefix(KvKey.of())))).containsExactlyElementsOf(expected);
  }

  @Test
  void set_distinctButSimilarKeys_stayDistinct() {
    List<KvKey> similar = List.of(key(1.0), key(BigInteger.ONE), key("1"), key(new byte[] {1}),
        key(-0.0), key(0.0), key(true), key("a", "b"), key("a\u0000b"), key("ab"));
    for (int i = 0; i < similar.size(); i++) {
      kv.set(similar.get(i), i);
    }
    for (int i = 0; i < similar.size(); i++) {
      assertThat(kv.get(similar.get(i)).value()).as("%s", similar.get(i)).isEqualTo((double) i);
    }
  }

  @Test
  void set_topLevelBytesAndKvU64_useTheirOwnEncodings() {
    kv.set(key("bytes"), new byte[] {1, 2, 3});
    kv.set(key("u64"), KvU64.of(7));
    assertThat(kv.get(key("bytes")).encodedValue().encoding()).isEqualTo(ValueEncoding.BYTES);
    assertThat((byte[]) kv.get(key("bytes")).value()).containsExactly(1, 2, 3);
    assertThat(kv.get(key("u64")).encodedValue().encoding()).isEqualTo(ValueEncoding.LE64);
    assertThat(kv.get(key("u64")).value()).isEqualTo(KvU64.of(7));
  }

  @Test
  void valueOfClass_mapsObjectsToRecords() {
    kv.set(key("u"), new User("Alice", 30, List.of("a", "b")));
    User back = kv.get(key("u")).value(User.class);
    assertThat(back).isEqualTo(new User("Alice", 30, List.of("a", "b")));
  }

  @Test
  void valueOfClass_wrongShape_namesThePath() {
    kv.set(key("u"), Map.of("name", "Alice", "age", 30.5, "tags", List.of()));
    assertThatThrownBy(() -> kv.get(key("u")).value(User.class))
        .isInstanceOf(KvTypeException.class).hasMessageContaining("value.age");
  }

  @Test
  void expireIn_entryIsReadableUntilItExpires_thenNeverReturned() throws Exception {
    kv.set(key("temp"), "value", Duration.ofMillis(300));
    kv.set(key("keep"), "value");
    assertThat(kv.get(key("temp")).value()).isEqualTo("value");
    Thread.sleep(450);
    assertThat(kv.get(key("temp")).exists()).isFalse();
    assertThat(kv.getMany(List.of(key("temp"), key("keep")))).extracting(KvEntry::exists)
        .containsExactly(false, true);
    assertThat(keys(list(ListSelector.prefix(KvKey.of())))).containsExactly(key("keep"));
    assertThat(keys(list(ListSelector.range(key("a"), key("z"))))).containsExactly(key("keep"));
  }

  @Test
  void expireIn_zero_isAllowedAndExpiresAtOnce() throws Exception {
    kv.set(key("gone"), 1, Duration.ZERO);
    Thread.sleep(5);
    assertThat(kv.get(key("gone")).exists()).isFalse();
  }

  @Test
  void expireIn_overwrittenWithoutExpiry_staysForever() throws Exception {
    kv.set(key("k"), 1, Duration.ofMillis(100));
    kv.set(key("k"), 2);
    Thread.sleep(250);
    assertThat(kv.get(key("k")).value()).isEqualTo(2.0);
  }

  @Test
  void expireIn_negative_isRejected() {
    assertThatThrownBy(() -> kv.set(key("k"), 1, Duration.ofMillis(-1)))
        .isInstanceOf(KvArgumentException.class).hasMessageContaining("expireIn");
  }

  @Test
  void set_concurrentWritersAndReaders_seeTheirValues() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Future<?>> writes = new ArrayList<>();
      for (int i = 0; i < 40; i++) {
        int n = i;
        writes.add(pool.submit(() -> kv.set(key("c", n), n)));
      }
      for (Future<?> f : writes) {
        f.get();
      }
      List<Future<Object>> reads = new ArrayList<>();
      for (int i = 0; i < 40; i++) {
        int n = i;
        reads.add(pool.submit(() -> kv.get(key("c", n)).value()));
      }
      for (int i = 0; i < 40; i++) {
        assertThat(reads.get(i).get()).isEqualTo((double) i);
      }
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void set_dateAndBigint_roundTrip() {
    Instant now = Instant.ofEpochMilli(1_700_000_000_123L);
    kv.set(key("d"), List.of(now, new BigInteger("-123456789012345678901234567890")));
    assertThat(kv.get(key("d")).value())
        .isEqualTo(List.of(now, new BigInteger("-123456789012345678901234567890")));
  }
}
