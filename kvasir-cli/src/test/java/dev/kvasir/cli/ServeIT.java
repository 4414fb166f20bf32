package dev.kvasir.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kvasir.Kv;
import dev.kvasir.KvKey;
import dev.kvasir.base.KvOptions;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code kvasir serve} from the shaded jar: serves, tells the URL and token, stops on SIGTERM. */
class ServeIT {
  private static final String COMMITTED_ONE =
      "kvasir_server_commits_total{outcome=\"committed\"} 1";

  @TempDir Path dir;
  /** Servers this test started: a failed check must not leave one running. */
  private final List<Process> started = new ArrayList<>();

  @AfterEach
  void stopWhatIsLeft() {
    started.forEach(Process::destroyForcibly);
  }

  @Test
  void serve_withoutATerminal_writesTheGeneratedTokenToAPrivateFile_servesClients_andStops()
      throws Exception {
    Path file = dir.resolve("served.sqlite3");
    Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java")
        .toString(), "-jar", Path.of("target", "kvasir.jar").toAbsolutePath().toString(),
        "serve", "--path", file.toString(), "--port", "0").directory(dir.toFile())
        .redirectErrorStream(true).start();
    started.add(p);
    Banner banner = Banner.read(p, Pattern.compile(" at (http://127\\.0\\.0\\.1:\\d+)$"));
    String url = banner.url();
    assertThat(url).as("%s", banner.lines()).isNotNull();
    Path tokenFile = dir.resolve(ServeTokens.GENERATED_FILE);
    assertThat(banner.lines()).as("no terminal: the token is not printed")
        .contains("Access token (generated): in " + tokenFile + ", readable only by this user");
    String token = Files.readString(tokenFile).strip();
    assertThat(token).hasSizeGreaterThanOrEqualTo(12);
    assertThat(banner.lines()).noneMatch(l -> l.contains(token));
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(tokenFile)))
        .isEqualTo("rw-------");
    assertThat(banner.lines()).as("libraries are quiet by default")
        .noneMatch(l -> l.contains(" INFO "));
    try (Kv kv = Kv.open(url, KvOptions.defaults().with("accessToken", token))) {
      kv.set(KvKey.of("served"), "yes");
      assertThat(kv.get(KvKey.of("served")).value()).isEqualTo("yes");
    }
    stopsCleanly(p, file, KvKey.of("served"), "yes");
  }

  @Test
  void serve_stoppedBySighup_closesItsDatabase_andSaysSo() throws Exception {
    // SIGHUP (a closed terminal, or an operator used to servers that reload on it) ended the
    // server through the JVM's shutdown without a word: the log did not say that it stopped.
    Path file = dir.resolve("hup.sqlite3");
    Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java")
        .toString(), "-jar", Jar.JAR.toString(), "serve", "--path", file.toString(), "--port",
        "0", "--access-token", "hup-token-0123456789").directory(dir.toFile())
        .redirectErrorStream(true).start();
    started.add(p);
    Banner banner = Banner.read(p, Pattern.compile(" at (http://127\\.0\\.0\\.1:\\d+)$"));
    assertThat(banner.url()).as("%s", banner.lines()).isNotNull();
    try (Kv kv = Kv.open(banner.url(), KvOptions.defaults().with("accessToken",
        "hup-token-0123456789"))) {
      kv.set(KvKey.of("hup"), 1);
    }
    assertThat(new ProcessBuilder("kill", "-HUP", Long.toString(p.pid())).start().waitFor())
        .isZero();
    if (hangupIgnored()) {
      // The build runs under nohup, which the server inherits: it must go on serving, as nohup
      // asks (the JVM keeps a signal ignored at its start ignored), and stop on SIGTERM.
      assertThat(p.waitFor(2, TimeUnit.SECONDS)).as("SIGHUP ignored, as nohup asks").isFalse();
      stopsCleanly(p, file, KvKey.of("hup"), 1.0);
      return;
    }
    assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).isEqualTo(128 + 1);
    assertThat(new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip())
        .isEqualTo("stopped");
    assertThat(dir.resolve("hup.sqlite3-wal")).as("closed: the last close checkpoints")
        .doesNotExist();
    try (Kv kv = Kv.open(file.toString())) {
      assertThat(kv.get(KvKey.of("hup")).value()).isEqualTo(1.0);
    }
  }

  @Test
  void serve_inADirectoryItMayNotWrite_saysWhereTheGeneratedTokenCouldNotGo() throws Exception {
    // It said only "error: /srv/kvasir-access-token.new", the file written aside.
    Assumptions.assumeTrue("root".equals(System.getProperty("user.name")),
        "mounting a file system read-only needs root");
    Path readOnly = Files.createDirectory(dir.resolve("read-only"));
    assertThat(new ProcessBuilder("mount", "-t", "tmpfs", "-o", "size=1m,ro", "tmpfs",
        readOnly.toString()).inheritIO().start().waitFor()).isZero();
    try {
      Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java")
          .toString(), "-jar", Jar.JAR.toString(), "serve", "--path",
          dir.resolve("served.sqlite3").toString(), "--port", "0").directory(readOnly.toFile())
          .redirectErrorStream(true).start();
      started.add(p);
      assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertThat(p.exitValue()).as(out).isEqualTo(Kvasir.DATABASE_ERROR);
      assertThat(out).contains("cannot write the generated access token to "
          + readOnly.resolve(ServeTokens.GENERATED_FILE) + ": Read-only file system")
          .contains("--access-token-file");
    } finally {
      new ProcessBuilder("umount", "-l", readOnly.toString()).inheritIO().start()
          .waitFor(30, TimeUnit.SECONDS);
    }
  }

  @Test
  void serve_configuredByEnvironmentAndASecretFile_keepsTheSecretOutOfItsCommandLine()
      throws Exception {
    Path file = dir.resolve("env.sqlite3");
    Path tokenFile = dir.resolve("token");
    String secret = "secret-from-a-file-0123";
    Files.writeString(tokenFile, secret + "\n");
    ProcessBuilder pb = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin",
        "java").toString(), "-jar", Jar.JAR.toString(), "serve").redirectErrorStream(true);
    pb.environment().put("KVASIR_DB", file.toString());
    pb.environment().put("KVASIR_PORT", "0");
    pb.environment().put("KVASIR_ACCESS_TOKEN_FILE", tokenFile.toString());
    pb.environment().remove("KVASIR_ACCESS_TOKEN");
    pb.environment().put("KVASIR_LOG_LEVEL", "info");
    Process p = pb.start();
    started.add(p);
    Banner banner = Banner.read(p, Pattern.compile(
        "^Kvasir serves .*env\\.sqlite3 at (http://127\\.0\\.0\\.1:\\d+)$"));
    String url = banner.url();
    assertThat(url).as("%s", banner.lines()).isNotNull();
    assertThat(banner.lines()).noneMatch(l -> l.contains(secret) || l.contains("generated"));
    assertThat(banner.lines()).as("KVASIR_LOG_LEVEL=info").anyMatch(l -> l.contains(" INFO "));
    String commandLine = Files.readString(Path.of("/proc", Long.toString(p.pid()), "cmdline"));
    assertThat(commandLine).as("what ps shows").doesNotContain(secret);

    HttpClient http = HttpClient.newHttpClient();
    HttpResponse<String> ready = http.send(HttpRequest.newBuilder(URI.create(url + "/readyz"))
        .build(), HttpResponse.BodyHandlers.ofString());
    assertThat(ready.statusCode()).as(ready.body()).isEqualTo(200);
    try (Kv kv = Kv.open(url, KvOptions.defaults().with("accessToken", secret))) {
      kv.set(KvKey.of("from"), "env");
    }
    String metrics = "";
    for (int i = 0; i < 100 && !metrics.contains(COMMITTED_ONE); i++) { // metered on completion
      metrics = http.send(HttpRequest.newBuilder(URI.create(url + "/metrics")).build(),
          HttpResponse.BodyHandlers.ofString()).body();
      Thread.sleep(50);
    }
    assertThat(metrics).contains(COMMITTED_ONE).contains("jvm_memory_used_bytes")
        .containsPattern("kvasir_build_info\\{version=\"[0-9][^\"]*\"} 1\\n");
    stopsCleanly(p, file, KvKey.of("from"), "env");
  }

  @Test
  void serve_anUnknownLogLevel_isAUsageError() throws Exception {
    Jar.Run run = new Jar(dir).run("serve", "--log-level", "loud", "--port", "0");
    assertThat(run.exit()).isEqualTo(2);
    assertThat(run.err()).contains("--log-level is one of error, warn, info, debug, trace");
  }

  /**
   * Whether this process was started with SIGHUP ignored (under {@code nohup}), which the
   * processes it starts inherit: Linux's {@code SigIgn} mask in {@code /proc/self/status}, whose
   * lowest bit is signal 1. False where there is no such file.
   */
  private static boolean hangupIgnored() throws IOException {
    Path status = Path.of("/proc/self/status");
    if (!Files.exists(status)) {
      return false;
    }
    for (String line : Files.readAllLines(status)) {
      if (line.startsWith("SigIgn:")) {
        return (Long.parseUnsignedLong(line.substring("SigIgn:".length()).strip(), 16) & 1) != 0;
      }
    }
    return false;
  }

  /** SIGTERM stops {@code serve} with status 0, leaving {@code key} written in {@code file}. */
  private static void stopsCleanly(Process serve, Path file, KvKey key, Object value)
      throws Exception {
    serve.toHandle().destroy(); // SIGTERM alone (Process.destroy closes the pipes too)
    assertThat(serve.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(serve.exitValue()).as("a clean stop").isZero();
    try (Kv kv = Kv.open(file.toString())) {
      assertThat(kv.get(key).value()).isEqualTo(value);
    }
  }
}
