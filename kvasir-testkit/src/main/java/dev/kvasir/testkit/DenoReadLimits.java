package dev.kvasir.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kvasir.Kv;
import dev.kvasir.KvKey;
import dev.kvasir.KvListIterator;
import dev.kvasir.ListOptions;
import dev.kvasir.ListSelector;
import dev.kvasir.WatchStream;
import java.util.ArrayList;
import java.util.List;

/**
 * The read probes of {@link DenoDifferential}: a get, a getMany, a list or a watch one step
 * under, at or over one of Deno's read limits (docs/limits.md §1), run on Kvasir. The answer is
 * {@code {"ok":true}} or the error; {@code differential.ts} runs the same on Deno.
 */
final class DenoReadLimits {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private DenoReadLimits() {}

  /** Runs a read probe of {@link RandomOperations} on Kvasir. */
  static JsonNode read(Kv kv, JsonNode op) {
    int size = op.get("size").asInt();
    ObjectNode result = NODES.objectNode();
    try {
      switch (op.get("kind").asText()) {
        case "get" -> kv.get(keyOfLength(size));
        case "getMany" -> kv.getMany(distinctKeys(size));
        case "listPrefix" -> drain(kv.list(ListSelector.prefix(keyOfLength(size))));
        case "listStart" -> drain(kv.list(ListSelector.range(keyOfLength(size), KvKey.of("z"))));
        case "listEnd" -> drain(kv.list(ListSelector.range(KvKey.of("a"), keyOfLength(size))));
        case "batchSize" -> drain(kv.list(ListSelector.prefix(KvKey.of("none")),
            ListOptions.defaults().batchSize(size)));
        case "watch" -> watch(kv, List.of(keyOfLength(size)));
        default -> watch(kv, distinctKeys(size));
      }
      result.put("ok", true);
    } catch (RuntimeException e) {
      result.put("error", e.getMessage());
    }
    return result;
  }

  /** A key of one text part whose encoding is {@code length} bytes, as differential.ts makes. */
  static KvKey keyOfLength(int length) {
    return KvKey.of("x".repeat(length - 2));
  }

  private static List<KvKey> distinctKeys(int n) {
    List<KvKey> keys = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      keys.add(KvKey.of("none", (double) i));
    }
    return keys;
  }

  private static void drain(KvListIterator entries) {
    entries.forEach(e -> { });
  }

  /** Opens the watch and takes its first emission, as Deno's stream gives it. */
  private static void watch(Kv kv, List<KvKey> keys) {
    try (WatchStream watch = kv.watch(keys)) {
      watch.next();
    }
  }
}
