package dev.kvasir.server;

import dev.kvasir.micrometer.KvasirMetrics;
import dev.kvasir.spi.KvEngine;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmInfoMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.FileDescriptorMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import java.util.ArrayList;
import java.util.List;

/**
 * The meters beside the requests' (docs/operations.md §5): open connections and watch
 * streams, the engine's (group commits, sweeps, queue, storage), Kvasir's version, and the
 * JVM's version, memory, garbage collection, threads, classes, CPU, uptime and open files.
 */
final class ServerMetrics {
  private ServerMetrics() {}

  /** Binds them to {@code registry}; closing the result unbinds what needs it. */
  static AutoCloseable bind(MeterRegistry registry, ConnectHandler handler,
      OpenConnections connections, KvEngine engine) {
    List<Meter> own = new ArrayList<>();
    own.add(Gauge.builder("kvasir.server.watches.open", handler, ConnectHandler::openWatches)
        .description("Watch streams open now").register(registry));
    own.add(Gauge.builder("kvasir.server.connections.open", connections, OpenConnections::open)
        .description("Client connections open now").register(registry));
    own.add(Gauge.builder("kvasir.server.connections.max", connections, OpenConnections::max)
        .description("The most client connections open at once (--max-connections)")
        .register(registry));
    own.add(FunctionCounter.builder("kvasir.server.connection.limit.reached", connections,
            OpenConnections::timesReached)
        .description("Times the server reached its limit of open connections")
        .register(registry));
    own.add(Gauge.builder("kvasir.server.body.memory", handler, ConnectHandler::bodyMemoryHeld)
        .description("Bytes of request bodies and read answers held now").baseUnit("bytes")
        .register(registry));
    own.add(Gauge.builder("kvasir.server.body.memory.max", handler,
            ConnectHandler::bodyMemoryLimit)
        .description("The most bytes of them held at once (--max-body-memory)")
        .baseUnit("bytes").register(registry));
    own.add(Gauge.builder("kvasir.server.queue.leases", handler, ConnectHandler::queueLeases)
        .description("Queue messages held by remote listeners now").register(registry));
    // Which version runs, as dashboards of a rolling upgrade show it (Prometheus's *_build_info).
    own.add(Gauge.builder("kvasir.build.info", () -> 1)
        .description("Always 1; the label version names the Kvasir release serving")
        .tag("version", version()).register(registry));
    KvasirMetrics engineMeters = new KvasirMetrics(engine, Tags.empty());
    engineMeters.bindTo(registry);
    new JvmInfoMetrics().bindTo(registry);
    new JvmMemoryMetrics().bindTo(registry);
    new JvmThreadMetrics().bindTo(registry);
    new ClassLoaderMetrics().bindTo(registry);
    new ProcessorMetrics().bindTo(registry);
    new UptimeMetrics().bindTo(registry);
    // Connections hold descriptors, and the connection limit follows the process's (§9).
    new FileDescriptorMetrics().bindTo(registry);
    JvmGcMetrics gc = new JvmGcMetrics();
    gc.bindTo(registry);
    // The server's and the engine's meters read objects that close with the server; the JVM's
    // stay, since a registry the application shares may hold them under the same names.
    return () -> {
      gc.close();
      engineMeters.close();
      own.forEach(registry::remove);
    };
  }

  /** The version in the jar's manifest; "unknown" when run from compiled classes. */
  static String version() {
    String v = KvServer.class.getPackage().getImplementationVersion();
    return v == null ? "unknown" : v;
  }
}
