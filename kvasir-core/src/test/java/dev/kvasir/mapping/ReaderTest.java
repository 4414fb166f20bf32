package dev.kvasir.mapping;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kvasir.base.KvTypeException;
import dev.kvasir.value.JsMap;
import dev.kvasir.value.JsSet;
import dev.kvasir.value.KvU64;
import dev.kvasir.value.V8;
import java.math.BigInteger;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.LinkedList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Values as read, read as Java types (docs/mapping.md). */
class ReaderTest {
  private static final ValueMapper MAPPER = ValueMapper.defaults();

  enum Role { ADMIN, USER }

  record Address(String city, int zip) {}

  record Person(String name, long age, Role role, Address address, List<Address> previous,
      Map<String, Integer> scores, Set<String> tags, Instant born, byte[] avatar,
      BigInteger big, Double optional) {}

  /** A value as it comes back from storage. */
  private static Object stored(Object value) {
    return V8.deserialize(V8.serialize(value));
  }

  @Test
  void convert_objectGraph_toNestedRecordsAndCollections() {
    Instant born = Instant.ofEpochMilli(86_400_000L);
    Object value = stored(Map.ofEntries(
        Map.entry("name", "Ada"), Map.entry("age", 36), Map.entry("role", "ADMIN"),
        Map.entry("address", Map.of("city", "London", "zip", 1)),
        Map.entry("previous", List.of(Map.of("city", "Paris", "zip", 2))),
        Map.entry("scores", Map.of("math", 10)), Map.entry("tags", new JsSet().add("x")),
        Map.entry("born", born), Map.entry("avatar", new byte[] {1}),
        Map.entry("big", new BigInteger("123456789012345678901234567890"))));
    Person p = MAPPER.read(value, Person.class);
    assertThat(p.name()).isEqualTo("Ada");
    assertThat(p.age()).isEqualTo(36L);
    assertThat(p.role()).isEqualTo(Role.ADMIN);
    assertThat(p.address()).isEqualTo(new Address("London", 1));
    assertThat(p.previous()).containsExactly(new Address("Paris", 2));
    assertThat(p.scores()).containsEntry("math", 10);
    assertThat(p.tags()).containsExactly("x");
    assertThat(p.born()).isEqualTo(born);
    assertThat(p.avatar()).containsExactly(1);
    assertThat(p.big()).isEqualTo(new BigInteger("123456789012345678901234567890"));
    assertThat(p.optional()).isNull();
  }

  @Test
  void convert_numbers_onlyWhenExact() {
    assertThat(MAPPER.read(3.0, int.class)).isEqualTo(3);
    assertThat(MAPPER.read(KvU64.of(5), long.class)).isEqualTo(5L);
    assertThat(MAPPER.read(BigInteger.TWO, KvU64.class)).isEqualTo(KvU64.of(2));
    assertThatThrownBy(() -> MAPPER.read(3.5, int.class))
        .isInstanceOf(KvTypeException.class).hasMessage("value: cannot convert 3.5 (Double) to int");
    assertThatThrownBy(() -> MAPPER.read(1e10, int.class))
        .isInstanceOf(KvTypeException.class);
    assertThatThrownBy(() -> MAPPER.read(null, int.class))
        .isInstanceOf(KvTypeException.class);
    assertThatThrownBy(() -> MAPPER.read("7", int.class))
        .hasMessage("value: cannot convert \"7\" to int");
    assertThat(MAPPER.read(-0.0, int.class)).isEqualTo(0);
    assertThat(MAPPER.read(0x1p62, long.class)).isEqualTo(1L << 62);
    assertThat(MAPPER.read(-0x1p63, long.class)).isEqualTo(Long.MIN_VALUE);
    assertThatThrownBy(() -> MAPPER.read(0x1p63, long.class)) // one past Long.MAX_VALUE
        .isInstanceOf(KvTypeException.class);
    assertThatThrownBy(() -> MAPPER.read(Double.NaN, long.class))
        .isInstanceOf(KvTypeException.class);
    assertThatThrownBy(() -> MAPPER.read(Double.POSITIVE_INFINITY, int.class))
        .isInstanceOf(KvTypeException.class);
  }

  @Test
  void convert_nanAndTheInfinities_toDoubleAndFloat() {
    // A JS number may be NaN or infinite (0 / 0, 1 / 0), and so may a Java double; these were
    // refused as "cannot convert NaN (Double) to double".
    assertThat(MAPPER.read(Double.NaN, double.class)).isNaN();
    assertThat(MAPPER.read(Double.NEGATIVE_INFINITY, Double.class))
        .isEqualTo(Double.NEGATIVE_INFINITY);
    assertThat(MAPPER.read(Double.POSITIVE_INFINITY, float.class))
        .isEqualTo(Float.POSITIVE_INFINITY);
    assertThat(MAPPER.read(0.1, float.class)).isEqualTo(0.1f);
  }

  @Test
  void convert_mismatch_namesThePath() {
    Object value = stored(Map.of("name", "Ada", "age", 1, "address", Map.of("city", 5)));
    assertThatThrownBy(() -> MAPPER.read(value, Person.class))
        .isInstanceOf(KvTypeException.class)
        .hasMessageStartingWith("value.address.city: cannot convert 5.0");
  }

  @Test
  void convert_jsMapAndSet_toJavaCollections() {
    JsMap m = new JsMap().put(1.0, "one");
    assertThat(MAPPER.read(m, Map.class)).containsEntry(1.0, "one");
    assertThat(MAPPER.read(new JsSet().add("a"), Set.class)).containsExactly("a");
    assertThat(MAPPER.read(m, Object.class)).isSameAs(m);
  }

  record Node(int value, Node next, List<Node> more) {}

  @Test
  void recordsNestedThousandsDeep_readOnAnyThread() throws Exception {
    // A linked list of records: each level is a record, its component and the conversion of a
    // number; 3 000 levels overflowed the default stack with a bare StackOverflowError.
    Node list = null;
    for (int i = 0; i < 3_000; i++) {
      list = new Node(i, list, i % 2 == 0 ? List.of() : List.of(new Node(-i, null, List.of())));
    }
    Object value = stored(list);
    assertThat(MAPPER.read(value, Node.class)).isEqualTo(list);
    Object[] read = new Object[1];
    Throwable[] thrown = new Throwable[1];
    Thread small = new Thread(null, () -> {
      try {
        read[0] = MAPPER.read(value, Node.class);
      } catch (Throwable t) {
        thrown[0] = t;
      }
    }, "small-stack", 128 * 1024);
    small.start();
    small.join();
    assertThat(thrown[0]).isNull();
    assertThat(read[0]).isEqualTo(list);
  }

  @Test
  void aMismatchDeepInside_namesItsPath() {
    Object list = Map.of("value", "not a number");
    for (int i = 0; i < 1_000; i++) {
      list = Map.of("value", i, "next", list);
    }
    Object value = stored(list);
    assertThatThrownBy(() -> MAPPER.read(value, Node.class))
        .isInstanceOf(KvTypeException.class)
        .hasMessageStartingWith("value" + ".next".repeat(1_000) + ".value: cannot convert");
  }

  record Tree(String name, List<Tree> kids) {}

  /** A JavaBean that may refer to itself, as a JS object may. */
  public static final class Link {
    private String name;
    private Link next;

    public Link() {}

    public String getName() {
      return name;
    }

    public void setName(String name) {
      this.name = name;
    }

    public Link getNext() {
      return next;
    }

    public void setNext(Link next) {
      this.next = next;
    }
  }

  @Test
  @Timeout(value = 20, threadMode = Timeout.ThreadMode.SEPARATE_THREAD) // it ran for hours
  void anObjectReferredToTwice_isReadOnce_andStaysShared() {
    // 40 levels, each referring twice to the next: a few hundred bytes, 2^40 paths through it.
    Tree tree = new Tree("leaf", List.of());
    for (int i = 0; i < 40; i++) {
      tree = new Tree("level " + i, List.of(tree, tree));
    }
    byte[] bytes = V8.serialize(tree);
    assertThat(bytes.length).isLessThan(2_000);
    Tree read = MAPPER.read(V8.deserialize(bytes), Tree.class);
    assertThat(read.name()).isEqualTo("level 39");
    assertThat(read.kids().get(0)).isSameAs(read.kids().get(1));
  }

  @Test
  @Timeout(value = 20, threadMode = Timeout.ThreadMode.SEPARATE_THREAD) // it ran out of heap
  void aCycleThroughARecord_isRefusedNamingWhereItCloses() {
    List<Object> kids = new ArrayList<>();
    Map<String, Object> root = new LinkedHashMap<>();
    root.put("name", "root");
    root.put("kids", kids);
    kids.add(root); // as Deno stores {name: "root", kids: [<the object itself>]}
    Object value = stored(root);
    assertThatThrownBy(() -> MAPPER.read(value, Tree.class))
        .isInstanceOf(KvTypeException.class)
        .hasMessageStartingWith("value.kids[0]: the value contains itself here (a cycle), which "
            + Tree.class.getName() + " cannot hold");
  }

  @Test
  void aCycleThroughAJavaBean_isReadAsTheSameCycle() {
    Map<String, Object> link = new LinkedHashMap<>();
    link.put("name", "loop");
    link.put("next", link);
    Link read = MAPPER.read(stored(link), Link.class);
    assertThat(read.getName()).isEqualTo("loop");
    assertThat(read.getNext()).isSameAs(read);
  }

  record Page<T>(List<T> items, T first, Map<String, T> byName) {}

  record Envelope<A, B>(A head, List<B> rest, Page<B> page) {}

  @Test
  void aGenericRecord_readThroughATypeRef_readsItsPartsAsItsTypeArguments() {
    // Its parts read as the bound of T, Object: JS objects where Address was promised, and a
    // ClassCastException only where the caller used one.
    Map<String, Object> london = Map.of("city", "London", "zip", 1);
    Object page = stored(Map.of("items", List.of(london), "first", london,
        "byName", Map.of("l", london)));
    Page<Address> read = MAPPER.read(page, new TypeRef<Page<Address>>() {});
    Address expected = new Address("London", 1);
    assertThat(read.items()).containsExactly(expected);
    assertThat(read.first()).isEqualTo(expected);
    assertThat(read.byName()).containsEntry("l", expected);

    Object envelope = stored(Map.of("head", "h", "rest", List.of(london), "page", page));
    Envelope<String, Address> nested = MAPPER.read(envelope,
        new TypeRef<Envelope<String, Address>>() {});
    assertThat(nested.rest()).containsExactly(expected);
    assertThat(nested.page().items()).containsExactly(expected);
  }

  /** A generic bean, and subclasses that give its type variable in their declarations. */
  public static class Holder<T> {
    private T held;

    public T getHeld() {
      return held;
    }

    public void setHeld(T held) {
      this.held = held;
    }
  }

  public static final class AddressHolder extends Holder<Address> {}

  public static class Listed<X> extends Holder<List<X>> {}

  public static final class AddressesListed extends Listed<Address> {}

  @Test
  void aBeanWhoseSuperclassGivesItsTypeArguments_readsTheInheritedPropertiesAsThem() {
    // The inherited setHeld(T) read as Object: a JS object where an Address was promised.
    Map<String, Object> london = Map.of("city", "London", "zip", 1);
    Address expected = new Address("London", 1);
    AddressHolder one = MAPPER.read(stored(Map.of("held", london)), AddressHolder.class);
    assertThat(one.getHeld()).isEqualTo(expected);

    Object many = stored(Map.of("held", List.of(london)));
    assertThat(MAPPER.read(many, AddressesListed.class).getHeld()).containsExactly(expected);
    Listed<Address> viaRef = MAPPER.read(many, new TypeRef<Listed<Address>>() {});
    assertThat(viaRef.getHeld()).containsExactly(expected);
  }

  record Containers(EnumSet<Role> roles, EnumMap<Role, Integer> byRole,
      TreeMap<String, Address> sorted, SortedSet<String> names, LinkedList<Integer> linked,
      Deque<String> deque, ConcurrentMap<String, Long> counts, Iterable<Address> seen) {}

  @Test
  void collectionsAndMapsOfTheirOwnTypes_readBackAsThem() {
    // Written, but read as ArrayList, LinkedHashSet or LinkedHashMap, which the canonical
    // constructor refused: "argument type mismatch"; a Deque was not written at all.
    Address london = new Address("London", 1);
    Containers written = new Containers(EnumSet.of(Role.USER),
        new EnumMap<>(Map.of(Role.ADMIN, 3)), new TreeMap<>(Map.of("b", london, "a", london)),
        new TreeSet<>(Set.of("y", "x")), new LinkedList<>(List.of(1, 2)),
        new ArrayDeque<>(List.of("first", "second")), new ConcurrentHashMap<>(Map.of("c", 7L)),
        List.of(london));
    Containers read = MAPPER.read(V8.deserialize(V8.serialize(written, MAPPER)),
        Containers.class);
    assertThat(read.roles()).isInstanceOf(EnumSet.class).containsExactly(Role.USER);
    assertThat(read.byRole()).isInstanceOf(EnumMap.class).containsEntry(Role.ADMIN, 3);
    assertThat(read.sorted()).containsOnlyKeys("a", "b").containsEntry("a", london);
    assertThat(read.names()).isInstanceOf(TreeSet.class).containsExactly("x", "y");
    assertThat(read.linked()).containsExactly(1, 2);
    assertThat(read.deque()).containsExactly("first", "second");
    assertThat(read.counts()).isInstanceOf(ConcurrentHashMap.class).containsEntry("c", 7L);
    assertThat(read.seen()).containsExactly(london); // elements as their type, not JS objects

    Object withNull = stored(Map.of("names", Arrays.asList("x", null)));
    assertThatThrownBy(() -> MAPPER.read(withNull, Containers.class))
        .isInstanceOf(KvTypeException.class)
        .hasMessageStartingWith("value.names[1]: java.util.SortedSet cannot hold it");
    assertThatThrownBy(() -> MAPPER.read(stored(List.of("USER")), EnumSet.class))
        .isInstanceOf(KvTypeException.class)
        .hasMessageContaining("an EnumSet is read only with its enum as its type argument");
  }

  @Test
  void aNumberTypeWithGetterSetterPairs_isRefusedWhenWritten_notWrittenAsAnObject() {
    // AtomicLong has getPlain/setPlain and getOpaque/setOpaque: it was written as the bean
    // {opaque: 3, plain: 3}, which reading as AtomicLong then refused.
    assertThatThrownBy(() -> V8.serialize(Map.of("hits", new AtomicLong(3)), MAPPER))
        .isInstanceOf(KvTypeException.class)
        .hasMessageStartingWith("value.hits: java.util.concurrent.atomic.AtomicLong is not"
            + " serializable");
  }

  record Measures(float ratio, double total) {}

  @Test
  void aFiniteNumberBeyondTheRangeOfAFloatOrDouble_isRefused_notReadAsAnInfinity() {
    assertThatThrownBy(() -> MAPPER.read(stored(Map.of("ratio", 1e300, "total", 1)),
        Measures.class)).isInstanceOf(KvTypeException.class)
        .hasMessageStartingWith("value.ratio: cannot convert");
    assertThatThrownBy(() -> MAPPER.read(stored(Map.of("ratio", 1,
        "total", BigInteger.TEN.pow(400))), Measures.class))
        .isInstanceOf(KvTypeException.class).hasMessageStartingWith("value.total: cannot convert");
    Measures infinite = MAPPER.read(stored(Map.of("ratio", Double.NEGATIVE_INFINITY,
        "total", Double.NaN)), Measures.class);
    assertThat(infinite.ratio()).isEqualTo(Float.NEGATIVE_INFINITY);
    assertThat(infinite.total()).isNaN();
  }

  sealed interface Shape permits Circle {}

  record Circle(double radius) implements Shape {}

  record Drawing(Shape shape) {}

  @Test
  void anObjectReadAsAnInterface_isRefusedSayingThatACodecReadsIt() {
    Object written = V8.deserialize(V8.serialize(new Drawing(new Circle(1)), MAPPER));
    assertThatThrownBy(() -> MAPPER.read(written, Drawing.class))
        .isInstanceOf(KvTypeException.class)
        .hasMessageStartingWith("value.shape: cannot convert JsObject to " + Shape.class.getName()
            + ", an interface or abstract class, which an object is read as only through a"
            + " ValueCodec, such as ValueCodec.sealed or .tagged, which tag each object with its"
            + " class (docs/mapping.md §5)");
  }
}
