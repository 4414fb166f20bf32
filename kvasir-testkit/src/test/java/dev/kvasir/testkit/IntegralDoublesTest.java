package dev.kvasir.testkit;

import static dev.kvasir.testkit.IntegralDoubles.onlyIntegralDoubles;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kvasir.value.V8;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Only an integral number that Deno wrote as a double ({@code N}) where Kvasir writes an integer
 * ({@code I}) is forgiven. Deno's bytes are written out by hand: {@code N} and the double's 8
 * bytes, little-endian, in the place of Kvasir's {@code I} and its zigzag varint.
 */
class IntegralDoublesTest {
  /** {@code {n: 4, nested: 410}} as Kvasir writes it: {@code I 08} and {@code I b406}. */
  private static final byte[] OURS = V8.serialize(object(4, 410));

  private static final String N_4 = "4e0000000000001040";
  private static final String N_410 = "4e0000000000a07940";

  private static Map<String, Object> object(Object n, Object nested) {
    Map<String, Object> value = new LinkedHashMap<>();
    value.put("n", n);
    value.put("nested", nested);
    return value;
  }

  /** {@code {n: …, nested: …}} with the numbers' tokens given in hex. */
  private static byte[] deno(String n, String nested) {
    return HexFormat.of().parseHex("ff106f22016e" + n + "22066e6573746564" + nested + "7b02");
  }

  @Test
  void kvasirWritesTheObjectAsTheTestAssumes() {
    assertThat(OURS).isEqualTo(deno("4908", "49b406"));
  }

  @Test
  void integralDoublesInThePlaceOfIntegersAreForgiven() {
    assertThat(onlyIntegralDoubles(deno("4908", N_410), OURS)).isTrue();
    assertThat(onlyIntegralDoubles(deno(N_4, N_410), OURS)).isTrue();
  }

  @Test
  void equalBytesAreNotThisDifference() {
    assertThat(onlyIntegralDoubles(OURS, OURS)).isFalse();
  }

  @Test
  void anotherNumberIsNot() {
    assertThat(onlyIntegralDoubles(deno("4908", "4e0000000000b07940"), OURS))
        .as("411").isFalse();
    assertThat(onlyIntegralDoubles(deno("4908", "4e0000000000a87940"), OURS))
        .as("410.5").isFalse();
  }

  @Test
  void negativeZeroIsNotZero() {
    byte[] zero = V8.serialize(object(4, 0));
    assertThat(zero).isEqualTo(deno("4908", "4900"));
    assertThat(onlyIntegralDoubles(deno("4908", "4e0000000000000080"), zero)).isFalse();
    assertThat(onlyIntegralDoubles(deno("4908", "4e0000000000000000"), zero)).isTrue();
  }

  @Test
  void onlyInDenosDirection() {
    assertThat(onlyIntegralDoubles(OURS, deno("4908", N_410))).isFalse();
  }

  @Test
  void anyOtherDifferenceIsNot() {
    byte[] renamed = deno("4908", N_410);
    renamed[renamed.length - 12] = 'x';
    assertThat(onlyIntegralDoubles(renamed, OURS)).as("another name").isFalse();
    byte[] cut = HexFormat.of().parseHex("ff106f22016e4908" + "22066e6573746564" + "4e0000");
    assertThat(onlyIntegralDoubles(cut, OURS)).as("a double cut short").isFalse();
  }

  @Test
  void bytesThatAreNotAValueAreNot() {
    assertThat(onlyIntegralDoubles(HexFormat.of().parseHex(N_4), HexFormat.of().parseHex("4908")))
        .isFalse();
  }
}
