package dev.kvasir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kvasir.base.KvTypeException;
import dev.kvasir.key.KeyPart;
import java.math.BigInteger;
import org.junit.jupiter.api.Test;

class KvKeyTest {
  @Test
  void toString_usesDenoNotation() {
    KvKey key = KvKey.of("users", 42, BigInteger.ONE, true, new byte[] {1, 2});
    assertThat(key).hasToString("[\"users\",42,1n,true,Uint8Array(2)[1,2]]");
    assertThat(KvKey.of(1.5, -0.0, Double.NaN, 1e21, 1e-7, "q\"\n"))
        .hasToString("[1.5,0,NaN,1e+21,1e-7,\"q\\\"\\n\"]");
  }

  @Test
  void of_mapsJavaNumbersToJsNumbers() {
    assertThat(KvKey.of(1)).isEqualTo(KvKey.of(1.0)).isEqualTo(KvKey.of(1L))
        .isEqualTo(KvKey.of((short) 1)).isEqualTo(KvKey.of((byte) 1)).isEqualTo(KvKey.of(1f));
    assertThat(KvKey.of(1)).isNotEqualTo(KvKey.of(BigInteger.ONE));
  }

  @Test
  void of_rejectsLongsADoubleCannotHold() {
    assertThat(KvKey.of(1L << 60).get(0)).isEqualTo(new KeyPart.Num(0x1p60));
    assertThatThrownBy(() -> KvKey.of("a", (1L << 53) + 1))
        .isInstanceOf(KvTypeException.class)
        .hasMessageStartingWith("key part 1: Long 9007199254740993 cannot be represented");
    assertThatThrownBy(() -> KvKey.of(Long.MAX_VALUE)).isInstanceOf(KvTypeException.class);
  }

  @Test
  void zeroAndNegativeZero_areDistinctKeys_nanIsOneKeyPerSign() {
    assertThat(KvKey.of(0.0)).isNotEqualTo(KvKey.of(-0.0));
    double otherNan = Double.longBitsToDouble(0x7ff0000000000001L);
    assertThat(KvKey.of(otherNan)).isEqualTo(KvKey.of(Double.NaN));
    double negativeNan = Double.longBitsToDouble(0xffffffffffffffffL);
    assertThat(KvKey.of(negativeNan)).isNotEqualTo(KvKey.of(Double.NaN));
    assertThat(KvKey.of(negativeNan)).isLessThan(KvKey.of(Double.NEGATIVE_INFINITY));
  }

  @Test
  void loneSurrogates_becomeReplacementCharacter() {
    assertThat(KvKey.of("\ud800")).isEqualTo(KvKey.of("\ufffd"));
    assertThat(((KeyPart.Str) KvKey.of("a\udc00b").get(0)).value()).isEqualTo("a\ufffdb");
    assertThat(KvKey.of("😀").encode()).containsExactly(0x02, 0xf0, 0x9f, 0x98, 0x80, 0x00);
  }

  @Test
  void bytesPart_isCopiedAndComparedByContent() {
    byte[] raw = {1, 2};
    KvKey key = KvKey.of((Object) raw);
    raw[0] = 9;
    assertThat(key).isEqualTo(KvKey.of((Object) new byte[] {1, 2}));
    ((KeyPart.Bytes) key.get(0)).value()[0] = 7;
    assertThat(key.encode()).containsExactly(0x01, 1, 2, 0x00);
  }

  @Test
  void appendAndStartsWith_workPartWise() {
    KvKey users = KvKey.of("users");
    KvKey alice = users.append("alice", 1);
    assertThat(alice).isEqualTo(KvKey.of("users", "alice", 1));
    assertThat(alice.startsWith(users)).isTrue();
    assertThat(alice.startsWith(alice)).isTrue();
    assertThat(KvKey.of("usersx").startsWith(users)).isFalse();
    // A prefix with fewer parts can still have a longer encoding than the key.
    assertThat(KvKey.of(1, 2).startsWith(KvKey.of("a long string part"))).isFalse();
    assertThat(alice.parts()).hasSize(3);
  }

  @Test
  void decodeShared_reusesAPrefixsParts_andDecodesTheRestLikeDecode() {
    KvKey users = KvKey.of("users", BigInteger.TEN);
    KvKey key = users.append("alice", 1, true, new byte[] {0, 1}, -0.0, "b", "c");
    KvKey shared = KvKey.decodeShared(key.encode(), users);
    assertThat(shared).isEqualTo(key);
    assertThat(shared.parts()).isEqualTo(key.parts());
    assertThat(shared.get(0)).isSameAs(users.get(0));
    // Bytes that do not start with the prefix are decoded whole.
    KvKey other = KvKey.of("usersx", 2);
    assertThat(KvKey.decodeShared(other.encode(), users).parts()).isEqualTo(other.parts());
    assertThat(KvKey.decodeShared(users.encode(), users)).isEqualTo(users);
    assertThat(KvKey.decodeShared(key.encode(), null)).isEqualTo(key);
  }

  @Test
  void encode_returnsACopy() {
    KvKey key = KvKey.of("a");
    key.encode()[0] = 0x7f;
    assertThat(key.encode()[0]).isEqualTo((byte) 0x02);
  }
}
