package dev.kvasir.cli;

import dev.kvasir.testkit.Blocking;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/** Runs the shaded {@code kvasir.jar} as a subprocess in a working directory. */
final class Jar {
  static final Path JAR = Path.of("target", "kvasir.jar").toAbsolutePath();

  record Run(int exit, String out, String err) {}

  private final Path dir;
  private final Path jar;
  private final List<String> asUser;

  Jar(Path dir) {
    this(dir, JAR, List.of());
  }

  private Jar(Path dir, Path jar, List<String> asUser) {
    this.dir = dir;
    this.jar = jar;
    this.asUser = asUser;
  }

  /**
   * The same commands, run as a user whom file permissions stop: when the tests run as root
   * (whom they do not stop), as {@code nobody} through {@code setpriv}, with a copy of the jar
   * in the working directory and that directory opened to every user; otherwise as this user.
   */
  Jar unprivileged() throws IOException {
    if (!"root".equals(System.getProperty("user.name"))) {
      return this;
    }
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxrwxrwx"));
    Path copy = Files.copy(JAR, dir.resolve("kvasir.jar"), StandardCopyOption.REPLACE_EXISTING);
    Files.setPosixFilePermissions(copy, PosixFilePermissions.fromString("rw-r--r--"));
    return new Jar(dir, copy,
        List.of("setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups"));
  }

  Run run(String... args) throws Exception {
    return runWithInput(new byte[0], args);
  }

  /** The fingerprint {@code kvasir info} gives {@code db}: equal for equal contents. */
  String fingerprint(String db) throws Exception {
    Run info = run("info", "--db", db, "--json");
    if (info.exit() != 0) {
      throw new AssertionError("kvasir info --db " + db + " exited " + info.exit() + ": "
          + info.err());
    }
    return Render.JSON.readTree(info.out()).get("fingerprint").asText();
  }

  /** Runs it with {@code env} added to the environment. */
  Run run(Map<String, String> env, String... args) throws Exception {
    return finish(start(env, args), new byte[0], args);
  }

  Run runWithInput(byte[] stdin, String... args) throws Exception {
    return finish(start(args), stdin, args);
  }

  /** Runs it with {@code env} added to the environment and {@code stdin} as its input. */
  Run runWithInput(Map<String, String> env, byte[] stdin, String... args) throws Exception {
    return finish(start(env, args), stdin, args);
  }

  /**
   * Runs it with {@code stdin} as its input and its standard output written to {@code stdout}
   * (a file, or {@code /dev/full}); the run's {@code out} is then empty.
   */
  Run runInto(Path stdout, byte[] stdin, String... args) throws Exception {
    ProcessBuilder pb = builder(Map.of(), args);
    pb.redirectOutput(stdout.toFile());
    return finish(pb.start(), stdin, args);
  }

  private static Run finish(Process p, byte[] stdin, String... args) throws Exception {
    CompletableFuture<byte[]> out = Blocking.call(() -> read(p, true));
    CompletableFuture<byte[]> err = Blocking.call(() -> read(p, false));
    try (var in = p.getOutputStream()) {
      in.write(stdin);
    }
    if (!p.waitFor(120, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new AssertionError("kvasir " + String.join(" ", args) + " did not finish");
    }
    return new Run(p.exitValue(), new String(out.get(), StandardCharsets.UTF_8),
        new String(err.get(), StandardCharsets.UTF_8));
  }

  Process start(String... args) throws IOException {
    return start(Map.of(), args);
  }

  private Process start(Map<String, String> env, String... args) throws IOException {
    return builder(env, args).start();
  }

  private ProcessBuilder builder(Map<String, String> env, String... args) {
    List<String> command = new ArrayList<>(asUser);
    command.addAll(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-jar", jar.toString()));
    command.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile());
    // The commands take defaults from KVASIR_* variables (a token from Deno's, a PostgreSQL
    // password from libpq's); a developer's shell must not set them.
    pb.environment().keySet().removeIf(k -> k.startsWith("KVASIR_")
        || k.equals("DENO_KV_ACCESS_TOKEN") || k.equals("PGPASSWORD"));
    pb.environment().putAll(env);
    return pb;
  }

  /**
   * Waits until {@code p}, a command started here, has a file in the working directory (or in
   * the directory below it that {@code prefix} names first, as in {@code bk/blocks.kvdag})
   * whose name starts with {@code prefix} and that holds more than {@code bytes} bytes; fails if
   * the command ends first or takes over a minute.
   */
  void awaitWriting(Process p, String prefix, long bytes) throws Exception {
    Path named = dir.resolve(prefix);
    Path in = named.getParent();
    String start = named.getFileName().toString();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (System.nanoTime() < deadline) {
      if (Files.isDirectory(in)) { // one the command makes may not be there yet
        try (Stream<Path> files = Files.list(in)) {
          if (files.anyMatch(f -> f.getFileName().toString().startsWith(start)
              && sizeOf(f) > bytes)) {
            return;
          }
        }
      }
      if (!p.isAlive()) {
        throw new AssertionError("the command ended before it was seen writing " + prefix);
      }
      Thread.sleep(2);
    }
    throw new AssertionError("nothing was written to " + prefix + " within 60 s");
  }

  private static long sizeOf(Path file) {
    try {
      return Files.size(file);
    } catch (IOException e) {
      return -1; // renamed or removed meanwhile
    }
  }

  /** What {@code p}, a command started here, writes to standard error, once it ends. */
  static CompletableFuture<String> errorsOf(Process p) {
    return Blocking.call(() -> new String(read(p, false), StandardCharsets.UTF_8));
  }

  private static byte[] read(Process p, boolean stdout) {
    try {
      return (stdout ? p.getInputStream() : p.getErrorStream()).readAllBytes();
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
