package dev.kvasir.bench;

import dev.kvasir.value.V8;
import java.lang.management.ManagementFactory;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Decoding speed and allocation of two builds of kvasir-core in one JVM, in alternating slices,
 * so that a noisy machine slows both alike (docs/values.md §7 compares shared shapes this way).
 * Each build is a jar or class directory holding {@code dev.kvasir.value.V8}, loaded by a class
 * loader of its own. The values are lists of 1 000 objects: all with the same names ({@code
 * same}), two sets of names taking turns ({@code alternating}), the same first name and then
 * one of their own ({@code allDifferent}), or only names of their own, as a map keyed by user
 * id ({@code dictionary}); and 1 000 values of one object each, the harness's W1 values ({@code
 * entries}: {@code {i, name, tags: ["a", "b"], active}}), as a list of entries decodes them.
 *
 * <pre>
 * java -cp kvasir-bench/target/benchmarks.jar dev.kvasir.bench.DecodeComparison BEFORE AFTER
 * </pre>
 */
public final class DecodeComparison {
  private static final int OBJECTS = 1_000;
  private static final int DECODES_PER_SLICE = 200;
  private static final int WARM_ROUNDS = 20;
  private static final int ROUNDS = 60;

  private DecodeComparison() {}

  public static void main(String[] args) throws Exception {
    if (args.length != 2) {
      System.err.println("usage: DecodeComparison BEFORE AFTER (jars or class directories)");
      System.exit(2);
    }
    Method[] decoders = {decoder(args[0]), decoder(args[1])};
    var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    for (String kind : List.of("same", "alternating", "allDifferent", "dictionary", "entries")) {
      List<byte[]> values = kind.equals("entries") ? entries()
          : List.of(V8.serialize(objects(kind)));
      long[] nanos = new long[2];
      long[] bytes = new long[2];
      for (int round = 0; round < WARM_ROUNDS + ROUNDS; round++) {
        for (int build = 0; build < 2; build++) {
          long allocated = threads.getCurrentThreadAllocatedBytes();
          long start = System.nanoTime();
          for (int i = 0; i < DECODES_PER_SLICE; i++) {
            for (byte[] value : values) {
              decoders[build].invoke(null, (Object) value);
            }
          }
          if (round >= WARM_ROUNDS) {
            nanos[build] += System.nanoTime() - start;
            bytes[build] += threads.getCurrentThreadAllocatedBytes() - allocated;
          }
        }
      }
      double objects = (double) ROUNDS * DECODES_PER_SLICE * OBJECTS;
      System.out.printf("%-12s before %6.1f ns %6.1f bytes, after %6.1f ns %6.1f bytes per object"
          + " (time %.2fx)%n", kind, nanos[0] / objects, bytes[0] / objects,
          nanos[1] / objects, bytes[1] / objects, (double) nanos[1] / nanos[0]);
    }
  }

  /** {@code V8.deserialize(byte[])} of the build at {@code path}, isolated from this one's. */
  private static Method decoder(String path) throws Exception {
    Path build = Path.of(path);
    if (!Files.exists(build)) {
      throw new IllegalArgumentException("no such jar or directory: " + path);
    }
    URL url = build.toUri().toURL();
    @SuppressWarnings("resource") // lives as long as the comparison
    ClassLoader loader = new URLClassLoader(new URL[] {url}, ClassLoader.getPlatformClassLoader());
    return loader.loadClass("dev.kvasir.value.V8").getMethod("deserialize", byte[].class);
  }

  /** W1's values of the peer harness, each encoded alone. */
  private static List<byte[]> entries() {
    List<byte[]> values = new ArrayList<>(OBJECTS);
    for (int i = 0; i < OBJECTS; i++) {
      values.add(V8.serialize(Peer.value(i)));
    }
    return values;
  }

  private static List<Map<String, Object>> objects(String kind) {
    List<Map<String, Object>> list = new ArrayList<>(OBJECTS);
    for (int i = 0; i < OBJECTS; i++) {
      Map<String, Object> object = new LinkedHashMap<>();
      switch (kind) {
        case "same" -> object.put("id", (double) i);
        case "alternating" -> {
          object.put("id", (double) i);
          object.put(i % 2 == 0 ? "email" : "phone", "x");
        }
        case "allDifferent" -> {
          object.put("id", (double) i);
          object.put("field" + i, "x");
        }
        default -> object.put("user" + i, (double) i);
      }
      object.put(kind.equals("dictionary") ? "user" + (OBJECTS + i) : "n", 1.0);
      list.add(object);
    }
    return list;
  }
}
