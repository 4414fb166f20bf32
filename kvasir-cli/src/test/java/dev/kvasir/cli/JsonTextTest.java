package dev.kvasir.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.kvasir.value.JsArray;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** VALUE arguments and import lines read as JSON.parse reads them. */
class JsonTextTest {
  @Test
  void textAfterTheValue_isRefused_notDropped() {
    // Jackson's readTree stored 1 for '1 2' and {"a":1} for '{"a":1}}'; JSON.parse throws.
    for (String text
        : List.of("1 2", "{\"a\":1}}", "{\"a\":1} {\"b\":2}", "[1] x", "\"a\" \"b\"")) {
      assertThatThrownBy(() -> ValueType.json.parse(text)).as(text)
          .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("is not JSON");
    }
    assertThatThrownBy(() -> JsonText.parse("1 2")).isInstanceOf(JsonProcessingException.class)
        .hasMessageContaining("more text after the value, at column 3");
  }

  @Test
  void anUnclosedObject_namesWhereItOpened_inTheUsersTerms() {
    // Jackson's message named its API: "(start marker at [Source: REDACTED
    // (`StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION` disabled); line: 1, column: 1])".
    assertThatThrownBy(() -> ValueType.json.parse("[1, {\"a\":1"))
        .hasMessage("'[1, {\"a\":1' is not JSON (Unexpected end-of-input: expected close marker"
            + " for Object (start marker at line 1, column 5)); quote strings as '\"text\"' or"
            + " pass --type string");
  }

  @Test
  void noValue_isRefused_notStoredAsAnEmptyObject() {
    for (String text : List.of("", "   ", "\n")) {
      assertThatThrownBy(() -> ValueType.json.parse(text)).as("'%s'", text)
          .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no value");
    }
  }

  @Test
  void minusZero_staysMinusZero_asInJavaScript() {
    // Deno 2.9.6: Object.is(JSON.parse("-0"), -0) and Object.is(JSON.parse("[-0]")[0], -0).
    assertThat(Double.doubleToRawLongBits((Double) ValueType.json.parse("-0")))
        .isEqualTo(Double.doubleToRawLongBits(-0.0));
    JsArray array = (JsArray) ValueType.json.parse("[-0, 0, -0.0, -0e3, -1]");
    assertThat(array.stream().map(d -> Double.doubleToRawLongBits((Double) d)).toList())
        .containsExactly(Double.doubleToRawLongBits(-0.0), 0L, Double.doubleToRawLongBits(-0.0),
            Double.doubleToRawLongBits(-0.0), Double.doubleToRawLongBits(-1.0));
  }

  @Test
  void plainJson_readsAsBefore() {
    Object value = ValueType.json.parse(
        "{\"s\":\"x\",\"i\":7,\"big\":12345678901234567890,\"f\":1.5,\"t\":true,\"n\":null,"
            + "\"a\":[1,{\"b\":false}],\"s\":\"last\",\"u\":{\"$u64\":\"7\"}}");
    assertThat(value).isInstanceOf(Map.class);
    @SuppressWarnings("unchecked")
    Map<String, Object> object = (Map<String, Object>) value;
    // A repeated name keeps its first place and its last value, as in JSON.parse.
    assertThat(object.keySet()).containsExactly("s", "i", "big", "f", "t", "n", "a", "u");
    assertThat(object.get("s")).isEqualTo("last");
    assertThat(object.get("i")).isEqualTo(7.0);
    assertThat(object.get("big")).isEqualTo(12345678901234567890.0);
    assertThat(object.get("f")).isEqualTo(1.5);
    assertThat(object.get("t")).isEqualTo(true);
    assertThat(object.get("n")).isNull();
    assertThat(object.get("a")).isEqualTo(List.of(1.0, Map.of("b", false)));
    assertThat(object.get("u")).hasToString("7");
  }

  @Test
  void javaScriptLiterals_pointAtTheirTaggedForm() {
    assertThatThrownBy(() -> ValueType.json.parse("NaN"))
        .hasMessage("'NaN' is not JSON; write it as '{\"$number\":\"NaN\"}'");
    assertThatThrownBy(() -> ValueType.json.parse("-Infinity"))
        .hasMessage("'-Infinity' is not JSON; write it as '{\"$number\":\"-Infinity\"}'");
    assertThatThrownBy(() -> ValueType.json.parse("+Infinity"))
        .hasMessage("'+Infinity' is not JSON; write it as '{\"$number\":\"Infinity\"}'");
    assertThatThrownBy(() -> ValueType.json.parse("undefined"))
        .hasMessage("'undefined' is not JSON; write it as '{\"$undefined\":null}'");
    assertThatThrownBy(() -> ValueType.json.parse("-7n"))
        .hasMessage("'-7n' is not JSON; write it as '{\"$bigint\":\"-7\"}'");
    // Jackson's own wording named a feature flag of its API.
    assertThatThrownBy(() -> ValueType.json.parse("[NaN]")).hasMessageNotContaining("Feature");
  }

  @Test
  void typeNumber_readsDecimalNumbers_notJavasOtherSyntax() {
    assertThat(ValueType.number.parse("-1.5e3")).isEqualTo(-1500.0);
    assertThat(ValueType.number.parse(".5")).isEqualTo(0.5);
    assertThat(ValueType.number.parse("+7.")).isEqualTo(7.0);
    assertThat(ValueType.number.parse("-Infinity")).isEqualTo(Double.NEGATIVE_INFINITY);
    assertThat((Double) ValueType.number.parse("NaN")).isNaN();
    assertThat(Double.doubleToRawLongBits((Double) ValueType.number.parse("-0")))
        .isEqualTo(Double.doubleToRawLongBits(-0.0));
    // Double.parseDouble read all of these, 1d and 1f as 1 and 0x1p3 as 8.
    for (String text : List.of("1d", "1f", "0x1p3", " 5", "5 ", "", "e5", "1e", "--1", "nan")) {
      assertThatThrownBy(() -> ValueType.number.parse(text)).as("'%s'", text)
          .hasMessage("'" + text + "' is not a number");
    }
    // From standard input the line break around it is dropped, as for every type but string.
    assertThat(ValueType.number.parseInput(" 5\n".getBytes())).isEqualTo(5.0);
  }
}
