package dev.kvasir.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.kvasir.testkit.Blocking;
import dev.kvasir.testkit.DenoPeer;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 22's acceptance: Deno writes a SQLite file in 50 timed batches while {@code kvasir
 * backup} (the shaded jar, another process) follows it; restoring at each batch's time gives
 * exactly that batch's rows (keys, values, versionstamps, expiries), and Deno reading each
 * restored file lists what it listed after that batch.
 */
class BackupDenoIT {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int BATCHES = 50;
  /** How long each batch's state lasts: well above the backup's 50 ms look. */
  private static final long QUIET_MS = 250;

  @TempDir Path dir;

  /** One batch: Deno's listing, the file's rows, and a time at which the file held them. */
  private record Batch(JsonNode denoListing, List<String> rows, Instant time) {}

  @Test
  void restoringAtEachBatchTime_givesThatBatchExactly_asDenoReadsIt() throws Exception {
    DenoPeer deno = DenoPeer.require(dir.resolve("deno"));
    Path app = dir.resolve("app.sqlite3");
    Process writer = deno.start("batches.ts", app.toString(), Integer.toString(BATCHES));
    BufferedReader denoOut = new BufferedReader(new InputStreamReader(writer.getInputStream(),
        StandardCharsets.UTF_8));
    assertThat(denoOut.readLine()).isEqualTo("{\"ready\":true}");

    Process backup = new Jar(dir).start("backup", "--db", app.toString(), "--to", "dag:bk",
        "--json");
    BufferedReader backupOut = new BufferedReader(new InputStreamReader(backup.getInputStream(),
        StandardCharsets.UTF_8));
    CompletableFuture<String> backupErr = Blocking.call(() -> {
      try {
        return new String(backup.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
      } catch (IOException e) {
        return e.toString();
      }
    });
    assertThat(backupOut.readLine()).as("the first copy").contains("\"commit\"");

    List<Batch> batches = new ArrayList<>();
    try (OutputStream toDeno = writer.getOutputStream()) {
      for (int b = 0; b < BATCHES; b++) {
        toDeno.write('\n');
        toDeno.flush();
        String line = denoOut.readLine();
        assertThat(line).as("batch %d", b).isNotNull();
        JsonNode done = JSON.readTree(line);
        assertThat(done.get("batch").asInt()).as(line).isEqualTo(b);
        List<String> rows = rows(app);
        Thread.sleep(QUIET_MS);
        batches.add(new Batch(done.get("entries"), rows, Instant.now()));
      }
    }
    assertThat(writer.waitFor(60, TimeUnit.SECONDS)).isTrue();
    backup.toHandle().destroy(); // SIGTERM alone (Process.destroy closes the pipes too)
    assertThat(backup.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(backup.exitValue()).as(backupErr.get()).isZero();

    List<String> restoredFiles = new ArrayList<>();
    for (int b = 0; b < BATCHES; b++) {
      Path restored = dir.resolve("restored-" + b + ".sqlite3");
      StringWriter out = new StringWriter();
      StringWriter err = new StringWriter();
      int exit = Kvasir.commandLine(new Kvasir(), new PrintWriter(out), new PrintWriter(err))
          .execute("restore", "--from", "dag:" + dir.resolve("bk"), "--at",
              batches.get(b).time().toString(), "--to", restored.toString());
      assertThat(exit).as(err.toString()).isZero();
      assertThat(rows(restored)).as("batch %d's rows", b).isEqualTo(batches.get(b).rows());
      restoredFiles.add(restored.toString());
    }

    String[] lines = deno.run("read_each.ts", restoredFiles.toArray(String[]::new)).split("\n");
    assertThat(lines).hasSize(BATCHES);
    for (int b = 0; b < BATCHES; b++) {
      assertThat(JSON.readTree(lines[b]).get("entries")).as("Deno reads restored batch %d", b)
          .isEqualTo(batches.get(b).denoListing());
    }
  }

  /** Every row of the file's key table, as Deno stored it: key, value, version, expiry. */
  private static List<String> rows(Path file) throws Exception {
    List<String> rows = new ArrayList<>();
    HexFormat hex = HexFormat.of();
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:file:" + file + "?mode=ro");
        ResultSet r = c.createStatement().executeQuery(
            "select k, v, v_encoding, version, expiration_ms from kv order by k")) {
      while (r.next()) {
        rows.add(hex.formatHex(r.getBytes(1)) + " " + hex.formatHex(r.getBytes(2)) + " "
            + r.getInt(3) + " " + r.getLong(4) + " " + r.getLong(5));
      }
    }
    return rows;
  }
}
