package dev.kvasir.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A command line that cannot be carried out is refused with exit code 2 before the database is
 * opened: "bad input changes nothing" includes not creating the file that --db names. Before,
 * a write whose value, check, limit or selection was malformed first created an empty
 * database, and only then refused its arguments; so did {@code serve} for a TLS file that is
 * not there or does not load, a trusted proxy that does not parse, a queue lease out of range
 * or a --host that does not resolve.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD) // a serve let through runs
class UsageErrorsTest {
  @TempDir Path dir;

  @Test
  void malformedArguments_areRefused_beforeADatabaseIsCreated() throws Exception {
    String input = Files.writeString(dir.resolve("lines.ndjson"),
        "{\"key\":[\"a\"],\"value\":1}\n").toString();
    String notPem = Files.writeString(dir.resolve("not.pem"), "not a certificate\n").toString();
    String[][] lines = {
        {"set", "[\"a\"]", "hello"},
        {"set", "[\"a\"]", "{\"$bigint\":\"x\"}"},
        {"set", "[\"a\"]", "1", "--check", "zz"},
        {"delete", "[\"a\"]", "--check", "zz"},
        {"delete", "[\"a\"]", "[\"b\"]", "--check", "none"},
        {"enqueue", "hello"},
        {"enqueue", "1", "--backoff-schedule", "1,x"},
        // Beyond Deno's limits: exit 1, and the library's names in milliseconds, before.
        {"enqueue", "1", "--delay", "31d"},
        {"enqueue", "1", "--backoff-schedule", "1,2,3,4,5,6"},
        {"enqueue", "1", "--backoff-schedule", "3600001"},
        {"sum", "[\"a\"]", "99999999999999999999999"},
        {"max", "[\"a\"]", "-1"},
        {"list", "--limit", "0"},
        {"watch", "[\"a\"]", "--count", "0"},
        {"listen", "--count", "-1"},
        {"list", "[\"a\"]", "--prefix", "[\"b\"]"},
        {"list", "--prefix", "[\"a\"]", "--start", "[\"a\", 1]", "--end", "[\"a\", 2]"},
        {"count", "[\"a\"]", "--prefix", "[\"b\"]"},
        {"export", "[\"a\"]", "--prefix", "[\"b\"]"},
        {"import", input, "--keep-versionstamps", "--skip", "3"},
        {"import", input, "--skip", "-1"},
        {"serve", "--access-token", "usage-errors-0123", "--queue-lease", "50ms"},
        {"serve", "--access-token", "usage-errors-0123", "--tls-cert", "missing-cert.pem",
            "--tls-key", "missing-key.pem"},
        {"serve", "--access-token", "usage-errors-0123", "--tls-keystore", "missing.p12"},
        {"serve", "--access-token", "usage-errors-0123", "--tls-cert", notPem,
            "--tls-key", notPem},
        {"serve", "--access-token", "usage-errors-0123", "--tls-keystore", notPem,
            "--tls-password", "secret"},
        {"serve", "--access-token", "usage-errors-0123", "--trusted-proxy", "10.0.0.0/99"},
        {"serve", "--access-token", "usage-errors-0123", "--host", "no-such-host.invalid"},
        {"backup", "--to", "dag:" + dir.resolve("backup"), "--interval", "0s"},
    };
    List<String> created = new ArrayList<>();
    for (String[] line : lines) {
      Path db = dir.resolve("kv.sqlite3");
      StringWriter err = new StringWriter();
      int status = run(err, line, db);
      assertThat(status).as("%s: %s", String.join(" ", line), err).isEqualTo(2);
      assertThat(err.toString()).as(String.join(" ", line)).startsWith("error: ");
      if (db.toFile().exists()) {
        created.add(String.join(" ", line));
        db.toFile().delete();
      }
    }
    assertThat(created).as("commands that created the database before refusing").isEmpty();
  }

  @Test
  void writesBeyondDenosLimits_areRefused_beforeADatabaseIsCreated() {
    // Each was refused by the commit, after the database had been created for it.
    String longKey = "[\"" + "k".repeat(3000) + "\"]";
    String bigString = "\"" + "x".repeat(70_000) + "\"";
    String[][] lines = {
        {"set", longKey, "1"},
        {"set", "[\"a\"]", bigString},
        {"sum", longKey, "1"},
        {"delete", "[\"a\"]", longKey},
        {"enqueue", bigString},
        {"enqueue", "1", "--keys-if-undelivered", longKey},
    };
    for (String[] line : lines) {
      Path db = dir.resolve("kv.sqlite3");
      StringWriter err = new StringWriter();
      String shown = String.join(" ", line).substring(0, 20);
      assertThat(run(err, line, db)).as("%s: %s", shown, err).isEqualTo(Kvasir.FAILED);
      assertThat(err.toString()).as(shown).containsPattern("too large");
      assertThat(db).as("%s created the database before refusing", shown).doesNotExist();
    }
  }

  /** As the command runs from {@code main}: built for its arguments. */
  private static int run(StringWriter err, String[] line, Path db) {
    List<String> args = new ArrayList<>(List.of(line));
    args.add("--db");
    args.add(db.toString());
    String[] all = args.toArray(String[]::new);
    return Kvasir.commandLineFor(all, new Kvasir(), new PrintWriter(new StringWriter(), true),
        new PrintWriter(err, true)).execute(all);
  }
}
