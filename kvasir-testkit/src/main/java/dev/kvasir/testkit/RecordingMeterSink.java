package dev.kvasir.testkit;

import dev.kvasir.base.MeterSink;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.DoubleConsumer;
import java.util.function.DoubleSupplier;
import java.util.function.LongConsumer;

/**
 * A {@link MeterSink} that keeps what it is told in memory, for tests of what an engine
 * measures without a metrics library. Meters are found by name and tags, written {@code
 * name{k=v,…}} in the order the engine gave the tags.
 */
public final class RecordingMeterSink implements MeterSink {
  private final Map<String, LongAdder> counters = new ConcurrentHashMap<>();
  private final Map<String, DoubleSupplier> readings = new ConcurrentHashMap<>();
  private final Map<String, List<Double>> samples = new ConcurrentHashMap<>();

  @Override
  public LongConsumer counter(String name, String description, String... tags) {
    LongAdder count = counters.computeIfAbsent(id(name, tags), k -> new LongAdder());
    return count::add;
  }

  @Override
  public void functionCounter(String name, String description, DoubleSupplier value,
      String... tags) {
    readings.put(id(name, tags), value);
  }

  @Override
  public DoubleConsumer summary(String name, String description, String... tags) {
    List<Double> values = samples.computeIfAbsent(id(name, tags),
        k -> new CopyOnWriteArrayList<>());
    return values::add;
  }

  @Override
  public LongConsumer timer(String name, String description, String... tags) {
    List<Double> values = samples.computeIfAbsent(id(name, tags),
        k -> new CopyOnWriteArrayList<>());
    return nanos -> values.add((double) nanos);
  }

  @Override
  public void gauge(String name, String description, DoubleSupplier value, String... tags) {
    readings.put(id(name, tags), value);
  }

  /** A counter's count so far, 0 if never bound. */
  public long count(String meter) {
    LongAdder count = counters.get(meter);
    return count == null ? 0 : count.sum();
  }

  /** A gauge's or function counter's reading now. */
  public double read(String meter) {
    DoubleSupplier value = readings.get(meter);
    if (value == null) {
      throw new AssertionError("no gauge " + meter + " among " + readings.keySet());
    }
    return value.getAsDouble();
  }

  /** The values a summary or timer recorded. */
  public List<Double> samples(String meter) {
    return List.copyOf(samples.getOrDefault(meter, List.of()));
  }

  /** Waits up to 10 s for {@code reading} to reach {@code wanted}; the last reading. */
  public static double await(DoubleSupplier reading, double wanted) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    double now = reading.getAsDouble();
    while (now < wanted && System.nanoTime() < deadline) {
      Thread.sleep(20);
      now = reading.getAsDouble();
    }
    return now;
  }

  private static String id(String name, String... tags) {
    if (tags.length == 0) {
      return name;
    }
    StringBuilder b = new StringBuilder(name).append('{');
    for (int i = 0; i < tags.length; i += 2) {
      b.append(i == 0 ? "" : ",").append(tags[i]).append('=').append(tags[i + 1]);
    }
    return b.append('}').toString();
  }

  @Override
  public String toString() {
    return "counters " + counters.keySet() + ", readings " + readings.keySet() + ", samples "
        + samples.keySet();
  }
}
