package dev.kvasir.bench;

import dev.kvasir.mapping.ValueMapper;
import dev.kvasir.value.V8;
import java.util.List;
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
 * The cost of mapping a value as read to Java types and back (docs/mapping.md): a record with a
 * nested record, a list and a map, as {@code entry.value(Person.class)} reads it once decoded,
 * and as {@code kv.set} writes it.
 *
 * <pre>
 * ./mvnw -B -pl kvasir-bench -am package -DskipTests
 * java -jar kvasir-bench/target/benchmarks.jar MappingBenchmark
 * </pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class MappingBenchmark {
  /** A record as applications write them. */
  public record Address(String city, int zip) {}

  /** A record as applications write them, with the kinds of parts a mapping meets. */
  public record Person(String name, int age, List<String> tags, Address address,
      Map<String, Integer> scores) {}

  private final ValueMapper mapper = ValueMapper.defaults();
  private Person person;
  private Object asRead;

  @Setup
  public void setUp() {
    person = new Person("Ada", 36, List.of("a", "b"), new Address("London", 1),
        Map.of("math", 1, "poetry", 2));
    asRead = V8.deserialize(V8.serialize(person));
  }

  @Benchmark
  public Person readRecord() {
    return mapper.read(asRead, Person.class);
  }

  @Benchmark
  public byte[] writeRecord() {
    return V8.serialize(person);
  }
}
