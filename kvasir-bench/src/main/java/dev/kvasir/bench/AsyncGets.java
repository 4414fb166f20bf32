package dev.kvasir.bench;

import dev.kvasir.AsyncKv;
import dev.kvasir.Kv;
import dev.kvasir.KvKey;
import dev.kvasir.base.KvOptions;
import dev.kvasir.server.KvServer;
import dev.kvasir.sqlite.SqliteConfig;
import dev.kvasir.sqlite.SqliteEngine;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Gets per second with 64 requests in flight, two ways: {@code async64Outstanding} is one
 * thread keeping 64 {@code kv.async().get} futures outstanding (no thread waits for one), and
 * {@code blocking64Threads} is 64 threads each calling {@code kv.get}. On a SQLite file (the
 * reader pool) and through KV Connect ({@code remote}: a {@link KvServer} on loopback over a
 * SQLite file, one HTTP/2 connection). Each get reads one of 1000 keys of W2's value shape.
 *
 * <pre>
 * java -jar kvasir-bench/target/benchmarks.jar AsyncGets
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
// The HTTP/2 stacks of client and server take several seconds to compile: a longer warm-up.
@Warmup(iterations = 6, time = 3)
@Measurement(iterations = 5, time = 3)
@Fork(1)
public class AsyncGets {
  private static final int KEYS = 1000;
  private static final int OUTSTANDING = 64;
  /** Gets per invocation of the async benchmark: enough for the window to stay full. */
  private static final int BATCH = 4096;
  private static final String TOKEN = "async-gets-token-0123456789";

  @Param({"sqlite", "remote"})
  public String engine;

  private Path dir;
  private SqliteEngine sqlite;
  private KvServer server;
  private Kv kv;
  private AsyncKv async;

  @Setup(Level.Trial)
  public void open() throws IOException {
    dir = Files.createTempDirectory("kvasir-async-gets");
    String file = dir.resolve("kv.sqlite3").toString();
    try (Kv seed = Kv.open(file)) {
      for (int i = 0; i < KEYS; i++) {
        seed.set(KvKey.of("bench", i), Peer.value(i));
      }
    }
    sqlite = SqliteEngine.open(SqliteConfig.of(file));
    if (engine.equals("remote")) {
      server = KvServer.builder(sqlite).accessToken(TOKEN).port(0).start();
      kv = Kv.open(server.url(), KvOptions.defaults().with("accessToken", TOKEN));
    } else {
      kv = Kv.of(sqlite);
    }
    async = kv.async();
  }

  @TearDown(Level.Trial)
  public void close() throws IOException {
    kv.close(); // and the engine, when it is the database's own
    if (server != null) {
      server.close();
      sqlite.close();
    }
    Directories.delete(dir);
  }

  private static KvKey randomKey() {
    return KvKey.of("bench", ThreadLocalRandom.current().nextInt(KEYS));
  }

  @Benchmark
  @OperationsPerInvocation(BATCH)
  public void async64Outstanding() throws InterruptedException {
    Semaphore window = new Semaphore(OUTSTANDING);
    CountDownLatch done = new CountDownLatch(BATCH);
    AtomicReference<Throwable> failure = new AtomicReference<>();
    for (int i = 0; i < BATCH; i++) {
      window.acquire();
      async.get(randomKey()).whenComplete((entry, error) -> {
        if (error != null || entry.value() == null) {
          failure.compareAndSet(null, error != null ? error : new AssertionError("missing"));
        }
        window.release();
        done.countDown();
      });
    }
    done.await();
    if (failure.get() != null) {
      throw new IllegalStateException("a get failed", failure.get());
    }
  }

  @Benchmark
  @Threads(OUTSTANDING)
  public Object blocking64Threads() {
    Object value = kv.get(randomKey()).value();
    if (value == null) {
      throw new IllegalStateException("missing");
    }
    return value;
  }
}
