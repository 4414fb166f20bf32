package dev.kvasir.value;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class JsFormatTest {
  @Test
  void numberToString_followsJs() {
    assertThat(JsFormat.numberToString(42)).isEqualTo("42");
    assertThat(JsFormat.numberToString(-0.0)).isEqualTo("0");
    assertThat(JsFormat.numberToString(1.5)).isEqualTo("1.5");
    assertThat(JsFormat.numberToString(0.1)).isEqualTo("0.1");
    assertThat(JsFormat.numberToString(1e21)).isEqualTo("1e+21");
    assertThat(JsFormat.numberToString(1e20)).isEqualTo("100000000000000000000");
    assertThat(JsFormat.numberToString(1e-6)).isEqualTo("0.000001");
    assertThat(JsFormat.numberToString(1e-7)).isEqualTo("1e-7");
    assertThat(JsFormat.numberToString(-1.25e-10)).isEqualTo("-1.25e-10");
    assertThat(JsFormat.numberToString(4294967294.0)).isEqualTo("4294967294");
    assertThat(JsFormat.numberToString(Double.MAX_VALUE)).isEqualTo("1.7976931348623157e+308");
    assertThat(JsFormat.numberToString(Double.MIN_VALUE)).isEqualTo("5e-324");
    assertThat(JsFormat.numberToString(Double.NEGATIVE_INFINITY)).isEqualTo("-Infinity");
  }

  @Test
  void appendQuoted_escapesLikeJson() {
    StringBuilder out = new StringBuilder();
    JsFormat.appendQuoted(out, "a\"\\\n\u0001\ud800😀");
    assertThat(out).hasToString("\"a\\\"\\\\\\n\\u0001\\ud800😀\"");
  }
}
