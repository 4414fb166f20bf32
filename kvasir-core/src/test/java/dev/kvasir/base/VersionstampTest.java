package dev.kvasir.base;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class VersionstampTest {
  @Test
  void ofVersion_isEightBytesBigEndianPlusTwoZeros() {
    Versionstamp v = Versionstamp.ofVersion(6);
    assertThat(v).hasToString("00000000000000060000");
    assertThat(v.version()).isEqualTo(6);
    assertThat(v.toBytes()).hasSize(10);
  }

  @Test
  void parse_acceptsUpperCaseAndRoundTrips() {
    assertThat(Versionstamp.parse("000002FA526AACCB0000"))
        .isEqualTo(Versionstamp.parse("000002fa526aaccb0000"))
        .hasToString("000002fa526aaccb0000");
  }

  @Test
  void parse_rejectsAnythingButTwentyHexDigits() {
    assertThatThrownBy(() -> Versionstamp.parse("0000")).isInstanceOf(KvArgumentException.class)
        .hasMessageContaining("20 hex digits");
    assertThatThrownBy(() -> Versionstamp.parse("00000000000000060g00"))
        .hasMessageContaining("not a hex digit at index 17");
    assertThatThrownBy(() -> Versionstamp.of(new byte[12]))
        .hasMessage("versionstamp must be 10 bytes, got 12");
  }

  @Test
  void order_isUnsigned() {
    assertThat(Versionstamp.ofVersion(-1)).isGreaterThan(Versionstamp.ofVersion(1));
    assertThat(Versionstamp.ofVersion(9)).isGreaterThan(Versionstamp.ofVersion(8));
    assertThat(Versionstamp.parse("00000000000000010001"))
        .isGreaterThan(Versionstamp.ofVersion(1));
  }

  @Test
  void bytes_roundTrip_andOrderAsUnsignedBytes() {
    byte[] bytes = {(byte) 0x80, 1, 2, 3, 4, 5, 6, (byte) 0xff, (byte) 0x80, (byte) 0xfe};
    Versionstamp v = Versionstamp.of(bytes);
    assertThat(v.toBytes()).isEqualTo(bytes);
    assertThat(v).hasToString("80010203040506ff80fe").isEqualTo(Versionstamp.parse(v.toString()))
        .hasSameHashCodeAs(Versionstamp.parse("80010203040506FF80FE"));
    assertThat(v).isGreaterThan(Versionstamp.parse("80010203040506ff7fff"))
        .isLessThan(Versionstamp.parse("80010203040506ff80ff"));
  }
}
