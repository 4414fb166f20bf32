package dev.kvasir.dist;

import static dev.kvasir.testkit.PrometheusText.sample;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kvasir.Kv;
import dev.kvasir.KvKey;
import dev.kvasir.WatchStream;
import dev.kvasir.base.KvOptions;
import dev.kvasir.base.Versionstamp;
import dev.kvasir.testkit.Blocking;
import dev.kvasir.testkit.InstalledJdks;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The distribution archive as an operator uses it (docs/operations.md §8): unpacked, {@code
 * bin/kvasir serve} configured by the environment and a secret file, {@code bin/kvasir ready}
 * waiting for {@code /readyz}, {@code /metrics} scraped while a load runs, and its counters
 * checked against that load.
 */
class DistributionIT {
  private static final String TOKEN = "dist-token-0123456789";
  private static final int WRITERS = 4;
  private static final int SETS_EACH = 50;
  private static final int GETS_EACH = 30;
  private static final int FAILED_CHECKS = 10;

  @TempDir Path dir;
  private final HttpClient http = HttpClient.newHttpClient();

  @Test
  void theArchive_unpacks_servesUnderLoad_andItsMetricsCountTheLoad() throws Exception {
    Path home = unpack();
    for (String file : List.of("bin/kvasir", "conf/kvasir.properties", "LICENSE", "NOTICE",
        "THIRD-PARTY.txt", "packaging/systemd/kvasir.service",
        "packaging/container/Containerfile")) {
      assertThat(home.resolve(file)).as(file).isRegularFile();
    }
    assertThat(Files.isExecutable(home.resolve("bin/kvasir"))).isTrue();
    try (var jars = Files.list(home.resolve("lib"))) {
      assertThat(jars.map(p -> p.getFileName().toString()))
          .anyMatch(n -> n.startsWith("kvasir-cli-")).anyMatch(n -> n.startsWith("jetty-server-"))
          .anyMatch(n -> n.startsWith("logback-classic-"));
    }
    assertThat(run(home, Map.of(), "--version").exit()).isZero();

    int port = freePort();
    String url = "http://127.0.0.1:" + port;
    Files.writeString(dir.resolve("token"), TOKEN + "\n");
    Process serve = start(home, Map.of("KVASIR_DB", dir.resolve("dist.sqlite3").toString(),
        "KVASIR_PORT", Integer.toString(port),
        "KVASIR_ACCESS_TOKEN_FILE", dir.resolve("token").toString()), "serve");
    try {
      Run ready = run(home, Map.of(), "ready", "--wait", "60s", url);
      assertThat(ready.exit()).as(ready.out() + ready.err()).isZero();
      assertThat(ready.out()).contains("200 ready");

      KvOptions auth = KvOptions.defaults().with("accessToken", TOKEN);
      try (Kv kv = Kv.open(url, auth);
          WatchStream watch = kv.watch(List.of(KvKey.of("watched")))) {
        watch.next();
        List<CompletableFuture<Void>> load = new ArrayList<>();
        for (int w = 0; w < WRITERS; w++) {
          int id = w;
          load.add(Blocking.run(() -> {
            for (int i = 0; i < SETS_EACH; i++) {
              kv.set(KvKey.of("load", id, i), i);
              if (i < GETS_EACH) {
                kv.get(KvKey.of("load", id, i));
              }
            }
          }));
        }
        // Scraped while the load runs: the endpoint answers, and counts as it goes.
        while (!CompletableFuture.allOf(load.toArray(CompletableFuture[]::new)).isDone()) {
          HttpResponse<String> during = scrape(url);
          assertThat(during.statusCode()).isEqualTo(200);
          assertThat(sample(during.body(), "kvasir_server_commits_total",
              "outcome=\"committed\"")).isLessThanOrEqualTo(WRITERS * SETS_EACH);
          Thread.sleep(20);
        }
        load.forEach(CompletableFuture::join);
        for (int i = 0; i < FAILED_CHECKS; i++) {
          assertThat(kv.atomic().check(KvKey.of("load", 0, 0),
              Versionstamp.parse("00000000000000000001")).set(KvKey.of("x"), 1).commit().ok())
              .isFalse();
        }

        int writes = WRITERS * SETS_EACH;
        String text = awaitCounted(url, writes);
        assertThat(sample(text, "kvasir_server_commits_total", "outcome=\"check_failed\""))
            .isEqualTo(FAILED_CHECKS);
        assertThat(sample(text, "kvasir_server_requests_seconds_count",
            "endpoint=\"atomic_write\",status=\"200\"")).isEqualTo(writes + FAILED_CHECKS);
        assertThat(sample(text, "kvasir_server_requests_seconds_count",
            "endpoint=\"snapshot_read\",status=\"200\"")).isEqualTo(WRITERS * GETS_EACH);
        assertThat(sample(text, "kvasir_server_watches_open", "")).isEqualTo(1);
        // The engine's group commits took every write, several at a time.
        assertThat(sample(text, "kvasir_engine_commit_batch_size_sum", ""))
            .isGreaterThanOrEqualTo(writes);
        assertThat(sample(text, "kvasir_engine_commit_batch_size_count", "")).isPositive();
        assertThat(sample(text, "kvasir_sqlite_wal_size_bytes", "")).isPositive();
      }
    } finally {
      serve.destroy(); // SIGTERM
      assertThat(serve.waitFor(30, TimeUnit.SECONDS)).isTrue();
    }
    assertThat(serve.exitValue()).as("a clean stop").isZero();
    Run gone = run(home, Map.of(), "ready", url);
    assertThat(gone.exit()).as("nobody answers").isEqualTo(3);
  }

  @Test
  void aCommand_writesNothingToStandardError_onJava17_norOnNewerOnes() throws Exception {
    // Java 24 and later warn of the SQLite driver's native library unless it is allowed.
    Path home = unpack();
    List<Path> javas = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin",
        "java")));
    javas.addAll(InstalledJdks.javasFrom(22));
    for (Path java : javas) {
      String javaHome = java.getParent().getParent().toString();
      Run set = run(home, Map.of("JAVA_HOME", javaHome), "set", "--db",
          dir.resolve("kv.sqlite3").toString(), "[\"k\"]", "1");
      assertThat(set.exit()).as(javaHome + ": " + set.err()).isZero();
      assertThat(set.err()).as(javaHome).isEmpty();
    }
    System.out.println("ran bin/kvasir on " + javas);
  }

  @Test
  void classDataSharing_isMadeByTheFirstCommand_usedByTheNext_andRemadeAfterAnUpgrade()
      throws Exception {
    Path home = unpack();
    String db = dir.resolve("cds.sqlite3").toString();
    // A TMPDIR that cannot be used, as a read-only /tmp: the training's scratch directory was
    // made there, and the script stopped (set -e) before running the command.
    Run set = run(home, Map.of("TMPDIR", dir.resolve("no-tmp").toString()), "set", "--db", db,
        "[\"k\"]", "1");
    assertThat(set.exit()).as(set.err()).isZero();
    assertThat(set.err()).isEmpty();
    List<Path> archives;
    try (var files = Files.list(home.resolve("cds"))) {
      archives = files.toList();
    }
    assertThat(archives).as("one archive, for this Java, and no scratch left").hasSize(1)
        .allMatch(f -> f.toString().endsWith(".jsa"));
    Path archive = archives.get(0);
    Run loaded = run(home, Map.of("JAVA_OPTS", "-Xlog:class+load=info"), "get", "--db", db,
        "[\"k\"]");
    assertThat(loaded.out()).contains("dev.kvasir.cli.Kvasir source: shared objects file (top)");

    // An upgrade replaces the jars: the archive, now older, is made again.
    Files.setLastModifiedTime(archive, FileTime.fromMillis(0));
    assertThat(run(home, Map.of(), "get", "--db", db, "[\"k\"]").out()).isEqualTo("1\n");
    assertThat(Files.getLastModifiedTime(archive).toMillis()).isPositive();

    // An archive the JVM refuses (another JVM's, a damaged one) is passed over in silence.
    Files.delete(archive);
    Files.writeString(archive, "not an archive");
    Run get = run(home, Map.of(), "get", "--db", db, "[\"k\"]");
    assertThat(get.out()).isEqualTo("1\n");
    assertThat(get.err()).isEmpty();
  }

  @Test
  void watch_stopsOnceTheReaderGoes_throughTheScriptsJavaOptions() throws Exception {
    // The script starts Java with -cp, where the jar's manifest (Add-Opens) does not count:
    // without its own option, watch waited for the next change to learn that nobody reads.
    Path home = unpack();
    String db = dir.resolve("watch.sqlite3").toString();
    assertThat(run(home, Map.of(), "set", "--db", db, "[\"k\"]", "1").exit()).isZero();
    ProcessBuilder pb = new ProcessBuilder(home.resolve("bin/kvasir").toString(), "watch",
        "--db", db, "[\"k\"]").directory(dir.toFile())
        .redirectError(dir.resolve("watch.err").toFile());
    pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
    Process watch = pb.start();
    var out = watch.getInputStream();
    int first = out.read();
    out.close();
    assertThat(first).as("a first emission").isNotEqualTo(-1);
    boolean stopped = watch.waitFor(60, TimeUnit.SECONDS);
    if (!stopped) {
      watch.destroyForcibly(); // not left running after the test
    }
    assertThat(stopped).as("stopped without a change").isTrue();
    assertThat(watch.exitValue()).isEqualTo(141);
    assertThat(dir.resolve("watch.err")).isEmptyFile();
  }

  @Test
  void inTheCLocale_keysAndValuesStayAsTyped() throws Exception {
    // Java reads its arguments in the locale's character set: ASCII in the C locale, so the key
    // arrived as U+FFFD, unless bin/kvasir picks a UTF-8 locale.
    Path home = unpack();
    Map<String, String> c = Map.of("LC_ALL", "C", "LANG", "C");
    String db = dir.resolve("locale.sqlite3").toString();
    Run set = run(home, c, "set", "--db", db, "[\"ключ\"]", "\"значение ✓\"");
    assertThat(set.exit()).as(set.err()).isZero();
    Run get = run(home, c, "get", "--db", db, "[\"ключ\"]");
    assertThat(get.out()).as(get.err()).isEqualTo("\"значение ✓\"\n");
  }

  private Path unpack() throws Exception {
    Path archive = Path.of(System.getProperty("kvasir.dist"));
    assertThat(archive).as("built by package").isRegularFile();
    Process tar = new ProcessBuilder("tar", "xzf", archive.toString(), "-C", dir.toString())
        .redirectErrorStream(true).start();
    String output = new String(tar.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(tar.waitFor()).as(output).isZero();
    try (var entries = Files.list(dir)) {
      return entries.filter(p -> p.getFileName().toString().startsWith("kvasir-"))
          .findFirst().orElseThrow();
    }
  }

  private record Run(int exit, String out, String err) {}

  private Process start(Path home, Map<String, String> env, String... args) throws IOException {
    List<String> command = new ArrayList<>(List.of(home.resolve("bin/kvasir").toString()));
    command.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile())
        .redirectOutput(dir.resolve("serve.out").toFile())
        .redirectError(dir.resolve("serve.err").toFile());
    pb.environment().keySet().removeIf(k -> k.startsWith("KVASIR_"));
    pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
    pb.environment().putAll(env);
    return pb.start();
  }

  private Run run(Path home, Map<String, String> env, String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of(home.resolve("bin/kvasir").toString()));
    command.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile());
    pb.environment().keySet().removeIf(k -> k.startsWith("KVASIR_"));
    pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
    pb.environment().putAll(env);
    Process p = pb.start();
    CompletableFuture<byte[]> err = Blocking.call(() -> {
      try {
        return p.getErrorStream().readAllBytes();
      } catch (IOException e) {
        return new byte[0];
      }
    });
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
    return new Run(p.exitValue(), out, new String(err.get(), StandardCharsets.UTF_8));
  }

  private HttpResponse<String> scrape(String url) throws Exception {
    return http.send(HttpRequest.newBuilder(URI.create(url + "/metrics")).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  /**
   * A scrape that counted the whole load. A request is metered once its answer is complete,
   * which may be just after the client has it, so the last requests' timers may lag behind
   * the commit counter.
   */
  private String awaitCounted(String url, int writes) throws Exception {
    String text = scrape(url).body();
    for (int i = 0; i < 100 && !countedAll(text, writes); i++) {
      Thread.sleep(50);
      text = scrape(url).body();
    }
    assertThat(sample(text, "kvasir_server_commits_total", "outcome=\"committed\""))
        .isEqualTo(writes);
    return text;
  }

  private static boolean countedAll(String text, int writes) {
    return sample(text, "kvasir_server_commits_total", "outcome=\"committed\"") >= writes
        && sample(text, "kvasir_server_requests_seconds_count",
            "endpoint=\"atomic_write\",status=\"200\"") >= writes + FAILED_CHECKS
        && sample(text, "kvasir_server_requests_seconds_count",
            "endpoint=\"snapshot_read\",status=\"200\"") >= WRITERS * GETS_EACH;
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }
}
