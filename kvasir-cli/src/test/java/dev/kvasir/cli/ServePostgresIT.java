package dev.kvasir.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kvasir.Kv;
import dev.kvasir.KvKey;
import dev.kvasir.WatchStream;
import dev.kvasir.base.KvOptions;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two {@code kvasir serve --db postgresql://…} processes on one database, as behind a load
 * balancer: a client of one sees, and watches, what a client of the other writes; the plain
 * commands read the same database directly.
 */
class ServePostgresIT {
  private static final String TOKEN = "shared-token-for-both-servers";

  @TempDir Path dir;

  @Test
  void twoServersOnOneDatabase_serveTheSameData() throws Exception {
    try (EmbeddedPostgres pg = EmbeddedPostgres.builder().start()) {
      String db = "postgresql://postgres@localhost:" + pg.getPort() + "/postgres?schema=served";
      Jar jar = new Jar(dir);
      Process first = jar.start("serve", "--db", db, "--port", "0", "--access-token", TOKEN);
      Process second = jar.start("serve", "--db", db, "--port", "0", "--access-token", TOKEN);
      try {
        String url1 = url(first);
        String url2 = url(second);
        KvOptions auth = KvOptions.defaults().with("accessToken", TOKEN);
        try (Kv one = Kv.open(url1, auth); Kv two = Kv.open(url2, auth);
            WatchStream watch = two.watch(List.of(KvKey.of("greeting")))) {
          assertThat(watch.next().get(0).exists()).isFalse();
          one.set(KvKey.of("greeting"), "hello from server 1");
          assertThat(two.get(KvKey.of("greeting")).value()).isEqualTo("hello from server 1");
          assertThat(watch.next().get(0).value()).isEqualTo("hello from server 1");
        }
        Jar.Run get = jar.run("get", "--db", db, "[\"greeting\"]");
        assertThat(get.exit()).as(get.err()).isZero();
        assertThat(get.out()).contains("hello from server 1");
        // The embedded server trusts every password; info must not print it.
        Jar.Run info = jar.run("info", "--db", db.replace("postgres@", "postgres:hunter2@"));
        assertThat(info.exit()).as(info.err()).isZero();
        assertThat(info.out()).contains("engine: PostgreSQL").contains("entries: 1")
            .contains("(schema served)").doesNotContain("hunter2");
      } finally {
        for (Process p : List.of(first, second)) {
          p.destroy();
          assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        }
      }
    }
  }

  /** Reads the server's banner up to its URL, which must name the database without secrets. */
  private static String url(Process p) throws Exception {
    BufferedReader out = new BufferedReader(
        new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
    List<String> lines = new ArrayList<>();
    for (String line; (line = out.readLine()) != null; ) {
      lines.add(line);
      Matcher m = Pattern.compile("^Kvasir serves jdbc:postgresql://\\S+ \\(schema served\\)"
          + " at (http://127\\.0\\.0\\.1:\\d+)$").matcher(line);
      if (m.find()) {
        return m.group(1);
      }
    }
    throw new AssertionError("no URL in " + lines + new String(p.getErrorStream().readAllBytes(),
        StandardCharsets.UTF_8));
  }
}
