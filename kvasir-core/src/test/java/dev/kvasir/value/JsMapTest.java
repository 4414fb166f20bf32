package dev.kvasir.value;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** JS Map and Set key semantics: SameValueZero, insertion order. */
class JsMapTest {
  @Test
  void primitives_matchByValueAcrossJavaNumberTypes() {
    JsMap m = new JsMap().put(1, "int").put(-0.0, "zero").put(Double.NaN, "nan");
    assertThat(m.get(1.0)).isEqualTo("int");
    assertThat(m.get(0)).isEqualTo("zero");
    assertThat(m.get(Double.longBitsToDouble(0x7ff0000000000001L))).isEqualTo("nan");
    assertThat(m.iterator().next().getKey()).isEqualTo(1);
    assertThat(m.get(BigInteger.ONE)).isNull();
  }

  @Test
  void objects_matchByIdentity_andReinsertKeepsPosition() {
    Map<String, Object> a = new HashMap<>();
    Map<String, Object> b = new HashMap<>();
    JsMap m = new JsMap().put(a, 1).put(b, 2).put(a, 3);
    assertThat(m.size()).isEqualTo(2);
    assertThat(m.get(a)).isEqualTo(3);
    assertThat(m.iterator().next().getKey()).isSameAs(a);
    assertThat(m.remove(b)).isTrue();
    assertThat(m.containsKey(b)).isFalse();
  }

  @Test
  void set_keepsDistinctObjectsAndOneNaN() {
    JsSet s = new JsSet().add(new HashMap<>()).add(new HashMap<>()).add(Double.NaN)
        .add(Double.NaN).add(null).add(Undefined.INSTANCE);
    assertThat(s.size()).isEqualTo(5);
    assertThat(s.contains(null)).isTrue();
  }

  @Test
  void cyclicKey_isNeverHashedStructurally() {
    Map<String, Object> cyclic = new HashMap<>();
    cyclic.put("self", cyclic);
    JsMap m = new JsMap().put(cyclic, "ok");
    assertThat(m.get(cyclic)).isEqualTo("ok");
  }
}
