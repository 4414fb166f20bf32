package dev.kvasir.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kvasir.Kv;
import dev.kvasir.KvKey;
import dev.kvasir.value.JsMap;
import dev.kvasir.value.JsSet;
import dev.kvasir.value.JsValues;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * Values nested nearly as deep as Deno 2.9.6 writes and reads them back, under {@code ["deep",
 * kind]}: the same values as the Deno script {@code deep.ts} (docs/values.md §8).
 */
public final class DeepValues {
  private DeepValues() {}

  /** By kind: how deep, and how one level wraps the next. */
  private static final Map<String, Integer> DEPTHS =
      Map.of("array", 3_500, "object", 2_600, "set", 4_900, "map", 4_600);
  private static final Map<String, UnaryOperator<Object>> WRAP = Map.of(
      "array", v -> new ArrayList<>(List.of(v)),
      "object", v -> new LinkedHashMap<>(Map.of("a", v)),
      "set", v -> new JsSet().add(v),
      "map", v -> new JsMap().put(1.0, v));

  /** The value stored under {@code ["deep", kind]}. */
  public static Object of(String kind) {
    Object value = 7.0;
    for (int i = 0; i < DEPTHS.get(kind); i++) {
      value = WRAP.get(kind).apply(value);
    }
    return value;
  }

  /** Writes every deep value into {@code kv}. */
  public static void write(Kv kv) {
    for (String kind : DEPTHS.keySet()) {
      kv.set(KvKey.of("deep", kind), of(kind));
    }
  }

  /** Every deep value reads back from {@code kv} as written. */
  public static void assertRead(Kv kv) {
    for (String kind : DEPTHS.keySet()) {
      Object read = kv.get(KvKey.of("deep", kind)).value();
      assertThat(JsValues.deepEquals(read, of(kind))).as("the %s nested %d deep", kind,
          DEPTHS.get(kind)).isTrue();
    }
  }
}
