package dev.kvasir.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kvasir.testkit.Blocking;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's {@code ./kvasir} at the repository's root, as a new user runs it: with the Java
 * that {@code JAVA_HOME} names, which {@code ./mvnw} builds with, and {@code JAVA_OPTS} for the
 * JVM, as the distribution's {@code bin/kvasir}. It ran the first {@code java} on the PATH and
 * took no options.
 */
class LauncherIT {
  private static final Path SCRIPT = Path.of("..", "kvasir").toAbsolutePath().normalize();

  @TempDir Path dir;

  @Test
  void theScript_runsJavaHomesJava_withJavaOpts() throws Exception {
    // A java on the PATH that is not the one JAVA_HOME names, and fails if run.
    Path bin = Files.createDirectory(dir.resolve("bin"));
    Path wrong = Files.writeString(bin.resolve("java"),
        "#!/bin/sh\necho 'the PATH java ran' >&2\nexit 99\n");
    Files.setPosixFilePermissions(wrong, PosixFilePermissions.fromString("rwxr-xr-x"));
    ProcessBuilder pb = new ProcessBuilder(SCRIPT.toString(), "--version").directory(dir.toFile());
    pb.environment().keySet().removeIf(k -> k.startsWith("KVASIR_"));
    pb.environment().put("PATH", bin + ":" + System.getenv("PATH"));
    String javaHome = System.getProperty("java.home");
    pb.environment().put("JAVA_HOME", javaHome);
    pb.environment().put("JAVA_OPTS", "-XshowSettings:properties -Dkvasir.launcher.test=seen");
    Process p = pb.start();
    CompletableFuture<String> err = Blocking.call(() -> read(p, false));
    String out = read(p, true);
    assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
    String errors = err.get();
    assertThat(p.exitValue()).as(errors).isZero();
    assertThat(out).startsWith("kvasir ");
    assertThat(errors).contains("java.home = " + javaHome)
        .contains("kvasir.launcher.test = seen").doesNotContain("the PATH java ran");
  }

  @Test
  void classDataSharing_isMadeOnceForTheBuild_thenUsed_andNeverSpeaksOnStandardError()
      throws Exception {
    Path archives = Path.of("target", "cds").toAbsolutePath();
    deleteTree(archives);
    // What a training that was killed leaves, by a process that is gone.
    Process gone = new ProcessBuilder("true").start();
    assertThat(gone.waitFor(30, TimeUnit.SECONDS)).isTrue();
    Files.createDirectories(archives.resolve("training." + gone.pid()));
    Files.writeString(archives.resolve("1234.jsa." + gone.pid()), "half an archive");
    String db = dir.resolve("cds.sqlite3").toString();
    // A TMPDIR that cannot be used, as a read-only /tmp: the training's scratch directory was
    // made there, and the script stopped (set -e) before running the command.
    Process set = script(Map.of("TMPDIR", dir.resolve("no-tmp").toString()), "set", "--db", db,
        "[\"k\"]", "1");
    CompletableFuture<String> setErrors = Blocking.call(() -> read(set, false));
    assertThat(set.waitFor(120, TimeUnit.SECONDS)).isTrue();
    assertThat(setErrors.get()).isEmpty();
    assertThat(set.exitValue()).isZero();
    List<Path> made;
    try (var files = Files.list(archives)) {
      made = files.toList();
    }
    assertThat(made).as("one archive, for this Java, and no scratch left, a killed training's"
        + " neither").hasSize(1)
        .allMatch(f -> f.toString().endsWith(".jsa"));

    Process loaded = script(Map.of("JAVA_OPTS", "-Xlog:class+load=info"), "get", "--db", db,
        "[\"k\"]");
    assertThat(read(loaded, true))
        .contains("dev.kvasir.cli.Kvasir source: shared objects file (top)");
    assertThat(loaded.waitFor(120, TimeUnit.SECONDS)).isTrue();

    // One the JVM refuses (another JVM's, a damaged one) is passed over in silence.
    Files.delete(made.get(0));
    Files.writeString(made.get(0), "not an archive");
    Process get = script(Map.of(), "get", "--db", db, "[\"k\"]");
    CompletableFuture<String> getErrors = Blocking.call(() -> read(get, false));
    assertThat(read(get, true)).isEqualTo("1\n");
    assertThat(get.waitFor(120, TimeUnit.SECONDS)).isTrue();
    assertThat(getErrors.get()).isEmpty();
    deleteTree(archives); // the next ./kvasir makes a good one
  }

  private static void deleteTree(Path root) throws java.io.IOException {
    if (!Files.exists(root)) {
      return;
    }
    try (var files = Files.walk(root)) {
      for (Path f : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.delete(f);
      }
    }
  }

  @Test
  void aJavaHomeWithoutJava_isNamed_withExitStatus3() throws Exception {
    // Bash said "line 92: …/bin/java: No such file or directory", status 127.
    Path empty = Files.createDirectory(dir.resolve("not-a-jdk"));
    ProcessBuilder pb = new ProcessBuilder(SCRIPT.toString(), "--version").directory(dir.toFile());
    pb.environment().put("JAVA_HOME", empty.toString());
    Process p = pb.start();
    String errors = read(p, false);
    assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).isEqualTo(3);
    assertThat(errors).contains("kvasir: no Java at " + empty + "/bin/java (JAVA_HOME)");
  }

  @Test
  void inTheCLocale_theScriptKeepsKeysAndValuesAsTyped() throws Exception {
    // Java reads its arguments in the locale's character set, ASCII in the C locale.
    String db = dir.resolve("locale.sqlite3").toString();
    Map<String, String> c = Map.of("LC_ALL", "C", "LANG", "C");
    Process set = script(c, "set", "--db", db, "[\"ключ\"]", "\"значение ✓\"");
    assertThat(set.waitFor(120, TimeUnit.SECONDS)).isTrue();
    assertThat(set.exitValue()).isZero();
    Process get = script(c, "get", "--db", db, "[\"ключ\"]");
    assertThat(read(get, true)).isEqualTo("\"значение ✓\"\n");
    assertThat(get.waitFor()).isZero();
  }

  /** Starts the script with {@code env} added and its locale settings only from there. */
  private Process script(Map<String, String> env, String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of(SCRIPT.toString()));
    command.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile());
    pb.environment().keySet().removeIf(k -> k.startsWith("KVASIR_") || k.startsWith("LC_"));
    pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
    pb.environment().putAll(env);
    return pb.start();
  }

  private static String read(Process p, boolean stdout) {
    try {
      return new String((stdout ? p.getInputStream() : p.getErrorStream()).readAllBytes(),
          StandardCharsets.UTF_8);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
