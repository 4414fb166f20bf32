package dev.kvasir.key;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kvasir.KvKey;
import dev.kvasir.base.Hex;
import org.junit.jupiter.api.Test;

/** Ranges derived from encoded keys as in docs/keys.md §7. */
class KeyRangeTest {
  private static final byte[] A = KvKey.of("a").encode();

  @Test
  void single_isKeyToKeyWithZero() {
    KeyRange r = KeyRange.single(A);
    assertThat(Hex.encode(r.start())).isEqualTo("026100");
    assertThat(Hex.encode(r.end())).isEqualTo("02610000");
    assertThat(r.contains(A)).isTrue();
    assertThat(r.contains(KvKey.of("a", 1).encode())).isFalse();
  }

  @Test
  void prefix_excludesThePrefixKeyItself() {
    KeyRange r = KeyRange.prefix(A);
    assertThat(Hex.encode(r.start())).isEqualTo("02610000");
    assertThat(Hex.encode(r.end())).isEqualTo("026100ff");
    assertThat(r.contains(A)).isFalse();
    assertThat(r.contains(KvKey.of("a", true).encode())).isTrue();
    assertThat(r.contains(KvKey.of("a", new byte[0]).encode())).isTrue();
    assertThat(r.contains(KvKey.of("b").encode())).isFalse();
  }

  @Test
  void emptyPrefix_coversEveryKey() {
    KeyRange r = KeyRange.prefix(new byte[0]);
    assertThat(Hex.encode(r.start())).isEqualTo("00");
    assertThat(Hex.encode(r.end())).isEqualTo("ff");
    assertThat(r.contains(KvKey.of(true).encode())).isTrue();
  }

  @Test
  void prefixFromAndUntil_useTheGivenBound() {
    byte[] start = KvKey.of("a", "m").encode();
    assertThat(KeyRange.prefixFrom(A, start))
        .isEqualTo(KeyRange.of(start, Hex.decode("026100ff")));
    assertThat(KeyRange.prefixUntil(A, start))
        .isEqualTo(KeyRange.of(Hex.decode("02610000"), start));
  }

  @Test
  void anEmptyRange_containsNothing() {
    assertThat(KeyRange.of(A, A).contains(A)).isFalse();
  }
}
