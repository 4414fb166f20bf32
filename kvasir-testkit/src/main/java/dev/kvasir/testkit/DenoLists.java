package dev.kvasir.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kvasir.Kv;
import dev.kvasir.KvEntry;
import dev.kvasir.KvListIterator;
import dev.kvasir.ListOptions;
import dev.kvasir.ListSelector;
import java.util.HexFormat;

/**
 * The list operations of {@link DenoDifferential}: what Kvasir lists, and what Deno listed, in
 * one form: the keys' encodings in hex, the cursor after them, and the keys listed again from
 * that cursor ({@code then}), or the error.
 */
final class DenoLists {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final HexFormat HEX = HexFormat.of();

  private DenoLists() {}

  /** Runs a list of {@link RandomOperations} on Kvasir. */
  static JsonNode list(Kv kv, JsonNode op) {
    ObjectNode result = NODES.objectNode();
    try {
      ListSelector selector = selector(op.get("selector"));
      JsonNode o = op.get("options");
      ListOptions options = ListOptions.defaults().reverse(o.get("reverse").asBoolean());
      if (o.has("batchSize")) {
        options = options.batchSize(o.get("batchSize").asInt());
      }
      KvListIterator first = kv.list(selector, o.has("limit")
          ? options.limit(o.get("limit").asInt()) : options);
      result.set("keys", keys(first));
      String cursor = first.cursor();
      result.put("cursor", cursor);
      if (!cursor.isEmpty()) {
        result.set("then", keys(kv.list(selector, options.cursor(cursor))));
      }
    } catch (RuntimeException e) {
      return NODES.objectNode().put("error", e.getMessage());
    }
    return result;
  }

  /** Deno's answer in Kvasir's form: its keys described by parts become their encodings. */
  static JsonNode fromDeno(JsonNode deno) {
    if (deno.has("error")) {
      return deno;
    }
    ObjectNode result = NODES.objectNode();
    result.set("keys", encoded(deno.get("keys")));
    result.put("cursor", deno.get("cursor").asText());
    if (deno.hasNonNull("then")) {
      result.set("then", encoded(deno.get("then")));
    }
    return result;
  }

  private static ListSelector selector(JsonNode s) {
    if (!s.has("prefix")) {
      return ListSelector.range(DenoDifferential.key(s.get("start")),
          DenoDifferential.key(s.get("end")));
    }
    ListSelector prefix = ListSelector.prefix(DenoDifferential.key(s.get("prefix")));
    if (s.has("start")) {
      return prefix.withStart(DenoDifferential.key(s.get("start")));
    }
    return s.has("end") ? prefix.withEnd(DenoDifferential.key(s.get("end"))) : prefix;
  }

  private static ArrayNode keys(KvListIterator entries) {
    ArrayNode keys = NODES.arrayNode();
    for (KvEntry e : entries) {
      keys.add(HEX.formatHex(e.key().encode()));
    }
    return keys;
  }

  private static ArrayNode encoded(JsonNode described) {
    ArrayNode keys = NODES.arrayNode();
    described.forEach(k -> keys.add(HEX.formatHex(DenoDifferential.key(k).encode())));
    return keys;
  }
}
