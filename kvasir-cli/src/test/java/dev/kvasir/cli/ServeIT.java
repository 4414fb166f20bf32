package dev.kvasir.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kvasir.Kv;
import dev.kvasir.KvKey;
import dev.kvasir.KvOptions;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code kvasir serve} from the shaded jar: serves, prints the URL and token, stops on SIGTERM. */
class ServeIT {
  private static final String COMMITTED_ONE =
      "kvasir_server_commits_total{outcome=\"committed\"} 1";

  @TempDir Path dir;

  @Test
  void serve_printsUrlAndToken_servesClients_andClosesCleanlyOnSigterm() throws Exception {
    Path file = dir.resolve("served.sqlite3");
    Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java")
        .toString(), "-jar", Path.of("target", "kvasir.jar").toAbsolutePath().toString(),
        "serve", "--path", file.toString(), "--port", "0").redirectErrorStream(true).start();
    BufferedReader out = new BufferedReader(
        new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
    List<String> lines = new ArrayList<>();
    String url = null;
    String token = null;
    for (String line; (line = out.readLine()) != null && !line.equals("Ctrl-C stops."); ) {
      lines.add(line);
      Matcher m = Pattern.compile(" at (http://127\\.0\\.0\\.1:\\d+)$").matcher(line);
      if (m.find()) {
        url = m.group(1);
      }
      if (line.startsWith("Access token (generated, shown only now): ")) {
        token = line.substring(line.indexOf(": ") + 2);
      }
    }
    assertThat(url).as("%s", lines).isNotNull();
    assertThat(token).as("%s", lines).hasSizeGreaterThanOrEqualTo(12);
    try (Kv kv = Kv.open(url, KvOptions.defaults().with("accessToken", token))) {
      kv.set(KvKey.of("served"), "yes");
      assertThat(kv.get(KvKey.of("served")).value()).isEqualTo("yes");
    }
    p.destroy(); // SIGTERM
    assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as("a clean stop").isZero();
    try (Kv kv = Kv.open(file.toString())) {
      assertThat(kv.get(KvKey.of("served")).value()).isEqualTo("yes");
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
    Process p = pb.start();
    BufferedReader out = new BufferedReader(
        new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
    List<String> lines = new ArrayList<>();
    String url = null;
    for (String line; (line = out.readLine()) != null && !line.equals("Ctrl-C stops."); ) {
      lines.add(line);
      Matcher m = Pattern.compile(
          "^Kvasir serves .*env\\.sqlite3 at (http://127\\.0\\.0\\.1:\\d+)$").matcher(line);
      if (m.find()) {
        url = m.group(1);
      }
    }
    assertThat(url).as("%s", lines).isNotNull();
    assertThat(lines).noneMatch(l -> l.contains(secret) || l.contains("generated"));
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
    assertThat(metrics).contains(COMMITTED_ONE).contains("jvm_memory_used_bytes");
    p.destroy(); // SIGTERM
    assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as("a clean stop").isZero();
    try (Kv kv = Kv.open(file.toString())) {
      assertThat(kv.get(KvKey.of("from")).value()).isEqualTo("env");
    }
  }
}
