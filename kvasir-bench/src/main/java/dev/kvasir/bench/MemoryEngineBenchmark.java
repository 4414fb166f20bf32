package dev.kvasir.bench;

import dev.kvasir.Kv;
import dev.kvasir.KvEntry;
import dev.kvasir.KvKey;
import dev.kvasir.ListOptions;
import dev.kvasir.ListSelector;
import dev.kvasir.memory.MemoryEngine;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The whole {@link Kv} path (encode, limits, engine, decode) over the memory engine, with the
 * peer workloads' data shape ({@code docs/peer-protocol.md}): 100 000 keys {@code ["users",
 * i]} with small object values. {@code get} includes decoding the value; {@code list100}
 * iterates 100 entries and decodes each.
 *
 * <pre>
 * ./mvnw -B -pl kvasir-bench -am package -DskipTests
 * java -jar kvasir-bench/target/benchmarks.jar MemoryEngineBenchmark
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class MemoryEngineBenchmark {
  private static final int KEYS = 100_000;

  private Kv kv;

  @Setup(Level.Trial)
  public void fill() {
    kv = Kv.of(MemoryEngine.open());
    for (int start = 0; start < KEYS; start += 500) {
      var op = kv.atomic();
      for (int i = start; i < start + 500; i++) {
        op.set(KvKey.of("users", i), value(i));
      }
      op.commit();
    }
  }

  @TearDown(Level.Trial)
  public void close() {
    kv.close();
  }

  private static Map<String, Object> value(int i) {
    return Map.of("i", i, "name", "user" + i, "tags", List.of("a", "b"), "active", true);
  }

  @Benchmark
  public Object get() {
    int i = ThreadLocalRandom.current().nextInt(KEYS);
    return kv.get(KvKey.of("users", i)).value();
  }

  @Benchmark
  public Object set() {
    int i = ThreadLocalRandom.current().nextInt(KEYS);
    return kv.set(KvKey.of("users", i), value(i));
  }

  @Benchmark
  public void list100(Blackhole bh) {
    int from = ThreadLocalRandom.current().nextInt(KEYS - 100);
    for (KvEntry e : kv.list(ListSelector.prefix(KvKey.of("users")).withStart(KvKey.of("users", from)),
        ListOptions.defaults().limit(100))) {
      bh.consume(e.value());
    }
  }
}
