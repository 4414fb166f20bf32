package dev.kvasir.key;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kvasir.KvKey;
import org.junit.jupiter.api.Test;

/** Ranges derived from keys as in docs/keys.md §7. */
class KeyRangeTest {
  private static final KvKey A = KvKey.of("a");

  @Test
  void single_isKeyToKeyWithZero() {
    KeyRange r = KeyRange.single(A);
    assertThat(Hex.encode(r.start())).isEqualTo("026100");
    assertThat(Hex.encode(r.end())).isEqualTo("02610000");
    assertThat(r.contains(A.encode())).isTrue();
    assertThat(r.contains(KvKey.of("a", 1).encode())).isFalse();
  }

  @Test
  void prefix_excludesThePrefixKeyItself() {
    KeyRange r = KeyRange.prefix(A);
    assertThat(Hex.encode(r.start())).isEqualTo("02610000");
    assertThat(Hex.encode(r.end())).isEqualTo("026100ff");
    assertThat(r.contains(A.encode())).isFalse();
    assertThat(r.contains(KvKey.of("a", true).encode())).isTrue();
    assertThat(r.contains(KvKey.of("a", new byte[0]).encode())).isTrue();
    assertThat(r.contains(KvKey.of("b").encode())).isFalse();
  }

  @Test
  void emptyPrefix_coversEveryKey() {
    KeyRange r = KeyRange.prefix(KvKey.of());
    assertThat(Hex.encode(r.start())).isEqualTo("00");
    assertThat(Hex.encode(r.end())).isEqualTo("ff");
    assertThat(r.contains(KvKey.of(true).encode())).isTrue();
  }

  @Test
  void prefixFromAndUntil_useTheGivenBound() {
    KvKey start = KvKey.of("a", "m");
    assertThat(KeyRange.prefixFrom(A, start))
        .isEqualTo(KeyRange.of(start.encode(), Hex.decode("026100ff")));
    assertThat(KeyRange.prefixUntil(A, start))
        .isEqualTo(KeyRange.of(Hex.decode("02610000"), start.encode()));
  }

  @Test
  void boundsOutsideThePrefix_areRejected() {
    assertThatThrownBy(() -> KeyRange.prefixFrom(A, KvKey.of("b", 1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("Start key is not in the keyspace defined by prefix");
    assertThatThrownBy(() -> KeyRange.prefixFrom(A, A))
        .hasMessageStartingWith("Start key is not in the keyspace defined by prefix");
    assertThatThrownBy(() -> KeyRange.prefixUntil(A, KvKey.of("ab")))
        .hasMessageStartingWith("End key is not in the keyspace defined by prefix");
  }

  @Test
  void between_rejectsStartAfterEnd() {
    assertThat(KeyRange.between(A, A).contains(A.encode())).isFalse();
    assertThatThrownBy(() -> KeyRange.between(KvKey.of("b"), A))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Start key is greater than end key: [\"b\"] > [\"a\"]");
  }
}
