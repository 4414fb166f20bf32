package dev.kvasir.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Values as the commands print and read them. */
class TypedJsonTest {
  @Test
  void numbers_printAsDenoPrintsThem_andReadBackEqual() throws Exception {
    // Deno 2.9.6: JSON.stringify([1e21, 1.5e-7, 0.000001, 9007199254740993, 123.456, 5e-324,
    // 1.7976931348623157e308, 2**53, -1e-7, 123e20, 0.1+0.2, 1e20, -(2**60)]). Java's own
    // text was 1.0E21, 1.5E-7, 1.0E-6, 9.007199254740992E15, …
    List<Double> numbers = List.of(1e21, 1.5e-7, 0.000001, 9007199254740993.0, 123.456, 5e-324,
        1.7976931348623157e308, 0x1p53, -1e-7, 123e20, 0.1 + 0.2, 1e20, -0x1p60);
    String deno = "[1e+21,1.5e-7,0.000001,9007199254740992,123.456,5e-324,"
        + "1.7976931348623157e+308,9007199254740992,-1e-7,1.23e+22,0.30000000000000004,"
        + "100000000000000000000,-1152921504606847000]";
    String printed = Render.text(TypedJson.ofValue(numbers));
    assertThat(printed).isEqualTo(deno);
    assertThat(TypedJson.read(Render.JSON.readTree(printed))).isEqualTo(numbers);
  }
}
