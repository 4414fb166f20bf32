package dev.kvasir.micrometer;

import dev.kvasir.base.MeterSink;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.DoubleConsumer;
import java.util.function.DoubleSupplier;
import java.util.function.LongConsumer;

/**
 * Kvasir's meters as Micrometer's. Gauges and function counters are registered with the
 * registry as their weakly held object and the reading in their function, which the meter holds
 * strongly: a reading that only the meter refers to must not be collected.
 */
final class MicrometerSink implements MeterSink {
  private final MeterRegistry registry;
  private final Tags common;
  /** What this sink registered, removed when the database closes. */
  private final List<Meter> meters = new CopyOnWriteArrayList<>();

  MicrometerSink(MeterRegistry registry, Tags common) {
    this.registry = registry;
    this.common = common;
  }

  @Override
  public LongConsumer counter(String name, String description, String... tags) {
    Counter c = kept(Counter.builder(name).description(description).tags(common).tags(tags)
        .register(registry));
    return n -> c.increment(n);
  }

  @Override
  public void functionCounter(String name, String description, DoubleSupplier value,
      String... tags) {
    kept(FunctionCounter.builder(name, registry, r -> value.getAsDouble())
        .description(description).tags(common).tags(tags).register(registry));
  }

  @Override
  public DoubleConsumer summary(String name, String description, String... tags) {
    DistributionSummary s = kept(DistributionSummary.builder(name).description(description)
        .tags(common).tags(tags).publishPercentileHistogram().minimumExpectedValue(1.0)
        .maximumExpectedValue(1024.0).register(registry));
    return s::record;
  }

  @Override
  public LongConsumer timer(String name, String description, String... tags) {
    Timer t = kept(Timer.builder(name).description(description).tags(common).tags(tags)
        .publishPercentileHistogram().maximumExpectedValue(Duration.ofSeconds(30))
        .register(registry));
    return nanos -> t.record(nanos, TimeUnit.NANOSECONDS);
  }

  @Override
  public void gauge(String name, String description, DoubleSupplier value, String... tags) {
    kept(Gauge.builder(name, registry, r -> value.getAsDouble()).description(description)
        .tags(common).tags(tags).register(registry));
  }

  /** Removes this sink's meters from the registry: they would read the closed database. */
  @Override
  public void databaseClosed() {
    meters.forEach(registry::remove);
    meters.clear();
  }

  private <M extends Meter> M kept(M meter) {
    meters.add(meter);
    return meter;
  }
}
