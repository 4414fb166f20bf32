package dev.kvasir.value;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PropertyNamesTest {
  private static Map<?, ?> roundTrip(Map<String, Object> value) {
    return (Map<?, ?>) V8.deserialize(V8.serialize(value));
  }

  @Test
  void objectsOfOneShape_shareTheirKeyStrings() {
    Map<?, ?> a = roundTrip(Map.of("name", "x"));
    Map<?, ?> b = roundTrip(Map.of("name", "y"));
    assertThat(a.keySet().iterator().next()).isSameAs(b.keySet().iterator().next());
  }

  @Test
  void manyDistinctNames_longNames_andLatin1_decodeExactly() {
    // 5 000 names through 1 024 slots: collisions must replace, never confuse, entries.
    Map<String, Object> value = new LinkedHashMap<>();
    for (int i = 0; i < 5_000; i++) {
      value.put("k" + i, i);
    }
    value.put("x".repeat(40), "long");
    value.put("caf\u00e9", "latin-1");
    Map<?, ?> decoded = roundTrip(value);
    assertThat(new ArrayList<>(decoded.keySet())).isEqualTo(new ArrayList<>(value.keySet()));
    assertThat(roundTrip(value)).isEqualTo(decoded);
    assertThat(decoded.get("caf\u00e9")).isEqualTo("latin-1");
  }

  @Test
  void latin1_equalNamesGiveEqualStrings_acrossSlots() {
    byte[] in = "abcabc".getBytes(StandardCharsets.ISO_8859_1);
    assertThat(PropertyNames.latin1(in, 0, 3)).isEqualTo("abc")
        .isSameAs(PropertyNames.latin1(in, 3, 3));
    assertThat(List.of(PropertyNames.latin1(in, 1, 2), PropertyNames.latin1(in, 0, 0)))
        .containsExactly("bc", "");
  }
}
