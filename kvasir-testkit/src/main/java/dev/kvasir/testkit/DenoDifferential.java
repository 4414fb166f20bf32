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
import dev.kvasir.testkit.RandomOperations.Via;
import dev.kvasir.value.KvU64;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.LongStream;
import org.jspecify.annotations.Nullable;

/**
 * The real Deno and a Kvasir database run the same random operations, Deno on a SQLite file of
 * its own. Atomic commits: checks of current, absent and impossible versionstamps, sets of
 * every kind of value (some expiring in days), versionstamped keys, deletes, and u64 sums,
 * minimums and maximums, including ones that fail on a stored value of another type. Commits
 * and reads (gets, getManys, lists, watches) one step under, at or over a limit of
 * docs/limits.md, whose errors compare by the limit they name. Lists: by prefix, start, end or
 * range, with limits, reversed, in small batches, and resumed from their cursors. Every commit
 * must end alike (committed, refused by a check, or the same error message), every list must
 * give the same keys and the same cursor, and afterwards both databases must hold the same
 * rows byte for byte, each written by the commit of the same number (versions are random,
 * docs/sqlite.md §4), with expiries as far apart as the two runs ({@link DenoRows}). The one
 * difference accepted, and printed, is an integral number that Deno's V8 wrote as a double
 * where Kvasir writes an integer ({@link IntegralDoubles}, docs/values.md §6).
 *
 * <p>A sum, minimum or maximum that may fail is the only mutation of its commit: Deno keeps
 * the mutations before a failing one, Kvasir keeps none (docs/atomic.md §6). Reading Deno's
 * file needs the SQLite engine on the class path.
 */
public final class DenoDifferential {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  /**
   * The limits' errors: which limit, then anything, then its maximum if named, then anything
   * (Kvasir's errors may go on with a hint, as getMany's names getAll).
   */
  private static final Pattern LIMIT_ERROR = Pattern.compile("(?i)(key too large for write"
      + "|key too large for read|value too large|total mutation size too large"
      + "|total key size too large|too many mutations|too many ranges|too many entries"
      + "|too many keys|too many checks|key cannot be empty|enqueue payload too large)"
      + "\\b.*?(?:\\(max (\\d+)(?: bytes)?\\).*)?");
  private static final Pattern CLIENT_ERROR =
      Pattern.compile("^KV Connect failed to call '[^']*' \\(status=400 Bad Request\\): ");

  private DenoDifferential() {}

  /**
   * The seeds of an opt-in long run: {@code -Ddifferential.seeds=N} gives N seeds from 1000,
   * past those the build runs, or from {@code -Ddifferential.firstSeed=S}, so that another long
   * run explores seeds no run has tried; none without it.
   */
  public static LongStream moreSeeds() {
    long first = Long.getLong("differential.firstSeed", 1000);
    return LongStream.range(first, first + Integer.getInteger("differential.seeds", 0));
  }

  /**
   * Runs {@code operations} random operations from {@code seed} through Deno (in {@code dir},
   * an empty directory: Deno's database is made there) and through {@code kvasir}, a local
   * database that starts empty, and asserts that they agree.
   */
  public static void assertAgree(Kv kvasir, Path dir, long seed, int operations)
      throws IOException, InterruptedException {
    assertAgree(kvasir, kvasir, Via.ENGINE, dir, seed, operations);
  }

  /**
   * As {@link #assertAgree(Kv, Path, long, int)}, committing through {@code remote}, Kvasir's
   * client of a {@code KvServer}, and reading the rows from {@code stored}, the local database
   * behind the server. The check count is not probed: the server allows 10 checks, Deno's own
   * engine 100 (docs/limits.md §3).
   */
  public static void assertRemoteAgrees(Kv remote, Kv stored, Path dir, long seed,
      int operations) throws IOException, InterruptedException {
    assertAgree(remote, stored, Via.KVASIR_CLIENT, dir, seed, operations);
  }

  private static void assertAgree(Kv kvasir, Kv stored, Via via, Path dir, long seed,
      int operations) throws IOException, InterruptedException {
    ArrayNode planned = plan(dir, seed, operations, via);
    DenoPeer deno = DenoPeer.require(dir.resolve("deno"));
    String denoFile = dir.resolve("deno.sqlite3").toString();
    Run denoRun = runDeno(deno, denoFile, dir);
    long start = System.currentTimeMillis();
    ArrayNode answers = NODES.arrayNode();
    for (JsonNode op : planned) {
      answers.add(switch (op.get("op").asText()) {
        case "list" -> DenoLists.list(kvasir, op);
        case "read" -> DenoReadLimits.read(kvasir, op);
        default -> run(kvasir, op);
      });
    }
    Run kvasirRun = new Run(answers, start, System.currentTimeMillis());
    assertSameOutcomes(planned, denoRun, kvasirRun, denoFile, stored);
  }

  /**
   * The real Deno runs the same random operations twice: on a SQLite file of its own, and as a
   * KV Connect client of {@code url}, a server of Kvasir's whose database {@code stored} starts
   * empty ({@code token} is its access token). Both runs must end alike and leave the same rows,
   * as in {@link #assertAgree(Kv, Path, long, int)}: what Deno's own client sends and reads
   * back through the server must do what it does on Deno's own engine. No commit enqueues:
   * Deno's KV Connect client does not; nor more than 10 checks, the server's limit.
   */
  public static void assertServedAgrees(String url, String token, Kv stored, Path dir, long seed,
      int operations) throws IOException, InterruptedException {
    ArrayNode planned = plan(dir, seed, operations, Via.DENO_CLIENT);
    DenoPeer deno = DenoPeer.require(dir.resolve("deno"));
    String denoFile = dir.resolve("deno.sqlite3").toString();
    Run denoRun = runDeno(deno, denoFile, dir);
    Run served = runDeno(deno.env("DENO_KV_ACCESS_TOKEN", token), url, dir);
    ArrayNode answers = NODES.arrayNode();
    for (int i = 0; i < planned.size(); i++) {
      JsonNode answer = served.results().get(i);
      answers.add(planned.get(i).get("op").asText().equals("list")
          ? DenoLists.fromDeno(answer) : answer);
    }
    assertSameOutcomes(planned, denoRun, new Run(answers, served.startMs(), served.endMs()),
        denoFile, stored);
  }

  /**
   * One side's answers, an element for each operation (a list's in {@link DenoLists}' form, a
   * commit's or a read's as differential.ts gives it), and when that side ran them.
   */
  private record Run(JsonNode results, long startMs, long endMs) {}

  /** The operations of {@code seed}, also written to {@code dir} for differential.ts. */
  private static ArrayNode plan(Path dir, long seed, int operations, Via via)
      throws IOException {
    ArrayNode planned = new RandomOperations(new Random(seed), via).operations(operations);
    Files.writeString(dir.resolve("operations.json"), JSON.writeValueAsString(planned));
    return planned;
  }

  private static Run runDeno(DenoPeer deno, String database, Path dir)
      throws IOException, InterruptedException {
    long start = System.currentTimeMillis();
    JsonNode results = JSON.readTree(deno.run("differential.ts", database,
        dir.resolve("operations.json").toString()));
    return new Run(results, start, System.currentTimeMillis());
  }

  /**
   * Compares the other side's answers with Deno's, then the rows of Deno's file with those of
   * {@code stored} ({@link DenoRows}).
   */
  private static void assertSameOutcomes(ArrayNode planned, Run deno, Run other,
      String denoFile, Kv stored) {
    List<String> denoStamps = new ArrayList<>();
    List<String> otherStamps = new ArrayList<>();
    Set<String> outcomes = new TreeSet<>();
    int listedKeys = 0;
    int resumed = 0;
    for (int i = 0; i < planned.size(); i++) {
      JsonNode op = planned.get(i);
      JsonNode d = deno.results().get(i);
      JsonNode k = other.results().get(i);
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
        otherStamps.add(k.get("versionstamp").asText());
      }
    }
    List<DenoRows.Row> denoRows;
    try (Kv denoKv = Kv.open(denoFile, KvOptions.defaults().with("sqlite.readOnly", "true"))) {
      denoRows = DenoRows.of(denoKv, denoStamps);
    }
    DenoRows.assertSame(DenoRows.of(stored, otherStamps), denoRows,
        other.startMs() - deno.endMs(), other.endMs() - deno.startMs());
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
          case "set" -> op.set(key, value(m.get("value")), expireIn(m));
          case "delete" -> op.delete(key);
          case "sum" -> op.sum(key, u64(m));
          case "min" -> op.min(key, u64(m));
          case "max" -> op.max(key, u64(m));
          default -> op.setVersionstamped(key, value(m.get("value")), expireIn(m));
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
        x.properties().forEach(f -> object.put(f.getKey(), value(f.getValue())));
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

  private static @Nullable Duration expireIn(JsonNode mutation) {
    return mutation.has("expireIn") ? Duration.ofMillis(mutation.get("expireIn").asLong()) : null;
  }

  private static KvU64 u64(JsonNode mutation) {
    return KvU64.of(new BigInteger(mutation.get("u64").asText()));
  }
}
