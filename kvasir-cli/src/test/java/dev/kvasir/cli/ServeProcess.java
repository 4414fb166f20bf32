package dev.kvasir.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.regex.Pattern;

/**
 * {@code kvasir serve} from the shaded jar in its own process: its banner from standard output,
 * and every line of standard error, collected as it comes.
 */
final class ServeProcess implements AutoCloseable {
  private static final Pattern URL = Pattern.compile(" at (https?://[^ ]+)");

  private final Process process;
  private final Banner banner;
  private final List<String> errors = new CopyOnWriteArrayList<>();

  /** Starts it in {@code dir} with {@code env} added to the environment (a null value: removed). */
  ServeProcess(Path dir, Map<String, String> env, String... args) throws IOException {
    this(List.of(), dir, env, args);
  }

  /** As the constructor, with the process allowed at most {@code files} open files. */
  static ServeProcess withOpenFileLimit(int files, Path dir, Map<String, String> env,
      String... args) throws IOException {
    // The soft and the hard limit both, so that the JVM cannot raise the soft one.
    return new ServeProcess(List.of("bash", "-c", "ulimit -n " + files + " && exec \"$@\"",
        "serve"), dir, env, args);
  }

  private ServeProcess(List<String> prefix, Path dir, Map<String, String> env, String... args)
      throws IOException {
    List<String> command = new ArrayList<>(prefix);
    command.addAll(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-jar", Jar.JAR.toString(), "serve"));
    command.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile());
    pb.environment().keySet().removeIf(k -> k.startsWith("KVASIR_"));
    env.forEach((k, v) -> {
      if (v == null) {
        pb.environment().remove(k);
      } else {
        pb.environment().put(k, v);
      }
    });
    process = pb.start();
    Thread drain = new Thread(() -> {
      try (BufferedReader err = new BufferedReader(
          new InputStreamReader(process.getErrorStream(), StandardCharsets.UTF_8))) {
        for (String line; (line = err.readLine()) != null; ) {
          errors.add(line);
        }
      } catch (IOException ended) {
        // the process is gone
      }
    }, "serve-stderr");
    drain.setDaemon(true);
    drain.start();
    banner = Banner.read(process, URL);
  }

  Banner banner() {
    return banner;
  }

  /** The URL it serves at. */
  String url() {
    if (banner.url() == null) {
      throw new AssertionError("no URL in the banner " + banner.lines() + "; stderr: " + errors);
    }
    return banner.url();
  }

  Process process() {
    return process;
  }

  /** The lines of standard error so far. */
  List<String> errors() {
    return List.copyOf(errors);
  }

  /** Waits up to {@code timeout} for a line of standard error that {@code wanted} accepts. */
  String awaitError(Predicate<String> wanted, Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (System.nanoTime() < deadline) {
      for (String line : errors) {
        if (wanted.test(line)) {
          return line;
        }
      }
      Thread.sleep(20);
    }
    throw new AssertionError("no such line on standard error: " + errors);
  }

  /** SIGTERM, then the exit status. */
  int stop() throws InterruptedException {
    process.toHandle().destroy(); // SIGTERM alone (Process.destroy closes the pipes too)
    if (!process.waitFor(30, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new AssertionError("serve did not stop on SIGTERM");
    }
    return process.exitValue();
  }

  @Override
  public void close() throws InterruptedException {
    if (process.isAlive()) {
      stop();
    }
  }
}
