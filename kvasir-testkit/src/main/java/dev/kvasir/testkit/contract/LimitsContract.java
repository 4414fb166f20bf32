package dev.kvasir.testkit.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kvasir.AtomicOperation;
import dev.kvasir.EnqueueOptions;
import dev.kvasir.KvEntry;
import dev.kvasir.KvKey;
import dev.kvasir.Limits;
import dev.kvasir.ListSelector;
import dev.kvasir.base.KvLimitException;
import java.time.Duration;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Every limit of docs/limits.md, just under (accepted) and just over (rejected with a
 * message naming the value and the limit, nothing written).
 */
public abstract class LimitsContract extends ContractBase {
  /**
   * A distinct key (per variant below 400) whose encoding is exactly {@code length} ≥ 4 bytes:
   * one byte-string part, i.e. tag, body, 00.
   */
  static KvKey keyOfLength(int length, int variant) {
    byte[] body = new byte[length - 2];
    Arrays.fill(body, (byte) 'a');
    body[0] = (byte) ('a' + variant % 20);
    body[1] = (byte) ('a' + variant / 20);
    return KvKey.of(body);
  }

  @Test
  void writeKey_2048BytesAccepted_2049Rejected() {
    KvKey ok = keyOfLength(2048, 0);
    assertThat(ok.encodedLength()).isEqualTo(2048);
    kv.set(ok, 1);
    assertThat(kv.get(ok).value()).isEqualTo(1.0);
    assertThatThrownBy(() -> kv.set(keyOfLength(2049, 0), 1))
        .isInstanceOf(KvLimitException.class)
        .hasMessage("key too large for write: 2049 bytes (max 2048)");
    assertThatThrownBy(() -> kv.delete(keyOfLength(2049, 0)))
        .isInstanceOf(KvLimitException.class);
    assertThatThrownBy(() -> kv.atomic().check(keyOfLength(2049, 0), null))
        .isInstanceOf(KvLimitException.class);
  }

  /**
   * Deno limits a versionstamped key's prefix to 2048 bytes, not the stored key, 22 bytes longer
   * (docs/limits.md §1). Such a key can be listed; a get of it exceeds the read limit, in Deno
   * too.
   */
  @Test
  void versionstampedKey_prefixOf2048BytesAccepted_2049Rejected() {
    KvKey prefix = keyOfLength(2048, 0);
    assertThat(kv.atomic().setVersionstamped(prefix, 1).commit().ok()).isTrue();
    List<KvEntry> listed = list(ListSelector.prefix(prefix));
    assertThat(listed).hasSize(1);
    KvKey stored = listed.get(0).key();
    assertThat(stored.encodedLength()).isEqualTo(2048 + 22);
    assertThat(listed.get(0).value()).isEqualTo(1.0);
    assertThatThrownBy(() -> kv.get(stored))
        .isInstanceOf(KvLimitException.class)
        .hasMessage("key too large for read: 2071 bytes (max 2049)");

    assertThatThrownBy(() -> kv.atomic().setVersionstamped(keyOfLength(2049, 0), 1))
        .isInstanceOf(KvLimitException.class)
        .hasMessage("key too large for write: 2049 bytes (max 2048)");
    assertThatThrownBy(() -> kv.atomic().setVersionstamped(KvKey.of(), 1))
        .isInstanceOf(KvLimitException.class)
        .hasMessage("key cannot be empty");
    assertThat(list(ListSelector.prefix(prefix))).hasSize(1);
  }

  @Test
  void emptyKey_rejectedForWrites() {
    assertThatThrownBy(() -> kv.set(KvKey.of(), 1)).hasMessage("key cannot be empty");
    assertThatThrownBy(() -> kv.atomic().check(KvKey.of(), null))
        .hasMessage("key cannot be empty");
  }

  @Test
  void readKey_2048BytesAccepted_longerRejected() {
    assertThat(kv.get(keyOfLength(2048, 0)).exists()).isFalse();
    assertThatThrownBy(() -> kv.get(keyOfLength(2049, 0)))
        .isInstanceOf(KvLimitException.class)
        .hasMessage("key too large for read: 2050 bytes (max 2049)");
  }

  @Test
  void value_65536BytesAccepted_65537Rejected() {
    kv.set(key("v"), new byte[65536]);
    assertThat(kv.get(key("v")).encodedValue().size()).isEqualTo(65536);
    assertThatThrownBy(() -> kv.set(key("w"), new byte[65537]))
        .isInstanceOf(KvLimitException.class)
        .hasMessage("value too large: 65537 bytes (max 65536)");
    // V8: "x".repeat(65530) is 65536 bytes with header, tag and length (Deno's example).
    kv.set(key("s"), "x".repeat(65530));
    assertThatThrownBy(() -> kv.set(key("s"), "x".repeat(65531)))
        .isInstanceOf(KvLimitException.class);
    assertThat(kv.get(key("w")).exists()).isFalse();
  }

  @Test
  void getMany_10KeysAccepted_11Rejected() {
    List<KvKey> ten = Collections.nCopies(10, key("a"));
    assertThat(kv.getMany(ten)).hasSize(10);
    assertThatThrownBy(() -> kv.getMany(Collections.nCopies(11, key("a"))))
        .isInstanceOf(KvLimitException.class)
        .hasMessageStartingWith("too many ranges in one read: 11 (max 10)")
        .hasMessageEndingWith("getAll any number, 10 at a time");
  }

  @Test
  void checks_100Accepted_101Rejected() {
    AtomicOperation ok = kv.atomic();
    for (int i = 0; i < 100; i++) {
      ok.check(key("c", i), null);
    }
    assertThat(ok.commit().ok()).isTrue();
    AtomicOperation over = kv.atomic();
    for (int i = 0; i < 101; i++) {
      over.check(key("c", i), null);
    }
    over.set(key("written"), 1);
    assertThatThrownBy(over::commit).isInstanceOf(KvLimitException.class)
        .hasMessage("too many checks in one atomic operation: 101 (max 100)");
    assertThat(kv.get(key("written")).exists()).isFalse();
  }

  @Test
  void mutations_1000Accepted_1001Rejected() {
    AtomicOperation ok = kv.atomic();
    for (int i = 0; i < 1000; i++) {
      ok.set(key("m", i), i);
    }
    assertThat(ok.commit().ok()).isTrue();
    AtomicOperation over = kv.atomic();
    for (int i = 0; i < 1000; i++) {
      over.delete(key("m", i));
    }
    over.enqueue("one too many");
    assertThatThrownBy(over::commit).isInstanceOf(KvLimitException.class)
        .hasMessage("too many mutations and enqueues in one atomic operation: 1001 (max 1000)");
    assertThat(kv.get(key("m", 0)).exists()).isTrue();
  }

  @Test
  void totalMutationSize_819200Accepted_819201Rejected() {
    assertThat(bigWrite(Limits.MAX_TOTAL_MUTATION_BYTES).commit().ok()).isTrue();
    assertThatThrownBy(() -> bigWrite(Limits.MAX_TOTAL_MUTATION_BYTES + 1).commit())
        .isInstanceOf(KvLimitException.class)
        .hasMessage("total mutation size too large: 819201 bytes (max 819200)");
  }

  /** Sets of raw byte values whose total size, as Deno counts it, is exactly {@code total}. */
  private AtomicOperation bigWrite(int total) {
    AtomicOperation op = kv.atomic();
    int n = 13;
    int keyLength = key("big", 0).encodedLength();
    int values = total - n * 2 * keyLength;
    for (int i = 0; i < n; i++) {
      int size = i < n - 1 ? values / n : values - (n - 1) * (values / n);
      op.set(key("big", i), new byte[size]);
    }
    return op;
  }

  @Test
  void totalKeySize_81920Accepted_81921Rejected() {
    AtomicOperation ok = kv.atomic();
    for (int i = 0; i < 40; i++) {
      ok.set(keyOfLength(2048, i), new byte[0]);
    }
    assertThat(ok.commit().ok()).isTrue();
    AtomicOperation over = kv.atomic();
    for (int i = 0; i < 39; i++) {
      over.set(keyOfLength(2048, i), new byte[0]);
    }
    over.set(keyOfLength(2045, 39), new byte[0]);
    over.set(keyOfLength(4, 0), new byte[0]); // 39 × 2048 + 2045 + 4 = 81921
    assertThatThrownBy(over::commit).isInstanceOf(KvLimitException.class)
        .hasMessage("total key size too large: 81921 bytes (max 81920)");
  }

  @Test
  void watch_10KeysAccepted_11Rejected() {
    kv.watch(Collections.nCopies(10, key("a"))).close();
    assertThatThrownBy(() -> kv.watch(Collections.nCopies(11, key("a"))))
        .isInstanceOf(KvLimitException.class)
        .hasMessage("too many keys to watch: 11 (max 10)");
  }

  /** Deno checks a watched key itself against the read limit, not {@code key ‖ 00} as a get. */
  @Test
  void watchedKey_2049BytesAccepted_2050Rejected() {
    kv.watch(List.of(keyOfLength(2049, 0))).close();
    assertThatThrownBy(() -> kv.watch(List.of(keyOfLength(2050, 0))))
        .isInstanceOf(KvLimitException.class)
        .hasMessage("key too large for read: 2050 bytes (max 2049)");
  }

  @Test
  void enqueue_limitsOfPayloadDelayAndBackoff() {
    if (supportsQueues()) {
      kv.enqueue("x".repeat(65530)); // 65536 V8 bytes
    }
    assertThatThrownBy(() -> kv.enqueue("x".repeat(65531)))
        .isInstanceOf(KvLimitException.class)
        .hasMessage("enqueue payload too large: 65537 bytes (max 65536)");
    assertThatThrownBy(() -> EnqueueOptions.defaults().delay(Duration.ofMillis(-1)))
        .hasMessage("delay must be >= 0: received -1 ms");
    EnqueueOptions.defaults().delay(Duration.ofDays(30));
    assertThatThrownBy(() -> EnqueueOptions.defaults().delay(Duration.ofDays(30).plusMillis(1)))
        .hasMessageContaining("delay cannot be greater than 30 days");
    EnqueueOptions.defaults().backoffSchedule(List.of(1, 2, 3, 4, 3_600_000));
    assertThatThrownBy(() -> EnqueueOptions.defaults().backoffSchedule(List.of(1, 2, 3, 4, 5, 6)))
        .hasMessage("backoffSchedule has 6 intervals (max 5)");
    assertThatThrownBy(() -> EnqueueOptions.defaults().backoffSchedule(List.of(1, 3_600_001)))
        .hasMessageContaining("interval at index 1 is invalid");
  }
}
