package dev.kvasir.bench;

import dev.kvasir.server.KvServer;
import dev.kvasir.sqlite.SqliteConfig;
import dev.kvasir.sqlite.SqliteEngine;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * A {@link KvServer} on a SQLite file in a JVM of its own, as {@code kvasir serve} runs it (with
 * its Prometheus metrics), for {@link ServerLoad}: the server's CPU time is then its own
 * process's, apart from the load driver's. Started by {@link #start}; prints {@code url URL},
 * answers each {@code watches} line on its standard input with {@code watches N} (the streams
 * open now), and stops when its standard input closes.
 *
 * <pre>java -cp kvasir-bench/target/benchmarks.jar dev.kvasir.bench.LoadServer FILE TOKEN</pre>
 */
final class LoadServer implements AutoCloseable {
  /**
   * Short enough that every run, even a short one, goes through the clients' refresh of the
   * metadata: Java and Deno clients alike exchange again 10 s before it expires
   * (docs/kv-connect.md §2), so 20 s into a run and every 20 s after.
   */
  static final Duration METADATA_LIFETIME = Duration.ofSeconds(30);

  private final Process process;
  private final BufferedReader out;
  private final PrintStream in;
  private final String url;

  private LoadServer(Process process) throws IOException {
    this.process = process;
    out = new BufferedReader(new InputStreamReader(process.getInputStream(),
        StandardCharsets.UTF_8));
    in = new PrintStream(process.getOutputStream(), true, StandardCharsets.UTF_8);
    String line = out.readLine();
    while (line != null && !line.startsWith("url ")) { // a JVM agent may print first
      line = out.readLine();
    }
    if (line == null) {
      process.destroyForcibly();
      throw new IllegalStateException("the load server did not start (its errors are above)");
    }
    url = line.substring("url ".length());
  }

  /** Starts a server on {@code file} that takes {@code token}, and waits until it listens. */
  static LoadServer start(Path file, String token) throws IOException {
    Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java")
        .toString(), "-cp", System.getProperty("java.class.path"), LoadServer.class.getName(),
        file.toString(), token).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    return new LoadServer(p);
  }

  String url() {
    return url;
  }

  /** The CPU time the server's process has used so far, in nanoseconds. */
  long cpuNanos() {
    return cpuNanos(process);
  }

  /** The CPU time {@code process} has used so far, in nanoseconds. */
  static long cpuNanos(Process process) {
    return process.info().totalCpuDuration().orElseThrow(() -> new IllegalStateException(
        "this system does not report a process's CPU time")).toNanos();
  }

  /** The watch streams the server holds open now. */
  int openWatches() throws IOException {
    in.println("watches");
    String line = out.readLine();
    if (line == null) {
      throw new IOException("the load server exited");
    }
    return Integer.parseInt(line.substring("watches ".length()));
  }

  @Override
  public void close() throws InterruptedException {
    in.close();
    if (!process.waitFor(30, TimeUnit.SECONDS)) {
      process.destroyForcibly();
    }
  }

  public static void main(String[] args) throws Exception {
    try (SqliteEngine engine = SqliteEngine.open(SqliteConfig.of(args[0]));
        KvServer server = KvServer.builder(engine).accessToken(args[1]).port(0)
            .metadataLifetime(METADATA_LIFETIME)
            .metrics(new PrometheusMeterRegistry(PrometheusConfig.DEFAULT)).start()) {
      System.out.println("url " + server.url());
      BufferedReader commands = new BufferedReader(new InputStreamReader(System.in,
          StandardCharsets.UTF_8));
      for (String line; (line = commands.readLine()) != null; ) {
        if (line.strip().equals("watches")) {
          System.out.println("watches " + server.openWatches());
        }
      }
    }
  }
}
