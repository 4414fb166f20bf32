package dev.kvasir.cli;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamWriteConstraints;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kvasir.CommitResult;
import dev.kvasir.KvEntry;
import dev.kvasir.KvKey;
import dev.kvasir.base.Hex;
import dev.kvasir.key.KeyPart;
import dev.kvasir.spi.StoredEntry;
import dev.kvasir.value.V8;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/**
 * How entries are printed: one JSON object per line ({@code {"key":[…],"value":…,
 * "versionstamp":"…"}}, keys and values in {@link TypedJson}), or aligned columns for people.
 */
final class Render {
  /**
   * JSON nesting as deep as the deepest value (docs/values.md §8) becomes in {@link TypedJson}:
   * three JSON levels for each level of a Map ({@code {"$map":[[k,v]]}}), and an entry's line
   * around it. Jackson's default, 1 000, refused values Deno writes.
   */
  static final int MAX_JSON_DEPTH = 3 * V8.MAX_DEPTH + 8;

  static final ObjectMapper JSON = JsonMapper.builder(JsonFactory.builder()
      .streamReadConstraints(StreamReadConstraints.builder()
          .maxNestingDepth(MAX_JSON_DEPTH).build())
      .streamWriteConstraints(StreamWriteConstraints.builder()
          .maxNestingDepth(MAX_JSON_DEPTH).build())
      .build()).build();

  private Render() {}

  /** A key as a JSON array of typed parts, e.g. {@code ["users",{"$bigint":"7"}]}. */
  static ArrayNode keyJson(KvKey key) {
    ArrayNode parts = JSON.createArrayNode();
    for (KeyPart part : key.parts()) {
      Object value;
      if (part instanceof KeyPart.Str s) {
        value = s.value();
      } else if (part instanceof KeyPart.Num n) {
        value = n.value();
      } else if (part instanceof KeyPart.BigInt i) {
        value = i.value();
      } else if (part instanceof KeyPart.Bytes b) {
        value = b.value();
      } else {
        value = ((KeyPart.Bool) part).value();
      }
      parts.add(TypedJson.ofValue(value));
    }
    return parts;
  }

  /** The key read back from {@link #keyJson}. */
  static KvKey key(JsonNode parts) {
    if (!parts.isArray()) {
      throw new IllegalArgumentException("a key is a JSON array of parts, e.g. [\"users\", 7]");
    }
    List<Object> out = new ArrayList<>();
    for (JsonNode part : parts) {
      out.add(TypedJson.read(part));
    }
    return KvKey.of(out);
  }

  static ObjectNode entryJson(KvEntry e) {
    ObjectNode node = JSON.createObjectNode();
    node.set("key", keyJson(e.key()));
    node.set("value", e.exists() ? TypedJson.of(e.encodedValue()) : null);
    node.put("versionstamp", e.exists() ? e.versionstamp().toString() : null);
    return node;
  }

  /** An export line: key, value, versionstamp, and the expiry if the entry has one. */
  static ObjectNode storedJson(StoredEntry e) {
    ObjectNode node = JSON.createObjectNode();
    node.set("key", keyJson(KvKey.decode(e.key().sharedBytes())));
    node.set("value", TypedJson.of(e.value()));
    node.put("versionstamp", e.versionstamp().toString());
    if (e.expireAtMs() != StoredEntry.NEVER) {
      node.put("expiresAt", java.time.Instant.ofEpochMilli(e.expireAtMs()).toString());
    }
    return node;
  }

  /** A successful commit as Deno's {@code KvCommitResult}: {@code {"ok":true,"versionstamp":…}}. */
  static String commitJson(CommitResult committed) {
    ObjectNode node = JSON.createObjectNode();
    node.put("ok", true);
    node.put("versionstamp", committed.versionstamp().toString());
    return text(node);
  }

  static String value(KvEntry e, boolean raw) {
    return raw ? Hex.encode(e.encodedValue().bytes()) : text(TypedJson.of(e.encodedValue()));
  }

  /** Compact JSON; a lone surrogate (valid in JS strings) is escaped, as UTF-8 cannot carry it. */
  static String text(JsonNode json) {
    String text;
    try {
      text = JSON.writeValueAsString(json);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
    StringBuilder out = null;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      boolean lone = Character.isHighSurrogate(c)
          ? i + 1 >= text.length() || !Character.isLowSurrogate(text.charAt(i + 1))
          : Character.isLowSurrogate(c)
              && (i == 0 || !Character.isHighSurrogate(text.charAt(i - 1)));
      if (lone && out == null) {
        out = new StringBuilder(text.substring(0, i));
      }
      if (out != null) {
        out.append(lone ? String.format("\\u%04x", (int) c) : String.valueOf(c));
      }
    }
    return out == null ? text : out.toString();
  }

  /** Rows printed as aligned columns, a screenful at a time so long listings stream. */
  static final class Table {
    private static final int CHUNK = 500;
    private final PrintWriter out;
    private final List<String[]> rows = new ArrayList<>();

    Table(PrintWriter out) {
      this.out = out;
    }

    void add(String... row) {
      rows.add(row);
      if (rows.size() == CHUNK) {
        flush();
      }
    }

    void flush() {
      if (rows.isEmpty()) {
        return;
      }
      int[] widths = new int[rows.get(0).length];
      for (String[] row : rows) {
        for (int i = 0; i < row.length - 1; i++) {
          widths[i] = Math.max(widths[i], row[i].length());
        }
      }
      for (String[] row : rows) {
        StringBuilder line = new StringBuilder();
        for (int i = 0; i < row.length; i++) {
          line.append(row[i]);
          if (i < row.length - 1) {
            line.append(" ".repeat(widths[i] - row[i].length() + 2));
          }
        }
        out.println(line);
      }
      rows.clear();
      out.flush();
    }
  }
}
