package dev.kvasir.key;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kvasir.KvKey;
import dev.kvasir.base.Hex;
import dev.kvasir.base.KvDecodeException;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Malformed byte strings fail with a {@link KvDecodeException} naming the problem. */
class MalformedKeyTest {
  static Stream<Arguments> malformed() {
    return Stream.of(
        Arguments.of("00", "invalid type code 0x00"),
        Arguments.of("05", "invalid type code 0x05"),
        Arguments.of("20", "invalid type code 0x20"),
        Arguments.of("ff", "invalid type code 0xff"),
        Arguments.of("0261", "unterminated byte string"),
        Arguments.of("026100ff", "unterminated byte string"),
        Arguments.of("01", "unterminated byte string"),
        Arguments.of("02ff00", "invalid UTF-8"),
        Arguments.of("02c0af00", "invalid UTF-8"),
        Arguments.of("02eda08000", "invalid UTF-8"),
        Arguments.of("2180", "truncated: needs 8 more bytes, has 1"),
        Arguments.of("21", "truncated"),
        Arguments.of("15", "truncated: needs 1 more bytes, has 0"),
        Arguments.of("1d", "truncated"),
        Arguments.of("1dff01", "truncated: needs 255 more bytes, has 1"),
        Arguments.of("0b00", "truncated: needs 255 more bytes, has 0"),
        Arguments.of("1500", "non-canonical integer: leading zero byte"),
        Arguments.of("13ff", "non-canonical integer: leading zero byte"),
        Arguments.of("1d080102030405060708", "non-canonical integer: long form for 8 bytes"),
        Arguments.of("21fff0000000000001", "non-canonical NaN"),
        Arguments.of("0200" + "27" + "00", "malformed key at byte 3: invalid type code 0x00"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("malformed")
  void decode_rejectsWithClearMessage(String hex, String message) {
    assertThatThrownBy(() -> KvKey.decode(Hex.decode(hex)))
        .isInstanceOf(KvDecodeException.class)
        .hasMessageStartingWith("malformed key at byte")
        .hasMessageContaining(message);
  }
}
