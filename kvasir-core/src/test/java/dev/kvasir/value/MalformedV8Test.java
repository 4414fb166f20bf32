package dev.kvasir.value;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kvasir.base.Hex;
import dev.kvasir.base.KvDecodeException;
import java.util.Arrays;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Hostile V8 input fails fast with a {@link KvDecodeException}, allocating little. */
class MalformedV8Test {
  static Stream<Arguments> malformed() {
    return Stream.of(
        Arguments.of("", "missing V8 header"),
        Arguments.of("5f", "missing V8 header"),
        Arguments.of("ff", "truncated varint"),
        Arguments.of("ff0c5f", "unsupported V8 serialization version 12"),
        Arguments.of("ff115f", "unsupported V8 serialization version 17"),
        Arguments.of("ff10", "truncated: expected a tag"),
        Arguments.of("ff1049", "truncated varint"),
        Arguments.of("ff104e0000", "double needs 8 bytes, 2 left"),
        Arguments.of("ff1001", "invalid tag 0x01"),
        Arguments.of("ff105f5f", "1 trailing bytes after the value"),
        Arguments.of("ff1022808080808080808010", "string needs 1152921504606846976 bytes, 0 left"),
        Arguments.of("ff1022ffffffffffffffffffff01", "varint overflows 63 bits"),
        Arguments.of("ff106303616200", "two-byte string with odd byte length 3"),
        Arguments.of("ff1041ffffffff0f", "dense array of 4294967295 elements needs"),
        Arguments.of("ff1041808080808001", "exceeds 32 bits"),
        Arguments.of("ff105a01", "negative bigint of zero length"),
        Arguments.of("ff105a20ff", "bigint needs 16 bytes, 1 left"),
        Arguments.of("ff105e00", "reference to unknown object id 0"),
        Arguments.of("ff106f22016b5e057b01", "reference to unknown object id 5"),
        Arguments.of("ff106f6f7b007b01", "property key must be a string or a number"),
        Arguments.of("ff106f220161", "truncated: expected a tag"),
        Arguments.of("ff106f2201614902", "truncated: expected a value or an end tag"),
        Arguments.of("ff106f22016149027b02", "object properties: header says 2, found 1"),
        Arguments.of("ff10410249022400" + "01", "invalid tag 0x24"),
        Arguments.of("ff10410149022400" + "02", "array length: header says 2, found 1"),
        Arguments.of("ff106102490a4902400102", "array index 5 beyond length 2"),
        Arguments.of("ff103b490249043a01", "map keys and values: header says 1, found 2"),
        Arguments.of("ff105222016140", "invalid regular expression flags 0x40"),
        Arguments.of("ff1052490200", "expected a string"),
        Arguments.of("ff105642000000", "array buffer view without a buffer"),
        Arguments.of("ff1042020102564201020000", "outside buffer of 2 bytes"),
        Arguments.of("ff10420401020304567701020000", "misaligned"),
        Arguments.of("ff1042020102567a00020000", "invalid array buffer view type 0x7a"),
        Arguments.of("ff1042020102564200020100", "view flags 1 do not match the buffer"),
        Arguments.of("ff10420201025642000203", "view flags 3 do not match the buffer"),
        Arguments.of("ff107e0401020304", "resizable buffer maxByteLength 1 invalid"),
        Arguments.of("ff1042ffffffff0f", "array buffer needs 4294967295 bytes"),
        Arguments.of("ff10726d49022e", "expected a string"),
        Arguments.of("ff1072782e", "invalid error sub-tag 0x78"),
        Arguments.of("ff10726d2201612e00", "trailing"),
        Arguments.of("ff105c00", "host object"),
        Arguments.of("ff10750000", "invalid tag 0x75"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("malformed")
  void deserialize_rejectsWithClearMessage(String hex, String message) {
    assertThatThrownBy(() -> V8.deserialize(Hex.decode(hex)))
        .isInstanceOf(KvDecodeException.class)
        .hasMessageStartingWith("malformed V8 value at byte")
        .hasMessageContaining(message);
  }

  @Test
  void everyTruncationOfAValidValue_failsCleanly() {
    byte[] full = V8.serialize(java.util.List.of(java.util.Map.of("a", "日本", "b",
        new byte[] {1, 2}), new JsRegExp("x", "g"), java.math.BigInteger.TEN.pow(30),
        JsError.withCause(JsError.Kind.RANGE_ERROR, "m", "s", 1)));
    for (int n = 0; n < full.length; n++) {
      byte[] cut = Arrays.copyOf(full, n);
      assertThatThrownBy(() -> V8.deserialize(cut)).isInstanceOf(KvDecodeException.class);
    }
  }

  @Test
  @Timeout(10)
  void deepNesting_isRejectedWithoutStackOverflow() {
    // {a:{a:…}}, [[…]], Map keys, Set values, Error causes, RegExp sources, String objects
    for (String open : new String[] {"2201616f", "4101", "3b", "27", "7263", "52", "73"}) {
      StringBuilder hex = new StringBuilder("ff10");
      if (open.equals("2201616f")) {
        hex.append("6f");
      }
      hex.append(open.repeat(100_000));
      byte[] bytes = Hex.decode(hex.toString());
      assertThatThrownBy(() -> V8.deserialize(bytes))
          .isInstanceOf(KvDecodeException.class)
          .hasMessageContaining("nested deeper than " + V8Tags.MAX_DEPTH + " levels");
    }
  }

  @Test
  @Timeout(10)
  void manyCountTags_areSkippedIteratively() {
    byte[] bytes = Hex.decode("ff10" + "3f00".repeat(200_000) + "5f");
    assertThat(V8.deserialize(bytes)).isSameAs(Undefined.INSTANCE);
  }

  @Test
  void sparseArrayOfAbsurdLength_isNotMaterialised() {
    byte[] bytes = Hex.decode("ff1061ffffffff0f4000ffffffff0f");
    Object value = V8.deserialize(bytes);
    assertThat(value).isInstanceOf(JsSparseArray.class);
    assertThat(((JsSparseArray) value).length()).isEqualTo(0xffffffffL);
  }

  @Test
  void leniencyOfDeno_isKept() {
    assertThat(V8.deserialize(Hex.decode("ff0d5f"))).isSameAs(Undefined.INSTANCE);
    assertThat(V8.deserialize(Hex.decode("ff0f220161"))).isEqualTo("a");
    assertThat(V8.deserialize(Hex.decode("ff10530568656c6c6f"))).isEqualTo("hello");
    assertThat(V8.deserialize(Hex.decode("ff103f004903"))).isEqualTo(-2.0);
    assertThat(V8.deserialize(Hex.decode("ff105a030a"))).isEqualTo(java.math.BigInteger.valueOf(-10));
    assertThat(V8.deserialize(Hex.decode("ff105503"))).isEqualTo(3.0);
    // Version 13 views carry no flags varint.
    assertThat(V8.deserialize(Hex.decode("ff0d4202010256420002"))).isEqualTo(new byte[] {1, 2});
  }
}
