package dev.kvasir.value;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kvasir.base.Hex;
import dev.kvasir.base.KvTypeException;
import java.io.File;
import java.math.BigInteger;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Java values through V8 bytes and back: cycles, sharing, records, and the writer's rules. */
class V8RoundTripTest {
  record User(String name, int age, List<String> tags) {}

  private static Object roundTrip(Object value) {
    return V8.deserialize(V8.serialize(value));
  }

  @Test
  void selfReferencingObject_keepsItsCycle() {
    Map<String, Object> o = new LinkedHashMap<>();
    o.put("self", o);
    assertThat(Hex.encode(V8.serialize(o))).isEqualTo("ff106f220473656c665e007b01");
    @SuppressWarnings("unchecked")
    Map<String, Object> back = (Map<String, Object>) roundTrip(o);
    assertThat(back.get("self")).isSameAs(back);
  }

  @Test
  void cyclesThroughListsMapsAndSets_arePreserved() {
    List<Object> list = new ArrayList<>();
    JsMap map = new JsMap();
    JsSet set = new JsSet();
    list.add(map);
    map.put("set", set);
    set.add(list);
    Object back = roundTrip(list);
    assertThat(JsValues.deepEquals(back, list)).isTrue();
    List<?> l = (List<?>) back;
    JsMap m = (JsMap) l.get(0);
    JsSet s = (JsSet) m.get("set");
    assertThat(s.iterator().next()).isSameAs(l);
  }

  @Test
  void sharedReferences_stayShared() {
    Map<String, Object> shared = Map.of("k", 1);
    List<?> back = (List<?>) roundTrip(List.of(shared, shared, new byte[] {1}));
    assertThat(back.get(0)).isSameAs(back.get(1));
    byte[] bytes = {1, 2};
    List<?> twice = (List<?>) roundTrip(List.of(bytes, bytes));
    assertThat(twice.get(0)).isSameAs(twice.get(1)).isEqualTo(bytes);
  }

  @Test
  void manyObjects_eachReferencedTwice_stayShared() {
    List<Object> objects = new ArrayList<>();
    for (int i = 0; i < 20; i++) { // past the reader's two fields and its table after them
      objects.add(Map.of("i", i));
    }
    List<Object> twice = new ArrayList<>(objects);
    twice.addAll(objects);
    List<?> back = (List<?>) roundTrip(twice);
    for (int i = 0; i < 20; i++) {
      assertThat(back.get(20 + i)).isSameAs(back.get(i)).isEqualTo(Map.of("i", (double) i));
    }
  }

  @Test
  void records_areWrittenAsObjectsInComponentOrder() {
    User alice = new User("Alice", 30, List.of("a"));
    assertThat(V8.serialize(alice)).isEqualTo(V8.serialize(
        linked("name", "Alice", "age", 30, "tags", List.of("a"))));
    assertThat(roundTrip(alice)).isEqualTo(linked("name", "Alice", "age", 30.0, "tags", List.of("a")));
  }

  @Test
  void objectKeys_followJsPropertyOrder() {
    Map<String, Object> m = linked("b", 1, "1", 2, "0", 3, "01", 4, "4294967295", 5);
    assertThat(new ArrayList<Object>(((Map<?, ?>) roundTrip(m)).keySet()))
        .containsExactly("0", "1", "b", "01", "4294967295");
  }

  @Test
  void numbers_useInt32OnlyForIntegralValuesOtherThanNegativeZero() {
    assertThat(Hex.encode(V8.serialize(1))).isEqualTo("ff104902");
    assertThat(Hex.encode(V8.serialize(1.0))).isEqualTo("ff104902");
    assertThat(Hex.encode(V8.serialize(-0.0))).isEqualTo("ff104e0000000000000080");
    assertThat(Hex.encode(V8.serialize(2147483648L))).isEqualTo("ff104e000000000000e041");
    assertThat(roundTrip(7L)).isEqualTo(7.0);
    assertThatThrownBy(() -> V8.serialize(Map.of("n", List.of(1L << 53 | 1))))
        .isInstanceOf(KvTypeException.class)
        .hasMessageStartingWith("value.n[0]: Long 9007199254740993 cannot be represented");
  }

  @Test
  void javaMapWithNonStringKeys_isAJsMap_andSetsAreJsSets() {
    Object back = roundTrip(new LinkedHashMap<>(Map.of(1, "a")));
    assertThat(back).isInstanceOf(JsMap.class);
    assertThat(((JsMap) back).get(1.0)).isEqualTo("a");
    assertThat(roundTrip(Set.of("x"))).isInstanceOf(JsSet.class);
  }

  @Test
  void dates_areWholeMilliseconds_andAFinerInstantIsRefusedRatherThanCut() {
    assertThat(roundTrip(Instant.ofEpochMilli(1700000000000L)))
        .isEqualTo(Instant.ofEpochMilli(1700000000000L));
    assertThat(roundTrip(Instant.ofEpochMilli(-1))).isEqualTo(Instant.ofEpochMilli(-1));
    assertThatThrownBy(() -> V8.serialize(Instant.ofEpochSecond(0, 1_500_000)))
        .isInstanceOf(KvTypeException.class)
        .hasMessageContaining("sub-millisecond precision");
    assertThat(roundTrip(new Date(5))).isEqualTo(Instant.ofEpochMilli(5));
    assertThat(roundTrip(InvalidDate.INSTANCE)).isSameAs(InvalidDate.INSTANCE);
    assertThatThrownBy(() -> V8.serialize(Instant.ofEpochSecond(Instant.MAX.getEpochSecond())))
        .hasMessageContaining("outside the JS Date range");
  }

  @Test
  void strings_keepLoneSurrogatesAndChooseTheirWidth() {
    assertThat(roundTrip("a\ud800b")).isEqualTo("a\ud800b");
    assertThat(Hex.encode(V8.serialize("é"))).isEqualTo("ff102201e9");
    assertThat(Hex.encode(V8.serialize("Ā"))).isEqualTo("ff1063020001");
  }

  @Test
  void arraysWithHoles_areSparse_andPropertiesSurvive() {
    List<Object> holey = new ArrayList<>(List.of(1, Hole.INSTANCE, 3));
    assertThat(Hex.encode(V8.serialize(holey))).isEqualTo("ff1061034900490249044906400203");
    JsArray withProps = new JsArray(List.of(1));
    withProps.properties().put("foo", "bar");
    JsArray back = (JsArray) roundTrip(withProps);
    assertThat(back.properties()).containsEntry("foo", "bar");
    assertThat(back).containsExactly(1.0);
  }

  @Test
  void hugeSparseArrays_roundTripWithoutMaterialisingHoles() {
    JsSparseArray a = new JsSparseArray(4_000_000_000L).set(3_999_999_999L, "last");
    Object back = roundTrip(a);
    assertThat(back).isInstanceOf(JsSparseArray.class);
    assertThat(JsValues.deepEquals(back, a)).isTrue();
  }

  @Test
  void nestedKvU64_becomesAPlainObjectAsInDeno() {
    assertThat(Hex.encode(V8.serialize(Map.of("n", KvU64.of(5)))))
        .isEqualTo("ff106f22016e6f220576616c75655a1005000000000000007b017b01");
  }

  @Test
  void errorsBoxesRegExpsAndViews_roundTrip() {
    JsArrayBuffer buffer = JsArrayBuffer.resizable(new byte[] {1, 2, 3, 4}, 16);
    List<Object> value = List.of(
        JsError.withCause(JsError.Kind.TYPE_ERROR, "bad", "TypeError: bad", List.of(1)),
        JsError.of(JsError.Kind.URI_ERROR, null, null),
        new JsBoxed.Str("s"), new JsBoxed.Num(1.5), new JsBoxed.Bool(false),
        new JsBoxed.BigInt(BigInteger.TEN.negate()), new JsRegExp("a+", "gu"),
        JsTypedArray.of(JsTypedArray.Kind.FLOAT32_ARRAY, buffer, 0, 1),
        JsTypedArray.of(JsTypedArray.Kind.DATA_VIEW, buffer, 1, 2), buffer,
        Undefined.INSTANCE, BigInteger.TWO.pow(200).negate());
    assertThat(JsValues.deepEquals(roundTrip(value), value)).isTrue();
    assertThat(V8.serialize(roundTrip(value))).isEqualTo(V8.serialize(value));
  }

  @Test
  void unsupportedTypes_nameTheirPath() {
    Map<String, Object> owner = Map.of("owner", new File("x"));
    Map<String, Object> value = Map.of("items", List.of(1, 2, 3, owner));
    assertThatThrownBy(() -> V8.serialize(value))
        .isInstanceOf(KvTypeException.class)
        .hasMessage("value.items[3].owner: java.io.File is not serializable");
    assertThatThrownBy(() -> V8.serialize(new JsMap().put("k", new Object())))
        .hasMessage("value<entry 0>: java.lang.Object is not serializable");
    assertThatThrownBy(() -> V8.serialize(Hole.INSTANCE))
        .hasMessage("value: a Hole is only allowed as an array element");
  }

  @Test
  void deepJavaValues_areRejectedNotOverflowed() {
    List<Object> root = new ArrayList<>();
    List<Object> current = root;
    for (int i = 0; i < 100_000; i++) {
      List<Object> next = new ArrayList<>();
      current.add(next);
      current = next;
    }
    assertThatThrownBy(() -> V8.serialize(root))
        .isInstanceOf(KvTypeException.class)
        .hasMessageContaining("nested deeper than " + V8Tags.MAX_DEPTH + " levels");
  }

  @Test
  void maxDepth_isReadableAndWritable() {
    List<Object> root = new ArrayList<>();
    List<Object> current = root;
    for (int i = 1; i < V8Tags.MAX_DEPTH; i++) {
      List<Object> next = new ArrayList<>();
      current.add(next);
      current = next;
    }
    assertThat(JsValues.deepEquals(roundTrip(root), root)).isTrue();
  }

  private static Map<String, Object> linked(Object... kv) {
    Map<String, Object> m = new LinkedHashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      m.put((String) kv[i], kv[i + 1]);
    }
    return m;
  }
}
