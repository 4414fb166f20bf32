package dev.kvasir.bench;

import dev.kvasir.CommitResult;
import dev.kvasir.Kv;
import dev.kvasir.KvKey;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
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
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Durable commits per second on a SQLite file with the engine's default ({@code
 * synchronous=FULL}), one set per commit in W1's data shape, each thread awaiting its own
 * commits: {@code oneWriter} is W1 after warm-up, {@code sixteenWriters} shows what group commit
 * adds (one fsync shared by the commits pending together). Compare with the harness's W1 rate
 * for Deno on the same machine. The file lives in {@code java.io.tmpdir}; point that at the disk
 * under test.
 *
 * <pre>
 * java -jar kvasir-bench/target/benchmarks.jar GroupCommitBenchmark
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class GroupCommitBenchmark {
  /** Keys cycle through this many per thread, so the file stays small. */
  private static final int KEYS_PER_THREAD = 10_000;

  private Path dir;
  private Kv kv;
  private final AtomicInteger threads = new AtomicInteger();

  /** One writer's key space. */
  @State(Scope.Thread)
  public static class Writer {
    int thread;
    int next;

    @Setup(Level.Trial)
    public void pick(GroupCommitBenchmark shared) {
      thread = shared.threads.getAndIncrement();
    }
  }

  @Setup(Level.Trial)
  public void open() throws IOException {
    dir = Files.createTempDirectory("kvasir-group-commit");
    kv = Kv.open(dir.resolve("kv.sqlite3").toString());
  }

  @TearDown(Level.Trial)
  public void close() throws IOException {
    kv.close();
    Directories.delete(dir);
  }

  @Benchmark
  @Threads(1)
  public CommitResult oneWriter(Writer w) {
    return set(w);
  }

  @Benchmark
  @Threads(16)
  public CommitResult sixteenWriters(Writer w) {
    return set(w);
  }

  private CommitResult set(Writer w) {
    int i = w.next++ % KEYS_PER_THREAD;
    CommitResult r = kv.set(KvKey.of("bench", w.thread, i), Peer.value(i));
    if (!r.ok()) {
      throw new IllegalStateException("commit failed");
    }
    return r;
  }
}
