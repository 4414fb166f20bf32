package dev.kvasir.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.kvasir.base.KvDecodeException;
import dev.kvasir.value.JsValues;
import dev.kvasir.value.V8;

/**
 * Any byte string either deserializes to a value that survives a round trip through our own
 * writer, or fails with a {@link KvDecodeException}; nothing else may escape (no overflow, no
 * out-of-memory, no index or null-pointer error).
 *
 * <p>Unit tests replay the stored inputs; {@code ./mvnw verify} fuzzes for 20 s; a long run:
 * {@code ./mvnw -pl kvasir-core verify -Dfuzz.seconds=3600} (profile {@code fuzz-long}).
 */
public class V8DeserializeFuzzTest {
  @FuzzTest(maxDuration = "20s")
  void deserialize_roundTripsOrFailsCleanly(byte[] input) {
    fuzzerTestOneInput(input);
  }

  /** Entry point for the standalone Jazzer driver of the long run. */
  public static void fuzzerTestOneInput(byte[] input) {
    Object value;
    try {
      value = V8.deserialize(input);
    } catch (KvDecodeException expected) {
      return;
    }
    Object again = V8.deserialize(V8.serialize(value));
    assertThat(JsValues.deepEquals(again, value)).as("round trip of %s", value).isTrue();
  }
}
