package dev.kvasir.value;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kvasir.base.Hex;
import dev.kvasir.base.KvDecodeException;
import dev.kvasir.base.KvTypeException;
import java.io.File;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Values nested deeper than a thread's stack holds (docs/values.md §8): Deno 2.9.6 writes
 * arrays 3 597 levels deep and sets 4 980, and every one must read and write on any thread.
 */
class DeepValueTest {
  private static final Map<String, UnaryOperator<Object>> CONTAINERS = Map.of(
      "array", inner -> new ArrayList<>(List.of(inner)),
      "object", inner -> new LinkedHashMap<>(Map.of("a", inner)),
      "map", inner -> new JsMap().put(1.0, inner),
      "set", inner -> new JsSet().add(inner),
      "error cause", inner -> JsError.withCause(JsError.Kind.ERROR, "m", "s", inner));

  private static Object nested(UnaryOperator<Object> container, int depth) {
    Object value = 7.0;
    for (int i = 0; i < depth; i++) {
      value = container.apply(value);
    }
    return value;
  }

  @Test
  @Timeout(60)
  void deepValuesOfEveryContainer_roundTrip_onASmallStackAndOnThisThread() throws Exception {
    for (int depth : new int[] {V8Tags.INLINE_DEPTH + 1, 5_000}) {
      for (Map.Entry<String, UnaryOperator<Object>> kind : CONTAINERS.entrySet()) {
        Object value = nested(kind.getValue(), depth);
        assertThat(JsValues.deepEquals(V8.deserialize(V8.serialize(value)), value))
            .as("%s %d deep", kind.getKey(), depth).isTrue();
        Object[] back = new Object[1];
        Throwable[] thrown = new Throwable[1];
        Thread small = new Thread(null, () -> {
          try {
            back[0] = V8.deserialize(V8.serialize(value));
          } catch (Throwable t) {
            thrown[0] = t;
          }
        }, "small-stack", 128 * 1024);
        small.start();
        small.join();
        assertThat(thrown[0]).as("%s %d deep on a 128 KiB stack", kind.getKey(), depth).isNull();
        assertThat(JsValues.deepEquals(back[0], value)).isTrue();
      }
    }
  }

  @Test
  @Timeout(60)
  void theReaderAndTheWriter_agreeOnTheDeepestValue() {
    Object deepest = nested(CONTAINERS.get("array"), V8Tags.MAX_DEPTH);
    byte[] bytes = V8.serialize(deepest);
    assertThat(JsValues.deepEquals(V8.deserialize(bytes), deepest)).isTrue();

    assertThatThrownBy(() -> V8.serialize(List.of(deepest)))
        .isInstanceOf(KvTypeException.class)
        .hasMessageContaining("nested deeper than " + V8Tags.MAX_DEPTH + " levels");
    byte[] deeper = Hex.decode("ff0f" + "4101".repeat(V8Tags.MAX_DEPTH + 1) + "4902"
        + "240001".repeat(V8Tags.MAX_DEPTH + 1));
    assertThatThrownBy(() -> V8.deserialize(deeper))
        .isInstanceOf(KvDecodeException.class)
        .hasMessageContaining("nested deeper than " + V8Tags.MAX_DEPTH + " levels");
  }

  @Test
  @Timeout(60)
  void noValueOfTheSizeDenoAllows_isRefusedForItsDepth() {
    // The thinnest nesting: a Set in a Set, 3 bytes a level ('\'' … ',' 01), in 65 536 bytes.
    int depth = (65_536 - 2 - 2) / 3;
    byte[] bytes = Hex.decode("ff0f" + "27".repeat(depth) + "490e" + "2c01".repeat(depth));
    assertThat(bytes.length).isLessThanOrEqualTo(65_536);
    Object value = V8.deserialize(bytes);
    assertThat(JsValues.deepEquals(value, nested(CONTAINERS.get("set"), depth))).isTrue();
    assertThat(V8.serialize(value)).isEqualTo(Hex.decode(
        "ff10" + "27".repeat(depth) + "490e" + "2c01".repeat(depth)));
  }

  @Test
  void theCallersInterrupt_isKept() {
    Object value = nested(CONTAINERS.get("object"), 2_000);
    Thread.currentThread().interrupt();
    try {
      assertThat(JsValues.deepEquals(V8.deserialize(V8.serialize(value)), value)).isTrue();
      assertThat(Thread.currentThread().isInterrupted()).isTrue();
    } finally {
      Thread.interrupted();
    }
  }

  @Test
  void anAdapter_isAskedAtAnyDepth_andItsRefusalNamesAShortPath() {
    Object value = nested(CONTAINERS.get("array"), 3_000);
    ((List<Object>) lastList(value)).set(0, new File("x"));
    JsAdapter paths = v -> v instanceof File f ? f.getPath() : v;
    Object back = V8.deserialize(V8.serialize(value, paths));
    assertThat(((List<?>) lastList(back)).get(0)).isEqualTo("x");

    assertThatThrownBy(() -> V8.serialize(value))
        .isInstanceOf(KvTypeException.class)
        .hasMessageStartingWith("value[0][0][0][0][0][0][0][0]…(2984 more)…[0][0][0][0][0][0]")
        .hasMessageContaining("java.io.File");
  }

  @Test
  void anAdapterAskedOnTheLargeStack_seesTheCallersContextClassLoader() {
    Object value = nested(CONTAINERS.get("array"), 3_000);
    ((List<Object>) lastList(value)).set(0, new File("x"));
    ClassLoader callers = new ClassLoader(getClass().getClassLoader()) {};
    ClassLoader[] seen = new ClassLoader[1];
    JsAdapter recording = v -> {
      seen[0] = Thread.currentThread().getContextClassLoader();
      return v instanceof File f ? f.getPath() : v;
    };
    V8.serialize(value, recording); // a kept thread, made under this thread's own loader
    Thread self = Thread.currentThread();
    ClassLoader own = self.getContextClassLoader();
    self.setContextClassLoader(callers);
    try {
      V8.serialize(value, recording);
    } finally {
      self.setContextClassLoader(own);
    }
    assertThat(seen[0]).isSameAs(callers);
  }

  @Test
  @Timeout(60)
  void adaptersThatReadDeepValuesThemselves_doNotWaitForTheThreadsTheyHold() throws Exception {
    // As many deep writes as there are kept threads, each of whose adapters, once every thread
    // is taken, reads a deep value of its own: had that waited for a free thread, none would.
    int threads = Math.max(2, Runtime.getRuntime().availableProcessors());
    CountDownLatch allTaken = new CountDownLatch(threads);
    byte[] inner = V8.serialize(nested(CONTAINERS.get("set"), 3_000));
    JsAdapter nesting = v -> {
      if (!(v instanceof File)) {
        return v;
      }
      allTaken.countDown();
      try {
        allTaken.await();
      } catch (InterruptedException e) {
        throw new IllegalStateException(e);
      }
      return V8.deserialize(inner);
    };
    List<Thread> callers = new ArrayList<>();
    Object[] results = new Object[threads];
    for (int i = 0; i < threads; i++) {
      int index = i;
      Object value = nested(CONTAINERS.get("array"), 3_000);
      ((List<Object>) lastList(value)).set(0, new File("x"));
      Thread caller = new Thread(() -> results[index] = V8.serialize(value, nesting));
      caller.start();
      callers.add(caller);
    }
    for (Thread caller : callers) {
      caller.join();
    }
    for (Object bytes : results) {
      Object back = V8.deserialize((byte[]) bytes);
      assertThat(JsValues.deepEquals(((List<?>) lastList(back)).get(0),
          nested(CONTAINERS.get("set"), 3_000))).isTrue();
    }
  }

  @Test
  @Timeout(120)
  void manyCallersAtOnce_shareAFewLargeStacks() throws Exception {
    // Each kept thread holds the stack its deepest value touched: their number bounds memory.
    byte[] deepest = V8.serialize(nested(CONTAINERS.get("set"), 20_000));
    List<Thread> callers = new ArrayList<>();
    Throwable[] failure = new Throwable[1];
    for (int i = 0; i < 16; i++) {
      Thread caller = new Thread(() -> {
        try {
          for (int j = 0; j < 5; j++) {
            V8.deserialize(deepest);
          }
        } catch (Throwable t) {
          failure[0] = t;
        }
      });
      caller.start();
      callers.add(caller);
    }
    for (Thread caller : callers) {
      caller.join();
    }
    assertThat(failure[0]).isNull();
    long kept = Thread.getAllStackTraces().keySet().stream()
        .filter(t -> t.getName().startsWith("kvasir-deep-value-")).count();
    assertThat(kept).isBetween(1L, (long) Math.max(2, Runtime.getRuntime().availableProcessors()));
  }

  @SuppressWarnings("unchecked")
  private static Object lastList(Object value) {
    Object list = value;
    while (((List<Object>) list).get(0) instanceof List<?> inner) {
      list = inner;
    }
    return list;
  }
}
