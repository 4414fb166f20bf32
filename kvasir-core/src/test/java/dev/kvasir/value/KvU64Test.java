package dev.kvasir.value;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kvasir.base.Hex;
import dev.kvasir.base.KvArgumentException;
import dev.kvasir.base.KvDecodeException;
import java.math.BigInteger;
import org.junit.jupiter.api.Test;

class KvU64Test {
  private static final BigInteger MAX = BigInteger.TWO.pow(64).subtract(BigInteger.ONE);

  @Test
  void sum_wrapsAround() {
    assertThat(KvU64.MAX.sum(KvU64.of(2))).isEqualTo(KvU64.of(1));
    assertThat(KvU64.of(40).sum(KvU64.of(2))).isEqualTo(KvU64.of(42));
  }

  @Test
  void minAndMax_areUnsigned() {
    KvU64 big = KvU64.of(BigInteger.TWO.pow(63));
    assertThat(big.max(KvU64.of(1))).isSameAs(big);
    assertThat(big.min(KvU64.of(1))).isEqualTo(KvU64.of(1));
    assertThat(KvU64.MAX).isGreaterThan(big);
  }

  @Test
  void littleEndianForm_matchesDeno() {
    assertThat(Hex.encode(KvU64.of(0x0102030405060708L).toLittleEndian()))
        .isEqualTo("0807060504030201");
    assertThat(KvU64.fromLittleEndian(Hex.decode("ffffffffffffffff")).toBigInteger()).isEqualTo(MAX);
    assertThatThrownBy(() -> KvU64.fromLittleEndian(new byte[7]))
        .isInstanceOf(KvDecodeException.class).hasMessage("KvU64 value must be 8 bytes, got 7");
  }

  @Test
  void outOfRange_isRejected() {
    assertThatThrownBy(() -> KvU64.of(-1)).isInstanceOf(KvArgumentException.class)
        .hasMessageStartingWith("KvU64 must be a positive integer: -1");
    assertThatThrownBy(() -> KvU64.of(MAX.add(BigInteger.ONE)))
        .hasMessageStartingWith("KvU64 must fit in a 64-bit unsigned integer");
    assertThat(KvU64.of(MAX)).hasToString("18446744073709551615");
    assertThat(KvU64.ofUnsignedBits(-1)).isEqualTo(KvU64.MAX);
  }
}
