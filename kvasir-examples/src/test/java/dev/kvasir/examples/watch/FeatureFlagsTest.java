package dev.kvasir.examples.watch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kvasir.Kv;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(60)
class FeatureFlagsTest {
  @TempDir
  Path dir;

  @Test
  void followsTheFlagsWhoeverWritesThem() throws Exception {
    String path = dir.resolve("app.sqlite3").toString();
    BlockingQueue<Map<String, Boolean>> seen = new LinkedBlockingQueue<>();
    try (Kv kv = Kv.open(path); FeatureFlags flags = new FeatureFlags(kv, seen::add)) {
      assertThat(seen.take()).isEmpty(); // the first emission: no flags stored yet

      kv.set(FeatureFlags.KEY, Map.of("darkMode", true));
      assertThat(seen.take()).isEqualTo(Map.of("darkMode", true));
      assertThat(flags.enabled("darkMode")).isTrue();

      // Another connection to the file (another process would do as well).
      try (Kv other = Kv.open(path)) {
        other.set(FeatureFlags.KEY, Map.of("darkMode", false, "beta", true));
      }
      assertThat(seen.take()).isEqualTo(Map.of("darkMode", false, "beta", true));
      assertThat(flags.enabled("darkMode")).isFalse();
      assertThat(flags.enabled("beta")).isTrue();
    }
  }

  @Test
  void closingEndsTheLoop() throws Exception {
    String path = dir.resolve("app.sqlite3").toString();
    BlockingQueue<Map<String, Boolean>> seen = new LinkedBlockingQueue<>();
    try (Kv kv = Kv.open(path)) {
      FeatureFlags flags = new FeatureFlags(kv, seen::add);
      seen.take();
      flags.close(); // returns once the loop's thread has ended

      kv.set(FeatureFlags.KEY, Map.of("darkMode", true));
      assertThat(seen.poll(200, TimeUnit.MILLISECONDS)).isNull();
    }
  }
}
