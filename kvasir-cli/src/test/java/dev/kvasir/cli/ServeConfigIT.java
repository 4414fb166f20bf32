package dev.kvasir.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code kvasir serve} configured as operators do (docs/operations.md §2, §6, §7): a properties
 * file under the environment under the command line, JSON log lines, the access log, and TLS
 * options that are refused with the reason.
 */
class ServeConfigIT {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String TOKEN = "config-token-0123456789";

  @TempDir Path dir;

  private Path configFile(String text) throws Exception {
    Files.writeString(dir.resolve("token"), TOKEN + "\n");
    Path file = dir.resolve("kvasir.properties");
    Files.writeString(file, text);
    return file;
  }

  @Test
  void theConfigFile_setsWhatNeitherTheEnvironmentNorTheCommandLineSets() throws Exception {
    Path config = configFile("""
        # as in conf/kvasir.properties
        db = from-file.sqlite3
        port = 0
        access-token-file = token
        log-level = info
        log-format = json
        """);
    try (ServeProcess serve = new ServeProcess(dir, Map.of(), "--config", config.toString())) {
      assertThat(serve.banner().lines()).anyMatch(l -> l.contains("from-file.sqlite3"));
      // JSON lines only, each with the five fields, INFO included.
      String line = serve.awaitError(l -> l.contains("\"level\":\"INFO\""), Duration.ofSeconds(5));
      JsonNode event = JSON.readTree(line);
      assertThat(event.fieldNames()).toIterable()
          .contains("time", "level", "logger", "thread", "message");
      assertThat(serve.errors()).allSatisfy(l -> JSON.readTree(l));
      assertThat(get(serve.url() + "/readyz").statusCode()).isEqualTo(200);
      assertThat(serve.stop()).isZero();
    }
    Map<String, String> env = new HashMap<>();
    env.put("KVASIR_DB", "from-env.sqlite3");
    try (ServeProcess serve = new ServeProcess(dir, env, "--config", config.toString(),
        "--log-format", "text", "--log-level", "warn")) {
      assertThat(serve.banner().lines()).as("the environment wins over the file")
          .anyMatch(l -> l.contains("from-env.sqlite3"));
      assertThat(get(serve.url() + "/readyz").statusCode()).isEqualTo(200);
      assertThat(serve.stop()).isZero();
      assertThat(serve.errors()).as("the command line wins over the file")
          .noneMatch(l -> l.startsWith("{")).noneMatch(l -> l.contains("INFO"));
    }
  }

  @Test
  void aSettingTheCommandDoesNotHave_isAUsageError_namingIt() throws Exception {
    Path config = configFile("db = x.sqlite3\nmax-wathces = 5\n");
    Jar.Run run = new Jar(dir).run("serve", "--config", config.toString());
    assertThat(run.exit()).isEqualTo(2);
    assertThat(run.err()).contains("'max-wathces' is no setting of kvasir serve");
    Jar.Run badValue = new Jar(dir).run("serve", "--config",
        configFile("port = eighty\n").toString());
    assertThat(badValue.exit()).isEqualTo(2);
    assertThat(badValue.err()).contains("port = eighty: not a whole number");
  }

  @Test
  void aLocationFromTheFile_thatCannotBeOpened_isSaidToComeFromThere() throws Exception {
    Path config = configFile("db = sqlite:app.db\naccess-token = " + TOKEN + "\nport = 0\n");
    Jar.Run refused = new Jar(dir).run("serve", "--config", config.toString());
    assertThat(refused.exit()).isEqualTo(Kvasir.USAGE);
    assertThat(refused.err()).endsWith("(--db from " + config + ")\n");
    Path missingDir = configFile("db = no-such-dir/app.db\naccess-token = " + TOKEN
        + "\nport = 0\n");
    Jar.Run missing = new Jar(dir).run("serve", "--config", missingDir.toString());
    assertThat(missing.exit()).isEqualTo(Kvasir.DATABASE_ERROR);
    assertThat(missing.err()).contains("does not exist (--db from " + missingDir + ")");
    Jar.Run typed = new Jar(dir).run("serve", "--config", missingDir.toString(), "--db",
        "no-such-dir/other.db");
    assertThat(typed.err()).contains("does not exist").doesNotContain("--db from");
  }

  @Test
  void theAccessLog_logsEachRequest_withoutTheToken() throws Exception {
    try (ServeProcess serve = new ServeProcess(dir, Map.of("KVASIR_ACCESS_LOG", "true"),
        "--port", "0", "--access-token", TOKEN)) {
      HttpResponse<String> metadata = HttpClient.newHttpClient().send(
          HttpRequest.newBuilder(URI.create(serve.url() + "/"))
              .header("authorization", "Bearer " + TOKEN)
              .POST(HttpRequest.BodyPublishers.ofString("{\"supportedVersions\":[3]}")).build(),
          HttpResponse.BodyHandlers.ofString());
      assertThat(metadata.statusCode()).isEqualTo(200);
      assertThat(get(serve.url() + "/nothing-here").statusCode()).isEqualTo(404);
      String line = serve.awaitError(l -> l.contains("\"POST / HTTP/1.1\" 200"),
          Duration.ofSeconds(5));
      assertThat(line).contains("INFO").contains("dev.kvasir.server.access").contains("ms");
      serve.awaitError(l -> l.matches(".*\"GET /nothing-here HTTP/[0-9.]+\" 404 .*"),
          Duration.ofSeconds(5)); // the client may have upgraded to h2c by now
      assertThat(serve.errors()).noneMatch(l -> l.contains(TOKEN));
    }
  }

  /**
   * In JSON lines, the access log's facts are fields of their own, which log collectors query
   * without parsing NCSA's line out of the message.
   */
  @Test
  void theAccessLog_inJsonLines_hasTheRequestsFactsAsFields() throws Exception {
    try (ServeProcess serve = new ServeProcess(dir, Map.of("KVASIR_ACCESS_LOG", "true",
        "KVASIR_LOG_FORMAT", "json"), "--port", "0", "--access-token", TOKEN)) {
      assertThat(get(serve.url() + "/nothing-here?x=1").statusCode()).isEqualTo(404);
      String line = serve.awaitError(l -> l.contains("/nothing-here"), Duration.ofSeconds(5));
      JsonNode event = JSON.readTree(line);
      assertThat(event.get("logger").asText()).isEqualTo("dev.kvasir.server.access");
      assertThat(event.get("method").asText()).isEqualTo("GET");
      assertThat(event.get("path").asText()).isEqualTo("/nothing-here?x=1");
      assertThat(event.get("status").isInt()).isTrue();
      assertThat(event.get("status").asInt()).isEqualTo(404);
      assertThat(event.get("client").asText()).isEqualTo("127.0.0.1");
      assertThat(event.get("protocol").asText()).startsWith("HTTP/");
      assertThat(event.get("ms").isNumber()).isTrue();
      assertThat(event.get("bytes").isNumber()).isTrue();
      assertThat(event.get("message").asText()).contains("\"GET /nothing-here?x=1 HTTP/");
    }
  }

  /**
   * Behind a reverse proxy every request came from the proxy: the access log named 127.0.0.1
   * for every client. A proxy named with --trusted-proxy is believed about its client; anyone
   * else's X-Forwarded-For is ignored.
   */
  @Test
  void behindATrustedProxy_theAccessLogNamesTheClientItForwarded() throws Exception {
    try (ServeProcess serve = new ServeProcess(dir, Map.of("KVASIR_ACCESS_LOG", "true",
        "KVASIR_LOG_FORMAT", "json", "KVASIR_TRUSTED_PROXY", "10.0.0.0/8,127.0.0.1"),
        "--port", "0", "--access-token", TOKEN)) {
      HttpResponse<String> proxied = HttpClient.newHttpClient().send(
          HttpRequest.newBuilder(URI.create(serve.url() + "/via-proxy"))
              .header("X-Forwarded-For", "6.6.6.6, 198.51.100.7").build(),
          HttpResponse.BodyHandlers.ofString());
      assertThat(proxied.statusCode()).isEqualTo(404);
      String line = serve.awaitError(l -> l.contains("/via-proxy"), Duration.ofSeconds(5));
      assertThat(JSON.readTree(line).get("client").asText()).isEqualTo("198.51.100.7");
    }
    try (ServeProcess serve = new ServeProcess(dir, Map.of("KVASIR_ACCESS_LOG", "true",
        "KVASIR_LOG_FORMAT", "json"), "--port", "0", "--access-token", TOKEN)) {
      HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(serve.url() + "/direct"))
          .header("X-Forwarded-For", "198.51.100.7").build(), HttpResponse.BodyHandlers.ofString());
      String line = serve.awaitError(l -> l.contains("/direct"), Duration.ofSeconds(5));
      assertThat(JSON.readTree(line).get("client").asText()).isEqualTo("127.0.0.1");
    }
    Jar.Run wrong = new Jar(dir).run("serve", "--port", "0", "--access-token", TOKEN,
        "--trusted-proxy", "proxy.internal");
    assertThat(wrong.exit()).isEqualTo(Kvasir.USAGE);
    assertThat(wrong.err()).contains("a trusted proxy is an IP address or a network");
  }

  @Test
  void tlsOptions_thatDoNotFit_areUsageErrors_namingTheProblem() throws Exception {
    Files.writeString(dir.resolve("cert.pem"), "not a certificate\n");
    Jar jar = new Jar(dir);
    Jar.Run alone = jar.run("serve", "--port", "0", "--tls-cert", "cert.pem");
    assertThat(alone.exit()).isEqualTo(2);
    assertThat(alone.err()).contains("--tls-cert and --tls-key go together");
    Jar.Run unreadable = jar.run("serve", "--port", "0", "--access-token", TOKEN,
        "--tls-cert", "cert.pem", "--tls-key", "cert.pem");
    assertThat(unreadable.exit()).isEqualTo(2);
    assertThat(unreadable.err()).contains("cert.pem holds no PEM certificate");
  }

  private static HttpResponse<String> get(String url) throws Exception {
    return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(url)).build(),
        HttpResponse.BodyHandlers.ofString());
  }
}
