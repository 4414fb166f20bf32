package dev.kvasir.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kvasir.AtomicOperation;
import dev.kvasir.CommitResult;
import dev.kvasir.EnqueueOptions;
import dev.kvasir.Kv;
import dev.kvasir.KvKey;
import dev.kvasir.base.KvException;
import dev.kvasir.base.KvOptions;
import dev.kvasir.base.Versionstamp;
import dev.kvasir.spi.StoredEntry;
import dev.kvasir.value.KvU64;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.BiFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The real Deno and a Kvasir database run the same random operations, Deno on a SQLite file of
 * its own. Atomic commits: checks of current, absent and impossible versionstamps, sets of
 * every kind of value, versionstamped keys, deletes, and u64 sums, minimums and maximums,
 * including ones that fail on a stored value of another type. Commits and reads (gets, getManys,
 * lists, watches) one step under, at or over a limit of docs/limits.md, whose errors compare by
 * the limit they name. Lists: by prefix, start, end or range, with limits, reversed, in small
 * batches, and resumed from their cursors. Every commit must end alike (committed, refused by a
 * check, or the same error message), every list must give the same keys and the same cursor,
 * and afterwards both databases must hold the same rows byte for byte, each written by the
 * commit of the same number (versions are random, docs/sqlite.md §4).
 *
 * <p>A sum, minimum or maximum that may fail is the only mutation of its commit: Deno keeps
 * the mutations before a failing one, Kvasir keeps none (docs/atomic.md §6). Reading Deno's
 * file needs the SQLite engine on the class path.
 */
public final class DenoDifferential {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final Pattern LIMIT_ERROR = Pattern.compile("(?i)(key too large for write"
      + "|key too large for read|value too large|total mutation size too large"
      + "|total key size too large|too many mutations|too many ranges|too many entries"
      + "|too many keys|key cannot be empty|enqueue payload too large)\\b.*?(?:\\(max (\\d+)(?: bytes)?\\))?");

  private static final Pattern CLIENT_ERROR =
      Pattern.compile("^KV Connect failed to call '[^']*' \\(status=400 Bad Request\\): ");

  private DenoDifferential() {}

  /**
   * Runs {@code operations} random operations from {@code seed} through Deno (in {@code dir},
   * an empty directory: Deno's database is made there) and through {@code kvasir}, a local
   * database that starts empty, and asserts that they agree.
   */
  public static void assertAgree(Kv kvasir, Path dir, long seed, int operations)
      throws IOException, InterruptedException {
    assertAgree(kvasir, kvasir, dir, seed, operations);
  }

  /**
   * As {@link #assertAgree(Kv, Path, long, int)}, committing through {@code kvasir} (a remote
   * database, say) and reading the rows from {@code stored}, the local database behind it.
   */
  public static void assertAgree(Kv kvasir, Kv stored, Path dir, long seed, int operations)
      throws IOException, InterruptedException {
    ArrayNode planned = plan(dir, seed, operations, true);
    DenoPeer deno = DenoPeer.require(dir.resolve("deno"));
    String denoFile = dir.resolve("deno.sqlite3").toString();
    JsonNode denoResults = runDeno(deno, denoFile, dir);
    assertSameOutcomes(planned, denoResults, denoFile, stored, (i, op) -> switch (
        op.get("op").asText()) {
      case "list" -> DenoLists.list(kvasir, op);
      case "read" -> DenoReadLimits.read(kvasir, op);
      default -> run(kvasir, op);
    });
  }

  /**
   * The real Deno runs the same random operations twice: on a SQLite file of its own, and as a
   * KV Connect client of {@code url}, a server of Kvasir's whose database {@code stored} starts
   * empty ({@code token} is its access token). Both runs must end alike and leave the same rows,
   * as in {@link #assertAgree(Kv, Path, long, int)}: what Deno's own client sends and reads
   * back through the server must do what it does on Deno's own engine. No commit enqueues:
   * Deno's KV Connect client does not.
   */
  public static void assertServedAgrees(String url, String token, Kv stored, Path dir, long seed,
      int operations) throws IOException, InterruptedException {
    ArrayNode planned = plan(dir, seed, operations, false);
    DenoPeer deno = DenoPeer.require(dir.resolve("deno"));
    String denoFile = dir.resolve("deno.sqlite3").toString();
    JsonNode denoResults = runDeno(deno, denoFile, dir);
    JsonNode servedResults = runDeno(deno.env("DENO_KV_ACCESS_TOKEN", token), url, dir);
    assertSameOutcomes(planned, denoResults, denoFile, stored, (i, op) ->
        op.get("op").asText().equals("list") ? DenoLists.fromDeno(servedResults.get(i))
            : servedResults.get(i));
  }

  /** The operations of {@code seed}, also written to {@code dir} for differential.ts. */
  private static ArrayNode plan(Path dir, long seed, int operations, boolean enqueues)
      throws IOException {
    ArrayNode planned = new RandomOperations(new Random(seed), enqueues).operations(operations);
    Files.writeString(dir.resolve("operations.json"), JSON.writeValueAsString(planned));
    return planned;
  }

  private static JsonNode runDeno(DenoPeer deno, String database, Path dir)
      throws IOException, InterruptedException {
    return JSON.readTree(deno.run("differential.ts", database,
        dir.resolve("operations.json").toString()));
  }

  /**
   * Compares each answer of the other side ({@code answer} of the operation's index and
   * description: a list's in {@link DenoLists}' form, a commit's or a read's in Deno's) with
   * Deno's, then the rows of Deno's file with those of {@code stored}.
   */
  private static void assertSameOutcomes(ArrayNode planned, JsonNode denoResults,
      String denoFile, Kv stored, BiFunction<Integer, JsonNode, JsonNode> answer) {
    int operations = planned.size();
    List<String> denoStamps = new ArrayList<>();
    List<String> kvasirStamps = new ArrayList<>();
    Set<String> outcomes = new TreeSet<>();
    int listedKeys = 0;
    int resumed = 0;
    for (int i = 0; i < operations; i++) {
      JsonNode op = planned.get(i);
      JsonNode d = denoResults.get(i);
      JsonNode k = answer.apply(i, op);
      if (op.get("op").asText().equals("list")) {
        JsonNode listed = DenoLists.fromDeno(d);
        assertThat(k).as("operation %d: %s", i, op).isEqualTo(listed);
        listedKeys += listed.path("keys").size();
        resumed += listed.has("then") ? 1 : 0;
        continue;
      }
      assertThat(outcome(k)).as("operation %d: %s", i, op).isEqualTo(outcome(d));
      outcomes.add(outcome(d));
      if (d.has("versionstamp")) {
        denoStamps.add(d.get("versionstamp").asText());
        kvasirStamps.add(k.get("versionstamp").asText());
      }
    }
    List<String> denoRows;
    try (Kv denoKv = Kv.open(denoFile, KvOptions.defaults().with("sqlite.readOnly", "true"))) {
      denoRows = rows(denoKv, denoStamps);
    }
    List<String> kvasirRows = rows(stored, kvasirStamps);
    for (int i = 0; i < Math.min(denoRows.size(), kvasirRows.size()); i++) {
      assertThat(kvasirRows.get(i)).as("row %d (key, encoding, value, expiry, commit)", i)
          .isEqualTo(denoRows.get(i));
    }
    assertThat(kvasirRows).hasSameSizeAs(denoRows);
    assertThat(denoRows).as("rows left at the end").hasSizeGreaterThan(10)
        .as("versionstamped keys").anyMatch(row -> row.contains("<commit"));
    assertThat(outcomes).as("how commits ended").contains("ok: true", "ok: false")
        .anyMatch(o -> o.startsWith("error: Failed to perform"))
        .anyMatch(o -> o.startsWith("error: limit: "));
    assertThat(listedKeys).as("keys listed").isGreaterThan(20);
    assertThat(resumed).as("lists resumed from their cursor").isPositive();
  }

  /** Runs one commit on Kvasir and describes how it ended, as differential.ts does. */
  private static JsonNode run(Kv kv, JsonNode commit) {
    ObjectNode result = NODES.objectNode();
    try {
      AtomicOperation op = kv.atomic();
      for (JsonNode c : commit.get("checks")) {
        KvKey key = key(c.get("key"));
        op.check(key, switch (c.get("kind").asText()) {
          case "current" -> kv.get(key).versionstamp();
          case "absent" -> null;
          default -> Versionstamp.ofVersion(0);
        });
      }
      for (JsonNode m : commit.get("mutations")) {
        KvKey key = key(m.get("key"));
        switch (m.get("type").asText()) {
          case "set" -> op.set(key, value(m.get("value")));
          case "delete" -> op.delete(key);
          case "sum" -> op.sum(key, u64(m));
          case "min" -> op.min(key, u64(m));
          case "max" -> op.max(key, u64(m));
          default -> op.setVersionstamped(key, value(m.get("value")));
        }
      }
      for (JsonNode payload : commit.path("enqueues")) {
        op.enqueue(value(payload), EnqueueOptions.defaults().delay(Duration.ofDays(1)));
      }
      CommitResult r = op.commit();
      result.put("ok", r.ok());
      if (r.ok()) {
        result.put("versionstamp", r.versionstamp().toString());
      }
    } catch (KvException e) {
      result.put("error", e.getMessage());
    }
    return result;
  }

  /**
   * How a commit ended, without its versionstamp (each side draws its own). A limit's error is
   * reduced to the limit it names and its maximum, as the sides word it differently.
   */
  private static String outcome(JsonNode result) {
    return result.has("error") ? "error: " + limitNamed(unwrapped(result.get("error").asText()))
        : "ok: " + result.get("ok").asBoolean();
  }

  /**
   * The server's text of an error that Deno's KV Connect client reports with the request's URL
   * and status, as it does for denokv's server: a type mismatch comes back as status 400 with
   * the mismatch text (docs/kv-connect.md §8). The status must be 400 to be unwrapped.
   */
  private static String unwrapped(String message) {
    return CLIENT_ERROR.matcher(message).replaceFirst("");
  }

  /**
   * Deno's {@code Value too large (max 65536 bytes)} and Kvasir's {@code value too large: 65537
   * bytes (max 65536)} both as {@code limit: value too large (max 65536)}, and so on for each
   * limit of docs/limits.md §1 that {@link RandomOperations} probes; other messages as they are.
   */
  static String limitNamed(String message) {
    Matcher m = LIMIT_ERROR.matcher(message);
    if (!m.matches()) {
      return message;
    }
    return "limit: " + m.group(1).toLowerCase(Locale.ROOT)
        + (m.group(2) == null ? "" : " (max " + m.group(2) + ")");
  }

  /**
   * Every row of a database, in key order, as hex key, encoding, hex value, expiry and the number
   * of the commit (among the successful ones) that wrote it. In a versionstamped key, the
   * versionstamp's text shows as that number too.
   */
  private static List<String> rows(Kv kv, List<String> stamps) {
    List<String> rows = new ArrayList<>();
    HexFormat hex = HexFormat.of();
    kv.engine().dump((StoredEntry e) -> {
      int commit = stamps.indexOf(e.versionstamp().toString());
      String key = hex.formatHex(e.key().sharedBytes()).replace(
          hex.formatHex(e.versionstamp().toString().getBytes(StandardCharsets.US_ASCII)),
          "<commit " + commit + ">");
      rows.add(key + " " + e.value().code() + " " + hex.formatHex(e.value().sharedBytes())
          + " " + e.expireAtMs() + " commit " + commit);
    });
    return rows;
  }

  /** The key that JSON parts describe. */
  static KvKey key(JsonNode parts) {
    List<Object> out = new ArrayList<>();
    for (JsonNode p : parts) {
      out.add(p.has("u") ? bytes(p.get("u")) : value(p));
    }
    return KvKey.of(out);
  }

  static Object value(JsonNode v) {
    if (v.isNull()) {
      return null;
    }
    String type = v.fieldNames().next();
    JsonNode x = v.get(type);
    return switch (type) {
      case "s" -> x.asText();
      case "x" -> "x".repeat(x.asInt());
      case "n" -> Double.parseDouble(x.asText());
      case "b" -> new BigInteger(x.asText());
      case "t" -> x.asBoolean();
      case "u" -> bytes(x);
      case "u64" -> KvU64.of(new BigInteger(x.asText()));
      case "list" -> {
        List<Object> list = new ArrayList<>();
        x.forEach(e -> list.add(value(e)));
        yield list;
      }
      default -> {
        Map<String, Object> object = new LinkedHashMap<>();
        x.fields().forEachRemaining(f -> object.put(f.getKey(), value(f.getValue())));
        yield object;
      }
    };
  }

  private static byte[] bytes(JsonNode array) {
    byte[] out = new byte[array.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = (byte) array.get(i).asInt();
    }
    return out;
  }

  private static KvU64 u64(JsonNode mutation) {
    return KvU64.of(new BigInteger(mutation.get("u64").asText()));
  }
}
