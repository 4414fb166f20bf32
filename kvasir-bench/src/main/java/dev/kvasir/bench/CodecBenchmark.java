package dev.kvasir.bench;

import dev.kvasir.KvKey;
import dev.kvasir.value.V8;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Key codec and V8 codec cost per operation, on the key and value of the peer workload W1
 * ({@code docs/peer-protocol.md}): key {@code ["users", i]}, value {@code {i, name: "user"+i,
 * tags: ["a","b"], active: true}}.
 *
 * <pre>
 * ./mvnw -B -pl kvasir-bench -am package -DskipTests
 * java -jar kvasir-bench/target/benchmarks.jar CodecBenchmark
 * </pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class CodecBenchmark {
  private int i = 12345;
  private KvKey key;
  private byte[] encodedKey;
  private Map<String, Object> value;
  private byte[] serializedValue;

  @Setup
  public void setUp() {
    key = KvKey.of("users", i);
    encodedKey = key.encode();
    value = Peer.value(i);
    serializedValue = V8.serialize(value);
  }

  @Benchmark
  public byte[] keyEncode() {
    return KvKey.of("users", i).encode();
  }

  @Benchmark
  public KvKey keyDecode() {
    return KvKey.decode(encodedKey);
  }

  @Benchmark
  public byte[] v8Serialize() {
    return V8.serialize(value);
  }

  @Benchmark
  public Object v8Deserialize() {
    return V8.deserialize(serializedValue);
  }
}
