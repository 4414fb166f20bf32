package dev.kvasir.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The commands other than {@code serve} take their database from the environment a server's
 * configuration sets: {@code KVASIR_DB} and, for PostgreSQL, {@code KVASIR_DB_PASSWORD_FILE}.
 * Without that, a shell set up for the server sent {@code kvasir set} to a new
 * {@code ./kvasir.sqlite3}, exit status 0.
 */
class CliEnvironmentIT {
  private static final String TOKEN = "a-token-for-the-server-01";

  @TempDir Path dir;

  @Test
  void kvasirDb_isWhereTheCommandsGo_andTheCommandLineWins() throws Exception {
    Jar kvasir = new Jar(dir);
    Path served = dir.resolve("served.sqlite3");
    try (ServeProcess server = new ServeProcess(dir,
        Map.of("KVASIR_DB", served.toString(), "KVASIR_ACCESS_TOKEN", TOKEN), "--port", "0")) {
      Map<String, String> shell = Map.of("KVASIR_DB", server.url(), "KVASIR_ACCESS_TOKEN", TOKEN);
      Jar.Run set = kvasir.run(shell, "set", "[\"k\"]", "\"through the server\"");
      assertThat(set.exit()).as(set.err()).isZero();
      assertThat(kvasir.run(shell, "get", "[\"k\"]").out()).isEqualTo("\"through the server\"\n");
    }
    assertThat(dir.resolve(DatabaseOption.DEFAULT)).as("no database made in the working"
        + " directory").doesNotExist();

    Map<String, String> local = Map.of("KVASIR_DB", served.toString());
    assertThat(kvasir.run(local, "get", "[\"k\"]").out()).isEqualTo("\"through the server\"\n");
    Jar.Run elsewhere = kvasir.run(local, "get", "--db", "other.sqlite3", "[\"k\"]");
    assertThat(elsewhere.exit()).isEqualTo(Kvasir.DATABASE_ERROR);
    assertThat(elsewhere.err()).contains("there is no database at other.sqlite3")
        .doesNotContain("environment");
  }

  /** An error quoting a location the user did not type says where it came from. */
  @Test
  void aLocationFromKvasirDb_thatIsRefused_isSaidToComeFromThere() throws Exception {
    Jar kvasir = new Jar(dir);
    String from = " (--db from the environment variable KVASIR_DB)";
    Jar.Run missing = kvasir.run(Map.of("KVASIR_DB", "gone.sqlite3"), "get", "[\"k\"]");
    assertThat(missing.err()).startsWith("error: there is no database at gone.sqlite3" + from);
    Jar.Run command = kvasir.run(Map.of("KVASIR_DB", "sqlite:app.db"), "set", "[\"k\"]", "1");
    assertThat(command.exit()).isEqualTo(Kvasir.USAGE);
    assertThat(command.err()).isEqualTo("error: no engine takes locations starting 'sqlite:',"
        + " as in 'sqlite:app.db'; for a file of that name, write ./sqlite:app.db" + from + "\n");
    Jar.Run serve = kvasir.run(Map.of("KVASIR_DB", "sqlite:app.db", "KVASIR_ACCESS_TOKEN",
        TOKEN), "serve", "--port", "0");
    assertThat(serve.exit()).isEqualTo(Kvasir.USAGE);
    assertThat(serve.err()).endsWith(from + "\n");
    assertThat(dir.resolve("sqlite:app.db")).doesNotExist();
  }

  @Test
  void aVariableWhoseValueDoesNotConvert_isNamed_notOnlyItsOption() throws Exception {
    // KVASIR_PORT= in a Compose file said "Invalid value for option '--port'", which the
    // operator never gave.
    Jar kvasir = new Jar(dir);
    Jar.Run serve = kvasir.run(Map.of("KVASIR_PORT", "", "KVASIR_ACCESS_TOKEN", TOKEN), "serve");
    assertThat(serve.exit()).isEqualTo(Kvasir.USAGE);
    assertThat(serve.err()).contains("'--port': '' is not an int (from the environment variable"
        + " KVASIR_PORT, which is set but empty: unset it for the default)");
    Jar.Run get = kvasir.run(Map.of("KVASIR_TIMEOUT", "soon"), "get", "[\"k\"]");
    assertThat(get.err()).contains("(from the environment variable KVASIR_TIMEOUT)");
    Jar.Run given = kvasir.run(Map.of("KVASIR_TIMEOUT", "soon"), "get", "--timeout", "x",
        "[\"k\"]");
    assertThat(given.err()).contains("'x' is not a duration").doesNotContain("environment");
  }

  @Test
  void serve_warnsOfAVariableNoCommandReads_butNotOfAnotherCommands() throws Exception {
    // Its command line holds serve alone; the client's KVASIR_TIMEOUT was warned of as unknown.
    Jar.Run serve = new Jar(dir).run(Map.of("KVASIR_PROT", "4512", "KVASIR_TIMEOUT", "5s",
        "KVASIR_ACCESS_TOKEN", TOKEN), "serve", "--queue-lease", "50ms"); // stops after them
    assertThat(serve.exit()).isEqualTo(Kvasir.USAGE);
    assertThat(serve.err()).contains("WARN", "KVASIR_PROT is set but no kvasir command reads it")
        .doesNotContain("KVASIR_TIMEOUT");
  }

  @Test
  void thePasswordFile_reachesPostgresql_fromTheEnvironmentOrTheOption() throws Exception {
    Path secret = dir.resolve("db-password");
    Files.writeString(secret, "pw-kept-in-a-file-7\n");
    // Password authentication for every role but the superuser the fixture connects as.
    try (EmbeddedPostgres pg = EmbeddedPostgres.builder()
        .setDataDirectoryCustomizer(data -> writeHba(data.toPath())).start()) {
      try (Connection c = pg.getPostgresDatabase().getConnection();
          Statement s = c.createStatement()) {
        s.execute("create role kv login password 'pw-kept-in-a-file-7'");
        s.execute("create database app owner kv");
      }
      String url = "postgresql://kv@127.0.0.1:" + pg.getPort() + "/app";
      Jar kvasir = new Jar(dir);

      Jar.Run without = kvasir.run(Map.of("KVASIR_DB", url), "set", "[\"k\"]", "1");
      assertThat(without.exit()).isEqualTo(Kvasir.DATABASE_ERROR);
      assertThat(without.err()).contains("no password was provided. Give it in the URL"
          + " (postgresql://user:password@…), as the option password (kvasir:"
          + " --db-password-file), in PGPASSWORD or in ~/.pgpass.");

      Map<String, String> shell = Map.of("KVASIR_DB", url,
          "KVASIR_DB_PASSWORD_FILE", secret.toString());
      Jar.Run set = kvasir.run(shell, "set", "[\"k\"]", "1");
      assertThat(set.exit()).as(set.err()).isZero();
      Jar.Run get = kvasir.run("get", "--db", url, "--db-password-file", secret.toString(),
          "[\"k\"]");
      assertThat(get.out()).as(get.err()).isEqualTo("1\n");
      // As psql takes it: a container's environment often gives the password so.
      Jar.Run libpq = kvasir.run(Map.of("PGPASSWORD", "pw-kept-in-a-file-7"), "get", "--db", url,
          "[\"k\"]");
      assertThat(libpq.out()).as(libpq.err()).isEqualTo("1\n");

      // The variable is for PostgreSQL: a local file beside it still opens.
      Jar.Run file = kvasir.run(shell, "set", "--db", "local.sqlite3", "[\"k\"]", "2");
      assertThat(file.exit()).as(file.err()).isZero();
      // Named on the command line for such a file, it is a mistake, and said to be one.
      Jar.Run named = kvasir.run("set", "--db", "local.sqlite3", "--db-password-file",
          secret.toString(), "[\"k\"]", "3");
      assertThat(named.exit()).isEqualTo(Kvasir.USAGE);
      assertThat(named.err()).contains("is for a database that logs in with a password");

      // A restore into PostgreSQL takes the password of its target from a file too: before,
      // only a URL with the password in it, which ps shows, could reach a role that logs in.
      Jar.Run backup = kvasir.run("backup", "--db", "local.sqlite3", "--once", "--to",
          "dag:backup");
      assertThat(backup.exit()).as(backup.err()).isZero();
      String restored = url + "?schema=restored";
      Jar.Run refused = kvasir.run("restore", "--from", "dag:backup", "--to", restored);
      assertThat(refused.exit()).isEqualTo(Kvasir.DATABASE_ERROR);
      assertThat(refused.err()).contains("password");
      Jar.Run restore = kvasir.run("restore", "--from", "dag:backup", "--to", restored,
          "--to-password-file", secret.toString());
      assertThat(restore.exit()).as(restore.err()).isZero();
      assertThat(kvasir.run("get", "--db", restored, "--db-password-file", secret.toString(),
          "[\"k\"]").out()).isEqualTo("2\n");
      Jar.Run unknown = kvasir.run("restore", "--from", "dag:backup", "--to", "copy.sqlite3",
          "--to-option", "sqlite.noSuchOption=1");
      assertThat(unknown.exit()).isEqualTo(Kvasir.USAGE);
      assertThat(unknown.err()).contains("sqlite.noSuchOption");
    }
  }

  private static void writeHba(Path data) {
    try {
      Files.writeString(data.resolve("pg_hba.conf"), String.join("\n",
          "local all all trust",
          "host all postgres 127.0.0.1/32 trust",
          "host all postgres ::1/128 trust",
          "host all all 127.0.0.1/32 scram-sha-256",
          "host all all ::1/128 scram-sha-256", ""));
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
