package dev.kvasir.bench;

import com.sun.management.OperatingSystemMXBean;
import dev.kvasir.Kv;
import dev.kvasir.KvKey;
import dev.kvasir.QueueListener;
import dev.kvasir.WatchStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * What an idle watcher and an idle queue listener cost on the SQLite engine: the process's CPU
 * time over a quiet period, without them and with them (they poll for other processes'
 * commits, {@code ForeignCommits}).
 *
 * <pre>
 * java -cp kvasir-bench/target/benchmarks.jar dev.kvasir.bench.IdleWatchCost DIR [seconds]
 * </pre>
 */
public final class IdleWatchCost {
  private IdleWatchCost() {}

  public static void main(String[] args) throws Exception {
    Path dir = Files.createDirectories(Path.of(args[0]));
    long seconds = args.length > 1 ? Long.parseLong(args[1]) : 20;
    try (Kv kv = Kv.open(dir.resolve("idle.sqlite3").toString())) {
      kv.set(KvKey.of("w"), 0.0);
      Thread.sleep(2_000); // let start-up work settle
      double quiet = cpuPercent(seconds);
      try (WatchStream watch = kv.watch(List.of(KvKey.of("w")));
          QueueListener listener = kv.listenQueue(m -> { })) {
        watch.next();
        Thread.sleep(3_000); // class loading and compilation of the new code paths
        double watching = cpuPercent(seconds);
        System.out.printf("idle process: %.3f%% of one core; with a watcher and a queue listener:"
            + " %.3f%%%n", quiet, watching);
      }
    }
  }

  private static double cpuPercent(long seconds) throws InterruptedException {
    OperatingSystemMXBean os =
        (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    long cpu = os.getProcessCpuTime();
    long wall = System.nanoTime();
    Thread.sleep(seconds * 1000);
    return 100.0 * (os.getProcessCpuTime() - cpu) / (System.nanoTime() - wall);
  }
}
