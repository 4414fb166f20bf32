package dev.kvasir.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * The random operations of {@link DenoDifferential}, atomic commits and lists, described in
 * JSON for Deno's side and Kvasir's: key parts and values as small objects naming their
 * JavaScript type.
 */
final class RandomOperations {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final String[] MUTATORS = {"sum", "min", "max"};
  /** The read probes and the limit each probes, in the order of {@link #readProbe()}'s doc. */
  private static final String[] READ_PROBES = {"get", "getMany", "listPrefix", "listStart",
      "listEnd", "batchSize", "watch", "watchMany"};
  private static final int[] READ_LIMITS = {2_048, 10, 2_048, 2_049, 2_049, 1_000, 2_049, 10};

  private final Random random;
  /** Keys that only ever hold u64 values, so that no mutation of several fails half-way. */
  private final List<ArrayNode> counters = new ArrayList<>();
  private final List<ArrayNode> keys = new ArrayList<>();
  private final Via via;

  /** How the operations reach the database, which decides what may be probed. */
  enum Via {
    /** Kvasir's API on a local engine: every probe. */
    ENGINE,
    /**
     * Kvasir's client through {@code KvServer}: no probe of the check count, which the server
     * limits to 10 as denokv's does, where Deno's own engine allows 100 (docs/limits.md §3).
     */
    KVASIR_CLIENT,
    /** Deno's client through {@code KvServer}: no check count either, and no enqueues. */
    DENO_CLIENT
  }

  /** Operations drawn from {@code random}, for a run {@code via} that route. */
  RandomOperations(Random random, Via via) {
    this.random = random;
    this.via = via;
    for (int i = 0; i < 4; i++) {
      counters.add(parts(part("s", "counter"), number(i)));
    }
    ObjectNode[] firsts = {part("s", "a"), part("s", "é"), part("s", "😀"),
        number(-2.5), number(7), part("b", "10"), part("t", true),
        bytesPart(0), bytesPart(1, 2)};
    ObjectNode[] seconds = {part("s", "x"), number(0), number(1e300),
        part("b", "-1"), part("t", false), bytesPart(9)};
    for (ObjectNode first : firsts) {
      keys.add(parts(first));
      for (ObjectNode second : seconds) {
        keys.add(parts(first, second));
      }
    }
  }

  /**
   * {@code n} operations. The first go one over each read limit, whatever the seed: random
   * probes cover a few limits a run, and an error of Kvasir's that reads unlike Deno's went
   * unnoticed for as long as no seed of the build drew its probe.
   */
  ArrayNode operations(int n) {
    ArrayNode out = NODES.arrayNode();
    for (int i = 0; i < Math.min(n, READ_PROBES.length); i++) {
      out.add(readProbe(i, 1));
    }
    for (int i = out.size(); i < n; i++) {
      int kind = random.nextInt(72);
      out.add(kind < 12 ? list() : kind < 18 ? limitProbe() : kind < 21 ? readProbe() : commit());
    }
    return out;
  }

  /**
   * A list: by prefix, from or up to a key under it, or a range under it; with or without a
   * limit, reversed or not, in Deno's batches or small ones. Each side then lists again from
   * the cursor it got. Only the keys of {@link #keys} are listed: a versionstamped key differs
   * between the sides.
   */
  private ObjectNode list() {
    ObjectNode list = NODES.objectNode().put("op", "list");
    ArrayNode prefix = parts((ObjectNode) pick(keys).get(0));
    List<ArrayNode> under = keys.stream().filter(k -> startsWith(k, prefix)
        && k.size() > prefix.size()).toList();
    ObjectNode selector = list.putObject("selector");
    switch (random.nextInt(4)) {
      case 0 -> selector.set("prefix", prefix);
      case 1 -> selector.setAll(Map.of("prefix", prefix, "start", pick(under)));
      case 2 -> selector.setAll(Map.of("prefix", prefix, "end", pick(under)));
      default -> {
        ArrayNode a = pick(under);
        ArrayNode b = pick(under);
        boolean ordered = DenoDifferential.key(a).compareTo(DenoDifferential.key(b)) <= 0;
        selector.set("start", ordered ? a : b);
        selector.set("end", ordered ? b : a);
      }
    }
    ObjectNode options = list.putObject("options");
    if (random.nextBoolean()) {
      options.put("limit", 1 + random.nextInt(5));
    }
    options.put("reverse", random.nextBoolean());
    if (random.nextBoolean()) {
      options.put("batchSize", List.of(1, 3, 7).get(random.nextInt(3)));
    }
    return list;
  }

  private static boolean startsWith(ArrayNode key, ArrayNode prefix) {
    for (int i = 0; i < prefix.size(); i++) {
      if (i >= key.size() || !key.get(i).equals(prefix.get(i))) {
        return false;
      }
    }
    return true;
  }

  private ObjectNode commit() {
    ObjectNode commit = NODES.objectNode().put("op", "commit");
    ArrayNode checks = commit.putArray("checks");
    for (int i = random.nextInt(3); i > 0; i--) {
      ObjectNode check = checks.addObject();
      check.set("key", anyKey());
      check.put("kind", List.of("current", "current", "absent", "impossible")
          .get(random.nextInt(4)));
    }
    ArrayNode mutations = commit.putArray("mutations");
    if (random.nextInt(8) == 0) {
      // Alone in its commit, as it fails wherever the key holds another type.
      mutator(mutations, pick(keys));
      return commit;
    }
    for (int i = 1 + random.nextInt(4); i > 0; i--) {
      switch (random.nextInt(7)) {
        case 0, 1, 2 -> {
          ObjectNode set = mutations.addObject().put("type", "set");
          set.set("key", pick(keys));
          set.set("value", anyValue());
          maybeExpiring(set);
        }
        case 3 -> mutations.addObject().put("type", "delete").set("key", anyKey());
        case 4 -> {
          ObjectNode set = mutations.addObject().put("type", "set");
          set.set("key", pick(counters));
          set.set("value", NODES.objectNode().put("u64", u64()));
          maybeExpiring(set); // until a sum, minimum or maximum clears it
        }
        case 5 -> mutator(mutations, pick(counters));
        default -> {
          // Under a prefix of its own: the key ends in the commit's versionstamp, which
          // differs between the sides, and sorts in commit order on both.
          ObjectNode set = mutations.addObject().put("type", "stamped");
          set.set("key", parts(part("s", "log")));
          set.set("value", anyValue());
          maybeExpiring(set);
        }
      }
    }
    return commit;
  }

  /**
   * A commit one byte under, at or one byte over one of Deno's limits (docs/limits.md §1–§2):
   * a value's size, a key's, a versionstamped key's prefix, the mutations of a commit, the total
   * mutation size, the total key size, a queue payload's size or the checks of a commit (as
   * {@link #via} allows). Keys are under {@code ["limit"]}, which lists never read. Sizes: a
   * string part of n one-byte characters encodes in n + 2 bytes, a number part in 9, so {@code
   * ["limit"]} takes 7; a string value of n ≥ 16 384 such characters is n + 6 V8 bytes (header,
   * tag, a three-byte length).
   */
  private ObjectNode limitProbe() {
    int over = random.nextInt(3) - 1; // -1 under, 0 at, +1 over the limit
    ObjectNode commit = NODES.objectNode().put("op", "commit");
    ArrayNode checks = commit.putArray("checks");
    ArrayNode mutations = commit.putArray("mutations");
    List<String> probes = new ArrayList<>(List.of("value", "key", "stamped", "mutations",
        "mutationSize", "keySize"));
    if (via != Via.DENO_CLIENT) {
      probes.add("payload");
    }
    if (via == Via.ENGINE) {
      probes.add("checks");
    }
    switch (probes.get(random.nextInt(probes.size()))) {
      case "value" -> set(mutations, "set", parts(part("s", "limit"), part("s", "value")),
          repeated(65_536 + over - 6));
      case "key" -> set(mutations, "set", parts(part("s", "limit"), repeated(2_048 + over - 9)),
          number(1));
      case "stamped" -> set(mutations, "stamped",
          parts(part("s", "limit"), repeated(2_048 + over - 9)), number(1));
      case "mutations" -> {
        int count = 1_000 + over;
        for (int i = 0; i < count - 1; i++) {
          mutations.addObject().put("type", "delete")
              .set("key", parts(part("s", "limit"), part("s", "m"), number(i)));
        }
        set(mutations, "set", parts(part("s", "limit"), part("s", "mutations")), number(count));
      }
      case "mutationSize" -> {
        // 13 sets of a 19-byte key: each counts its key twice and its value once.
        int rest = 819_200 + over - 13 * 2 * 19;
        for (int i = 0; i < 13; i++) {
          int valueBytes = i < 12 ? rest / 13 : rest - 12 * (rest / 13);
          set(mutations, "set", parts(part("s", "limit"), part("s", "t"), number(i)),
              repeated(valueBytes - 6));
        }
      }
      case "keySize" -> {
        // 40 keys of 2 000 bytes and one of the rest; a key is 21 bytes besides its text.
        for (int i = 0; i < 41; i++) {
          int keyBytes = i < 40 ? 2_000 : 81_920 + over - 40 * 2_000;
          set(mutations, "set", parts(part("s", "limit"), part("s", "k"), number(i),
              repeated(keyBytes - 21)), NODES.nullNode());
        }
      }
      case "payload" -> {
        // A queue payload, due in a day: never delivered during the run.
        set(mutations, "set", parts(part("s", "limit"), part("s", "enqueued")), number(1));
        commit.putArray("enqueues").add(repeated(65_536 + over - 6));
      }
      default -> {
        // 100 checks that the keys are absent, which they are.
        int count = 100 + over;
        for (int i = 0; i < count; i++) {
          checks.addObject().put("kind", "absent")
              .set("key", parts(part("s", "limit"), part("s", "c"), number(i)));
        }
        set(mutations, "set", parts(part("s", "limit"), part("s", "checks")), number(count));
      }
    }
    return commit;
  }

  /**
   * A read one step under, at or over one of Deno's read limits (docs/limits.md §1), run by
   * {@link DenoReadLimits} and differential.ts: the key of a get (2 048 bytes, its range ends
   * 2 049), the keys of a getMany (10), the prefix of a list (2 048), a list's start or end
   * (2 049), a list's batch size (1 000 entries), a watched key (2 049) and the keys of a
   * watch (10). Sizes are of keys of one text part.
   */
  private ObjectNode readProbe() {
    return readProbe(random.nextInt(READ_PROBES.length), random.nextInt(3) - 1);
  }

  /** The probe of {@code READ_PROBES[i]}, {@code over} its limit (-1, 0 or 1). */
  private static ObjectNode readProbe(int i, int over) {
    return NODES.objectNode().put("op", "read").put("kind", READ_PROBES[i]).put("size",
        READ_LIMITS[i] + over);
  }

  private static void set(ArrayNode mutations, String type, ArrayNode key, JsonNode value) {
    ObjectNode set = mutations.addObject().put("type", type);
    set.set("key", key);
    set.set("value", value);
  }

  /** A string of {@code n} letters x, as a key part or a value. */
  private static ObjectNode repeated(int n) {
    return NODES.objectNode().put("x", n);
  }

  /**
   * One set in four expires, in 1 to 30 days and some milliseconds: long after the run, so
   * that no read meets an expired entry (Deno returns those until its sweep, Kvasir never,
   * docs/sqlite.md §6).
   */
  private void maybeExpiring(ObjectNode set) {
    if (random.nextInt(4) == 0) {
      set.put("expireIn", (1 + random.nextInt(30)) * 86_400_000L + random.nextInt(86_400_000));
    }
  }

  private void mutator(ArrayNode mutations, ArrayNode key) {
    ObjectNode m = mutations.addObject().put("type", MUTATORS[random.nextInt(3)]);
    m.set("key", key);
    m.put("u64", u64());
  }

  private String u64() {
    return switch (random.nextInt(3)) {
      case 0 -> Integer.toString(random.nextInt(100));
      case 1 -> "18446744073709551615";
      default -> new BigInteger(64, random).toString();
    };
  }

  private ArrayNode anyKey() {
    return random.nextInt(5) == 0 ? pick(counters) : pick(keys);
  }

  private ArrayNode pick(List<ArrayNode> from) {
    return from.get(random.nextInt(from.size()));
  }

  private JsonNode anyValue() {
    return switch (random.nextInt(12)) {
      case 0 -> NODES.nullNode();
      case 1 -> NODES.objectNode().put("s", "text " + random.nextInt(100));
      case 2 -> NODES.objectNode().put("s", "é😀 " + random.nextInt(100));
      case 3 -> number(random.nextInt(2001) - 1000);
      case 4 -> number(random.nextGaussian() * 1e6);
      case 5 -> number(List.of(2147483647L, -2147483648L, 1L << 31, 1L << 40, 1L << 53)
          .get(random.nextInt(5)));
      case 6 -> NODES.objectNode().put("b", new BigInteger(80, random).negate().toString());
      case 7 -> NODES.objectNode().put("t", random.nextBoolean());
      case 8 -> {
        ObjectNode v = NODES.objectNode();
        ArrayNode bytes = v.putArray("u");
        for (int i = random.nextInt(5); i > 0; i--) {
          bytes.add(random.nextInt(256));
        }
        yield v;
      }
      case 9 -> NODES.objectNode().put("u64", u64());
      case 10 -> {
        ObjectNode v = NODES.objectNode();
        v.putArray("list").add(anyValue()).add(NODES.objectNode().put("s", "x"));
        yield v;
      }
      default -> {
        ObjectNode v = NODES.objectNode();
        ObjectNode object = v.putObject("obj");
        object.set("n", number(random.nextInt(5)));
        object.set("nested", anyValue());
        yield v;
      }
    };
  }

  /**
   * A number as decimal text, which both sides parse. Read from a JSON number, V8 may hold an
   * integer in a double field and store it as {@code N} where a fresh one is stored as
   * {@code I} (docs/values.md §6); {@code Number(text)} gives a fresh one.
   */
  private static ObjectNode number(double n) {
    return NODES.objectNode().put("n", Double.toString(n));
  }

  private static ObjectNode part(String type, Object value) {
    return JSON.valueToTree(Map.of(type, value));
  }

  private static ObjectNode bytesPart(int... bytes) {
    ObjectNode p = NODES.objectNode();
    ArrayNode u = p.putArray("u");
    for (int b : bytes) {
      u.add(b);
    }
    return p;
  }

  private static ArrayNode parts(ObjectNode... parts) {
    ArrayNode key = NODES.arrayNode();
    for (ObjectNode p : parts) {
      key.add(p);
    }
    return key;
  }
}
