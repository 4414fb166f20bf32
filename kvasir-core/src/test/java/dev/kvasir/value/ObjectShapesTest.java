package dev.kvasir.value;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * Decoded objects of one shape share their array of names ({@link ObjectShapes}), and each of
 * them still changes alone, as a map of its own would.
 */
class ObjectShapesTest {
  /** More decodes than any credit: whatever an earlier test left in a slot, it is taken. */
  private static final int TAKES_A_SLOT = 40;

  @Test
  void objectsOfOneShape_shareTheirNames() {
    takeSlot(object("shapeI", 0.0, "shapeName", "zero", "shapeTags", List.of()));
    JsObject first = decode(object("shapeI", 1.0, "shapeName", "one", "shapeTags", List.of("a")));
    JsObject second = decode(object("shapeI", 2.0, "shapeName", "two", "shapeTags", List.of()));
    assertThat(first.sharesNames()).isTrue();
    assertThat(second.sharesNames()).isTrue();
    assertThat(first)
        .isEqualTo(object("shapeI", 1.0, "shapeName", "one", "shapeTags", List.of("a")));
    assertThat(second)
        .isEqualTo(object("shapeI", 2.0, "shapeName", "two", "shapeTags", List.of()));
  }

  @Test
  void objectsSharingNames_eachChangeOnlyThemselves() {
    Random random = new Random(20261207);
    for (int round = 0; round < 50; round++) {
      List<Map<String, Object>> objects = new ArrayList<>();
      List<Map<String, Object>> expected = new ArrayList<>();
      for (int i = 0; i < 4; i++) {
        Map<String, Object> source = object("p0", (double) i, "p1", null, "p2", 2.0 * i, "p3", "x");
        if (round == 0 && i == 0) {
          takeSlot(source);
        }
        objects.add(decode(source));
        expected.add(new LinkedHashMap<>(source));
      }
      assertThat(((JsObject) objects.get(0)).sharesNames()).isTrue();
      for (int step = 0; step < 200; step++) {
        int which = random.nextInt(objects.size());
        JsObjectTest.randomStep(random, objects.get(which), expected.get(which), 6);
        assertThat(objects).isEqualTo(expected);
      }
    }
  }

  @Test
  void objectsThatStopShortOrGoOn_keepNamesOfTheirOwn() {
    takeSlot(object("sa", 0.0, "sb", 0.0, "sc", 0.0));
    JsObject abc = decode(object("sa", 1.0, "sb", 2.0, "sc", 3.0));
    JsObject ab = decode(object("sa", 1.0, "sb", 2.0));
    JsObject abcd = decode(object("sa", 1.0, "sb", 2.0, "sc", 3.0, "sd", 4.0));
    JsObject ac = decode(object("sa", 1.0, "sc", 3.0));
    JsObject abcAgain = decode(object("sa", 5.0, "sb", 6.0, "sc", 7.0));
    assertThat(abc.sharesNames()).isTrue();
    assertThat(ab.sharesNames()).isFalse();
    assertThat(abcd.sharesNames()).isFalse();
    assertThat(ac.sharesNames()).isFalse();
    assertThat(abcAgain.sharesNames()).isTrue();
    ab.put("sc", 3.5);
    abcAgain.put("se", 8.0);
    abc.remove("sb");
    assertThat(abc).isEqualTo(object("sa", 1.0, "sc", 3.0));
    assertThat(ab).isEqualTo(object("sa", 1.0, "sb", 2.0, "sc", 3.5));
    assertThat(abcd).isEqualTo(object("sa", 1.0, "sb", 2.0, "sc", 3.0, "sd", 4.0));
    assertThat(ac).isEqualTo(object("sa", 1.0, "sc", 3.0));
    assertThat(abcAgain).isEqualTo(object("sa", 5.0, "sb", 6.0, "sc", 7.0, "se", 8.0));
  }

  /**
   * Objects of two shapes that take turns in one slot leave the first there, instead of each
   * copying its names into a new shape; objects of one new shape take the slot after a few.
   */
  @Test
  void aShapeInUse_keepsItsSlot_untilAnotherShapeComesOftenEnough() {
    takeSlot(object("aid", 0.0, "ax", 0.0));
    for (int i = 0; i < 10; i++) {
      assertThat(decode(object("aid", 1.0, "ax", 2.0)).sharesNames()).isTrue();
      assertThat(decode(object("aid", 1.0, "ay", 2.0)).sharesNames()).isFalse();
    }
    List<Boolean> shared = new ArrayList<>();
    for (int i = 0; i < TAKES_A_SLOT; i++) {
      shared.add(decode(object("aid", 1.0, "az", 2.0)).sharesNames());
    }
    assertThat(shared.get(0)).isFalse(); // while the first shape has credit
    assertThat(shared.get(shared.size() - 1)).isTrue();
    assertThat(decode(object("aid", 1.0, "ax", 2.0)).sharesNames()).isFalse();
  }

  @Test
  void anOuterAndAnInnerObjectBeginningAlike_eachKeepTheirShape() {
    Map<String, Object> value =
        object("nid", 1.0, "nitems", List.of(object("nid", 2.0, "nq", 3.0)));
    takeSlot(value);
    JsObject outer = decode(value);
    JsObject inner = (JsObject) ((List<?>) outer.get("nitems")).get(0);
    assertThat(outer.sharesNames()).isTrue();
    assertThat(inner.sharesNames()).isTrue();
    assertThat(inner).isEqualTo(object("nid", 2.0, "nq", 3.0));
  }

  /** A value whose objects mostly match no shape stops looking, and still decodes right. */
  @Test
  void aValueOfObjectsThatMatchNoShape_stopsLookingForShapes() {
    List<Object> one = List.of(object("gx", 1.0, "gy", 2.0)); // a shape inside a list
    takeSlot(one);
    assertThat(((JsObject) ((List<?>) V8.deserialize(V8.serialize(one))).get(0)).sharesNames())
        .isTrue();
    List<Object> list = new ArrayList<>();
    for (int i = 0; i < 30; i++) {
      list.add(object("gkey" + i, (double) i));
    }
    list.add(object("gx", 3.0, "gy", 4.0));
    List<?> decoded = (List<?>) V8.deserialize(V8.serialize(list));
    assertThat(decoded).isEqualTo(list);
    assertThat(((JsObject) decoded.get(30)).sharesNames()).isFalse();
  }

  @Test
  void objectsWithIndexNames_areSortedAsV8Does_andNotShared() {
    for (int i = 0; i < 2; i++) {
      JsObject object = decode(object("ib", 1.0, "7", 2.0));
      assertThat(new ArrayList<>(object.keySet())).containsExactly("7", "ib");
      assertThat(object.sharesNames()).isFalse();
    }
  }

  @Test
  void aSerializedCopy_ownsItsNames() throws Exception {
    JsObject original = decode(object("cx", 1.0, "cy", 2.0));
    JsObject sibling = decode(object("cx", 3.0, "cy", 4.0));
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
      out.writeObject(List.of(original, sibling));
    }
    List<?> copies;
    try (ObjectInputStream in =
        new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
      copies = (List<?>) in.readObject();
    }
    JsObject copy = (JsObject) copies.get(0);
    assertThat(copy.sharesNames()).isFalse();
    copy.remove("cx");
    copy.put("cz", 5.0);
    assertThat(copies.get(1)).isEqualTo(object("cx", 3.0, "cy", 4.0));
    assertThat(original).isEqualTo(object("cx", 1.0, "cy", 2.0));
  }

  /** Shapes that begin alike take one slot; threads decoding and changing them see no other's. */
  @Test
  void threadsDecodingShapesThatTakeOneSlot_eachReadTheirOwnValues() throws Exception {
    List<Map<String, Object>> shapes = List.of(
        object("tk", 1.0, "tx", 2.0),
        object("tk", 1.0, "ty", 2.0, "tz", 3.0),
        object("tk", 1.0),
        object("tk", 1.0, "tx", 2.0, "tw", 4.0));
    List<byte[]> encoded = shapes.stream().map(V8::serialize).toList();
    ExecutorService threads = Executors.newFixedThreadPool(4);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        int seed = t;
        done.add(threads.submit(() -> {
          Random random = new Random(seed);
          for (int i = 0; i < 20_000; i++) {
            int which = random.nextInt(shapes.size());
            @SuppressWarnings("unchecked")
            Map<String, Object> decoded = (Map<String, Object>) V8.deserialize(encoded.get(which));
            assertThat(decoded).isEqualTo(shapes.get(which));
            decoded.remove("tk"); // would show in later decodes if it touched a shared array
            decoded.put("tk", 0.0);
          }
          return null;
        }));
      }
      for (Future<?> f : done) {
        f.get();
      }
    } finally {
      threads.shutdownNow();
    }
  }

  /** Decodes {@code value} until its objects' shapes hold their slots, with full credit. */
  private static void takeSlot(Object value) {
    byte[] bytes = V8.serialize(value);
    for (int i = 0; i < TAKES_A_SLOT; i++) {
      V8.deserialize(bytes);
    }
  }

  private static JsObject decode(Map<String, Object> source) {
    return (JsObject) V8.deserialize(V8.serialize(source));
  }

  /** An object of the names and values given in turn, in that order. */
  private static Map<String, Object> object(Object... namesAndValues) {
    Map<String, Object> object = new LinkedHashMap<>();
    for (int i = 0; i < namesAndValues.length; i += 2) {
      object.put((String) namesAndValues[i], namesAndValues[i + 1]);
    }
    return object;
  }
}
