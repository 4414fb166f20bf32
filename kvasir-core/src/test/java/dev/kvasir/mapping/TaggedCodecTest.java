package dev.kvasir.mapping;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kvasir.base.KvTypeException;
import dev.kvasir.value.V8;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Interfaces and abstract classes written with a tag naming the class (docs/mapping.md §5). */
class TaggedCodecTest {
  sealed interface Shape permits Circle, Square, Polygon {}

  record Circle(double radius) implements Shape {}

  record Square(double side) implements Shape {}

  /** A second sealed level: its classes are tagged as Shape's. */
  sealed interface Polygon extends Shape permits Triangle, Labelled {}

  record Triangle(double a, double b, double c) implements Polygon {}

  /** A JavaBean among the records. */
  public static final class Labelled implements Polygon {
    private String label = "";
    private List<Shape> parts = new ArrayList<>();

    public String getLabel() {
      return label;
    }

    public void setLabel(String label) {
      this.label = label;
    }

    public List<Shape> getParts() {
      return parts;
    }

    public void setParts(List<Shape> parts) {
      this.parts = parts;
    }
  }

  record Drawing(String name, List<Shape> shapes, Shape main) {}

  private static final ValueMapper SEALED =
      ValueMapper.defaults().with(ValueCodec.sealed(Shape.class, "type"));

  private static Object stored(Object value, ValueMapper mapper) {
    return V8.deserialize(V8.serialize(value, mapper));
  }

  @Test
  void aSealedInterface_isWrittenAsObjectsTaggedWithTheClassName_andReadBack() {
    Drawing drawing = new Drawing("d", List.of(new Circle(1.5), new Triangle(3, 4, 5)),
        new Square(2));
    Object js = stored(drawing, SEALED);

    Map<?, ?> object = (Map<?, ?>) js;
    assertThat(object.get("main")).isEqualTo(Map.of("type", "Square", "side", 2.0));
    assertThat(object.get("shapes")).isEqualTo(List.of(
        Map.of("type", "Circle", "radius", 1.5),
        Map.of("type", "Triangle", "a", 3.0, "b", 4.0, "c", 5.0)));
    assertThat(List.<Object>copyOf(((Map<?, ?>) object.get("main")).keySet()))
        .as("the tag first, as TypeScript writes a union").containsExactly("type", "side");
    assertThat(SEALED.read(js, Drawing.class)).isEqualTo(drawing);
  }

  @Test
  void aTaggedBean_holdingTaggedRecords_readsBack() {
    Labelled labelled = new Labelled();
    labelled.setLabel("house");
    labelled.setParts(List.of(new Square(4), new Triangle(4, 3, 3)));
    Object js = stored(labelled, SEALED);

    assertThat(((Map<?, ?>) js).get("type")).isEqualTo("Labelled");
    Shape back = SEALED.read(js, Shape.class);
    assertThat(back).isInstanceOf(Labelled.class);
    assertThat(((Labelled) back).getLabel()).isEqualTo("house");
    assertThat(((Labelled) back).getParts()).isEqualTo(labelled.getParts());
  }

  @Test
  void readAsTheClassItself_theTagMayBeMissing_butMayNotNameAnother() {
    assertThat(SEALED.read(Map.of("radius", 2.0), Circle.class)).isEqualTo(new Circle(2));
    assertThat(SEALED.read(stored(new Triangle(1, 1, 1), SEALED), Polygon.class))
        .isEqualTo(new Triangle(1, 1, 1));
    assertThatThrownBy(() -> SEALED.read(Map.of("type", "Circle", "radius", 2.0), Polygon.class))
        .isInstanceOf(KvTypeException.class)
        .hasMessage("value: \"type\" is \"Circle\", a Circle, which is not a "
            + Polygon.class.getName());
  }

  @Test
  void aMissingOrUnknownTag_readAsTheInterface_isAnErrorNamingThePathAndTheChoices() {
    Map<String, Object> untagged = Map.of("name", "d", "shapes", List.of(Map.of("side", 1.0)));
    assertThatThrownBy(() -> SEALED.read(untagged, Drawing.class))
        .isInstanceOf(KvTypeException.class)
        .hasMessage("value.shapes[0]: no property \"type\" to say which Shape this is"
            + " (\"Circle\", \"Square\", \"Triangle\", \"Labelled\")");
    assertThatThrownBy(() -> SEALED.read(Map.of("type", "Hexagon"), Shape.class))
        .isInstanceOf(KvTypeException.class)
        .hasMessageStartingWith("value: \"type\" is \"Hexagon\", which names no Shape");
    assertThatThrownBy(() -> SEALED.read(Map.of("type", 7.0), Polygon.class))
        .isInstanceOf(KvTypeException.class)
        .hasMessage("value: \"type\" is 7.0 (Double), which names no Polygon"
            + " (\"Triangle\", \"Labelled\")");
    assertThatThrownBy(() -> SEALED.read("Circle", Shape.class))
        .isInstanceOf(KvTypeException.class).hasMessageStartingWith("value: cannot convert");
  }

  interface Animal {}

  record Dog(String name) implements Animal {}

  record Cat(String name, int lives) implements Animal {}

  record Fish(String name) implements Animal {}

  @Test
  void anOpenInterface_takesItsNamesFromTheMap_andRefusesAClassItLacks() {
    ValueMapper mapper = ValueMapper.defaults().with(ValueCodec.tagged(Animal.class, "kind",
        Map.of("dog", Dog.class, "cat", Cat.class)));
    List<Animal> pets = List.of(new Dog("Rex"), new Cat("Tom", 9));
    Object js = stored(pets, mapper);

    assertThat(js).isEqualTo(List.of(Map.of("kind", "dog", "name", "Rex"),
        Map.of("kind", "cat", "name", "Tom", "lives", 9.0)));
    assertThat(mapper.read(js, new TypeRef<List<Animal>>() {})).isEqualTo(pets);
    assertThatThrownBy(() -> V8.serialize(List.of(new Fish("Nemo")), mapper))
        .isInstanceOf(KvTypeException.class)
        .hasMessageContaining(Fish.class.getName() + " is no tagged class of Animal"
            + " (\"cat\", \"dog\"): add it to the codec");
  }

  sealed interface Result<T> permits Ok, Failed, Unfinished {}

  record Ok<T>(T value) implements Result<T> {}

  record Failed<T>(String reason) implements Result<T> {}

  /** A sealed level between the interface and its classes, passing the argument on swapped. */
  sealed interface Unfinished<A, T> extends Result<T> permits Partial {}

  record Partial<X, Y>(List<X> done, Y note) implements Unfinished<Y, X> {}

  @Test
  void aGenericSealedInterface_passesItsTypeArgumentsToTheClassTheTagNames() {
    ValueMapper mapper = ValueMapper.defaults().with(ValueCodec.sealed(Result.class, "status"));
    Object js = stored(List.of(new Ok<>(new Circle(1)), new Failed<>("no")), mapper);

    List<Result<Circle>> back = mapper.read(js, new TypeRef<List<Result<Circle>>>() {});
    assertThat(back).containsExactly(new Ok<>(new Circle(1)), new Failed<>("no"));
    assertThat(((Ok<Circle>) back.get(0)).value()).isInstanceOf(Circle.class);
  }

  @Test
  void typeArguments_passThroughASealedLevel_toTheClassTheTagNames() {
    ValueMapper mapper = ValueMapper.defaults().with(ValueCodec.sealed(Result.class, "status"));
    Partial<Circle, Square> partial = new Partial<>(List.of(new Circle(1)), new Square(2));
    Object js = stored(List.of(partial), mapper);

    Result<Circle> back = mapper.read(js, new TypeRef<List<Result<Circle>>>() {}).get(0);
    assertThat(((Partial<?, ?>) back).done()).isEqualTo(List.of(new Circle(1)));
    // Result says nothing of Y, which reads as its bound; Unfinished's first argument is Y.
    assertThat(((Partial<?, ?>) back).note()).isEqualTo(Map.of("side", 2.0));
    assertThat(mapper.read(js, new TypeRef<List<Unfinished<Square, Circle>>>() {}))
        .containsExactly(partial);
  }

  @Test
  void aSharedTaggedBean_staysShared_andMayContainItself() {
    Labelled group = new Labelled();
    group.setLabel("loop");
    List<Shape> parts = new ArrayList<>();
    group.setParts(parts);
    Map<String, Object> js = new LinkedHashMap<>();
    js.put("type", "Labelled");
    js.put("label", "loop");
    List<Object> jsParts = new ArrayList<>();
    js.put("parts", jsParts);
    jsParts.add(js); // the bean holds itself, as a JS object may
    jsParts.add(js);

    Labelled back = (Labelled) SEALED.read(stored(js, SEALED), Shape.class);
    assertThat(back.getParts()).hasSize(2);
    assertThat(back.getParts().get(0)).isSameAs(back);
    assertThat(back.getParts().get(1)).isSameAs(back);
  }

  interface Named {}

  record Alias(String type) implements Named {}

  enum Colour implements Named { RED }

  sealed interface Twin permits First.Same, Second.Same {}

  sealed interface Partly permits Listed, Elsewhere {}

  record Listed(String name) implements Partly {}

  non-sealed interface Elsewhere extends Partly {}

  static final class First {
    record Same(int n) implements Twin {}
  }

  static final class Second {
    record Same(String s) implements Twin {}
  }

  sealed interface Slot permits Free, Taken {}

  record Free() implements Slot {}

  record Taken(String by) implements Slot {}

  @Test
  void aRecordWithoutComponents_isACaseWithoutData_itsTagAlone() {
    ValueMapper mapper = ValueMapper.defaults().with(ValueCodec.sealed(Slot.class, "state"));
    List<Slot> slots = List.of(new Free(), new Taken("ann"));
    Object js = stored(slots, mapper);

    assertThat(js).isEqualTo(List.of(Map.of("state", "Free"),
        Map.of("state", "Taken", "by", "ann")));
    assertThat(mapper.read(js, new TypeRef<List<Slot>>() {})).isEqualTo(slots);
  }

  @Test
  void codecsThatCouldNotReadBackWhatTheyWrite_areRefusedWhenMade() {
    assertThatThrownBy(() -> ValueCodec.sealed(Animal.class, "kind"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(Animal.class.getName() + " is not sealed: name its classes with"
            + " ValueCodec.tagged");
    assertThatThrownBy(() -> ValueCodec.tagged(Named.class, "type", Map.of("a", Alias.class)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(Alias.class.getName() + " has a property named \"type\" already, which the"
            + " tag would hide: choose another tag property");
    assertThatThrownBy(() -> ValueCodec.tagged(Named.class, "kind", Map.of("c", Colour.class)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(Colour.class.getName() + " is neither a record nor a JavaBean but an enum,"
            + " which has no object to add a tag to: a case without data is a record without"
            + " components (record Colour() implements Named {}), written as {kind: \"c\"}");
    assertThatThrownBy(() -> ValueCodec.tagged(Named.class, "kind",
        Map.of("a", Alias.class, "b", Alias.class)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("is tagged twice");
    assertThatThrownBy(() -> ValueCodec.tagged(Named.class, "", Map.of("a", Alias.class)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("the tag property's name is empty");
    assertThatThrownBy(() -> ValueCodec.sealed(Twin.class, "type"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("have the same simple name");
    assertThatThrownBy(() -> ValueCodec.sealed(Partly.class, "type"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith(Elsewhere.class.getName() + " is non-sealed");
    @SuppressWarnings({"unchecked", "rawtypes"})
    Map<String, Class<? extends Named>> notNamed = (Map) Map.of("d", Dog.class);
    assertThatThrownBy(() -> ValueCodec.tagged(Named.class, "kind", notNamed))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(Dog.class.getName() + " is not a " + Named.class.getName());
  }
}
