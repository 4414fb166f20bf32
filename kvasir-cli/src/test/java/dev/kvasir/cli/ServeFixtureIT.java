package dev.kvasir.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kvasir.Kv;
import dev.kvasir.KvKey;
import dev.kvasir.ListSelector;
import dev.kvasir.base.KvOptions;
import dev.kvasir.testkit.fixture.FixtureEngineProvider;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code kvasir serve --db fixture:…} with the testkit beside the unchanged jar: the CLI finds
 * the fixture engine as it finds every engine, through its provider, and serves it.
 */
class ServeFixtureIT {
  /**
   * The server's working directory: SQLite takes any location that is not a URL as a file name,
   * so files appearing here would mean SQLite served {@code fixture:served}, not the fixture.
   */
  @TempDir Path workDir;

  @Test
  void serve_anEngineFromTheClassPath_servesIt() throws Exception {
    String testkit = Path.of(FixtureEngineProvider.class.getProtectionDomain().getCodeSource()
        .getLocation().toURI()).toString();
    Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java")
        .toString(), "-cp", Jar.JAR + File.pathSeparator + testkit, "dev.kvasir.cli.Kvasir",
        "serve", "--db", "fixture:served", "--port", "0", "--access-token", "fixture-token-1")
        .directory(workDir.toFile()).redirectErrorStream(true).start();
    try {
      Banner banner = Banner.read(p, Pattern.compile(
          "^Kvasir serves fixture:served at (http://127\\.0\\.0\\.1:\\d+)$"));
      String url = banner.url();
      assertThat(url).as("%s", banner.lines()).isNotNull();
      try (Kv kv = Kv.open(url, KvOptions.defaults().with("accessToken", "fixture-token-1"))) {
        kv.set(KvKey.of("a", 1), "one");
        assertThat(kv.atomic().sum(KvKey.of("n"), 5L).commit().ok()).isTrue();
        assertThat(kv.get(KvKey.of("a", 1)).value()).isEqualTo("one");
        List<KvKey> keys = new ArrayList<>();
        kv.list(ListSelector.prefix(KvKey.of("a"))).forEach(e -> keys.add(e.key()));
        assertThat(keys).containsExactly(KvKey.of("a", 1));
      }
    } finally {
      p.destroy();
      assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
    }
    try (var files = Files.list(workDir)) {
      assertThat(files).as("files the server left in its working directory").isEmpty();
    }
  }
}
