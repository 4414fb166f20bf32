package dev.kvasir.value;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.util.ArrayList;
import java.util.ConcurrentModificationException;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** {@link JsObject} behaves as a {@code LinkedHashMap} does, below and above its hash index. */
class JsObjectTest {
  @Test
  void randomOperations_matchALinkedHashMap() {
    Random random = new Random(20261121);
    for (int round = 0; round < 200; round++) {
      JsObject object = new JsObject();
      Map<String, Object> expected = new LinkedHashMap<>();
      int names = 1 + random.nextInt(3 * JsObject.INDEX_FROM); // sizes on both sides of it
      for (int step = 0; step < 300; step++) {
        randomStep(random, object, expected, names);
      }
    }
  }

  /**
   * One random change or lookup, the same on {@code object} and {@code expected}, then checks
   * that they agree; names are {@code p0} to {@code p<names - 1>}.
   */
  static void randomStep(Random random, Map<String, Object> object,
      Map<String, Object> expected, int names) {
    String name = "p" + random.nextInt(names);
    Object value = random.nextInt(10) == 0 ? null : random.nextInt(1000);
    switch (random.nextInt(8)) {
      case 0, 1, 2 -> assertThat(object.put(name, value)).isEqualTo(expected.put(name, value));
      case 3 -> assertThat(object.remove(name)).isEqualTo(expected.remove(name));
      case 4 -> removeEveryThird(object, expected);
      case 5 -> setEveryOther(object, expected, value);
      case 6 -> {
        if (random.nextInt(20) == 0) {
          object.clear();
          expected.clear();
        }
      }
      default -> {
        assertThat(object.get(name)).isEqualTo(expected.get(name));
        assertThat(object.containsKey(name)).isEqualTo(expected.containsKey(name));
      }
    }
    assertThat(object).isEqualTo(expected);
    assertThat(object.hashCode()).isEqualTo(expected.hashCode());
    assertThat(new ArrayList<>(object.keySet())).isEqualTo(new ArrayList<>(expected.keySet()));
    assertThat(object.toString()).isEqualTo(expected.toString());
  }

  private static void removeEveryThird(Map<String, Object> object, Map<String, Object> expected) {
    for (Map<String, Object> m : List.of(object, expected)) {
      int i = 0;
      for (Iterator<String> it = m.keySet().iterator(); it.hasNext(); i++) {
        it.next();
        if (i % 3 == 0) {
          it.remove();
        }
      }
    }
  }

  private static void setEveryOther(
      Map<String, Object> object, Map<String, Object> expected, Object value) {
    for (Map<String, Object> m : List.of(object, expected)) {
      int i = 0;
      for (Map.Entry<String, Object> e : m.entrySet()) {
        if (i++ % 2 == 0) {
          e.setValue(value);
        }
      }
    }
  }

  @Test
  void anEntry_followsItsNameWhenOthersAreRemoved_andKeepsItsValueOnceItsOwnIs() {
    JsObject object = new JsObject();
    object.put("a", 1);
    object.put("b", 2);
    Map.Entry<String, Object> b = object.entrySet().stream()
        .filter(e -> e.getKey().equals("b")).findFirst().orElseThrow();
    object.remove("a");
    b.setValue(3);
    assertThat(object).containsExactly(Map.entry("b", 3));
    object.remove("b");
    assertThat(b.getValue()).isEqualTo(3);
    b.setValue(4); // like a removed LinkedHashMap node: the map does not change
    assertThat(object).isEmpty();
  }

  @Test
  void changingTheObjectWhileIterating_failsFast() {
    JsObject object = new JsObject();
    object.put("a", 1);
    object.put("b", 2);
    Iterator<String> it = object.keySet().iterator();
    it.next();
    object.put("c", 3);
    assertThatThrownBy(it::next).isInstanceOf(ConcurrentModificationException.class);
  }

  @Test
  void javaSerialization_keepsOrderAndTheIndex() throws Exception {
    for (int n : new int[] {3, 3 * JsObject.INDEX_FROM}) {
      JsObject object = new JsObject();
      for (int i = n; i > 0; i--) {
        object.put("p" + i, i);
      }
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
        out.writeObject(object);
      }
      Object back;
      try (ObjectInputStream in =
          new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
        back = in.readObject();
      }
      @SuppressWarnings("unchecked")
      Map<String, Object> copy = (Map<String, Object>) back;
      assertThat(new ArrayList<>(copy.keySet())).isEqualTo(new ArrayList<>(object.keySet()));
      assertThat(copy.get("p1")).isEqualTo(1);
      copy.remove("p1");
      assertThat(copy.get("p2")).isEqualTo(2);
      assertThat(copy).hasSize(n - 1);
    }
  }

  @Test
  void decodedObjects_areCompactMaps_thatWriteBackToTheSameBytes() {
    Map<String, Object> source = new LinkedHashMap<>();
    for (int i = 0; i < 40; i++) {
      source.put("k" + i, i % 3 == 0 ? null : (double) i);
    }
    byte[] bytes = V8.serialize(source);
    Object decoded = V8.deserialize(bytes);
    assertThat(decoded).isInstanceOf(JsObject.class).isEqualTo(source);
    assertThat(V8.serialize(decoded)).isEqualTo(bytes);
  }
}
