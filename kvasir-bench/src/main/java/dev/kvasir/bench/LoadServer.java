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
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * A {@link KvServer} on a SQLite file in a JVM of its own, as {@code kvasir serve} runs it (with
 * its Prometheus metrics), for {@link ServerLoad}: the server's CPU time is then its own
 * process's, apart from the load driver's. Started by {@link #start}; prints {@code url URL},
 * answers each {@code watches} line on its standard input with {@code watches N} (the streams
 * open now) and each {@code compilation} line with {@code compilation MS} (the JIT compilers'
 * time so far), and stops when its standard input closes.
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
    return Integer.parseInt(ask("watches"));
  }

  /**
   * The milliseconds the server's JIT compilers have spent compiling so far, or -1 where its
   * JVM does not measure it: a run whose measured part still has much of it measures code not
   * yet compiled (docs/performance.md §5).
   */
  long compilationMillis() throws IOException {
    return Long.parseLong(ask("compilation"));
  }

  /** Sends {@code command} on the server's standard input and returns its answer's value. */
  private synchronized String ask(String command) throws IOException {
    in.println(command);
    String line = out.readLine();
    if (line == null) {
      throw new IOException("the load server exited");
    }
    return line.substring(command.length() + 1);
  }

  @Override
  public void close() throws InterruptedException {
    in.close();
    if (!process.waitFor(30, TimeUnit.SECONDS)) {
      process.destroyForcibly();
    }
  }

  /** This JVM's compilation time so far in milliseconds, or -1 where it is not measured. */
  private static long compilationMillisHere() {
    CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
    return jit != null && jit.isCompilationTimeMonitoringSupported()
        ? jit.getTotalCompilationTime() : -1;
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
        switch (line.strip()) {
          case "watches" -> System.out.println("watches " + server.openWatches());
          case "compilation" -> System.out.println("compilation " + compilationMillisHere());
          default -> System.err.println("load server: unknown command " + line);
        }
      }
    }
  }
}
