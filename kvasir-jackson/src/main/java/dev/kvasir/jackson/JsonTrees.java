package dev.kvasir.jackson;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kvasir.base.KvTypeException;
import dev.kvasir.value.Hole;
import dev.kvasir.value.JsMap;
import dev.kvasir.value.JsSet;
import dev.kvasir.value.KvU64;
import dev.kvasir.value.Undefined;
import java.io.IOException;
import java.math.BigInteger;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * What Jackson writes as the JS value model, and the JS value model as the tree Jackson reads
 * (docs/mapping.md §6): both as JSON would carry them.
 */
final class JsonTrees {
  /** 2^53: doubles below it in magnitude that are whole read as Jackson's integers. */
  private static final double EXACT = 9007199254740992.0;

  private JsonTrees() {}

  /**
   * What Deno sees of the tokens Jackson wrote (the parser on its first token): objects,
   * arrays, strings, numbers, booleans, null. Tokens, not a tree, because Jackson's trees
   * normalise numbers (12.50 becomes 12.5) and JSON would not.
   */
  static @Nullable Object toJs(JsonParser tokens) throws IOException {
    JsonToken token = tokens.currentToken();
    return switch (token) {
      case START_OBJECT -> {
        Map<String, Object> out = new LinkedHashMap<>();
        while (tokens.nextToken() == JsonToken.FIELD_NAME) {
          String name = tokens.currentName();
          tokens.nextToken();
          out.put(name, toJs(tokens));
        }
        yield out;
      }
      case START_ARRAY -> {
        List<Object> out = new ArrayList<>();
        while (tokens.nextToken() != JsonToken.END_ARRAY) {
          out.add(toJs(tokens));
        }
        yield out;
      }
      case VALUE_STRING -> tokens.getText();
      case VALUE_TRUE -> true;
      case VALUE_FALSE -> false;
      // Longs beyond 2^53 stay exact, for the V8 writer to refuse (a JS number would round
      // them); BigIntegers become bigints and BigDecimals text, exactly (docs/mapping.md §6).
      case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> tokens.getNumberValue();
      // byte[] or a value Jackson kept as it is: Kvasir's mapper writes it in turn.
      case VALUE_EMBEDDED_OBJECT -> tokens.getEmbeddedObject();
      case VALUE_NULL -> null;
      default -> throw new KvTypeException("Jackson wrote " + token + " where a value belongs");
    };
  }

  /**
   * {@code js}, a value as read, as the tree JSON would have given Jackson.
   *
   * @throws KvTypeException for what JSON cannot carry: a value that contains itself, one whose
   *     shared objects would expand past {@link FromJs#MAX_NODES} nodes, a JS Map with keys
   *     other than strings, a RegExp or an Error
   */
  static JsonNode fromJs(@Nullable Object js, JsonNodeFactory nodes) {
    return new FromJs(nodes).node(js);
  }

  /**
   * One value's walk into a tree. JSON has no references: an object the value refers to twice
   * is written out twice, as {@code JSON.stringify} does, and a cycle is refused, as it is
   * refused there. Both are bounded, since a value of a few hundred bytes whose objects refer
   * twice to the next would expand without end (docs/mapping.md §7).
   */
  private static final class FromJs {
    /** Far more than a value within Deno's 64 KiB holds without shared objects. */
    static final int MAX_NODES = 1 << 20;

    private final JsonNodeFactory nodes;
    /** The objects whose nodes are being made: met again inside themselves, a cycle. */
    private final Set<Object> open = Collections.newSetFromMap(new IdentityHashMap<>());
    private int made;

    FromJs(JsonNodeFactory nodes) {
      this.nodes = nodes;
    }

    JsonNode node(@Nullable Object js) {
      if (++made > MAX_NODES) {
        throw new KvTypeException("the value's shared objects expand past " + MAX_NODES
            + " JSON nodes, which Jackson would read as copies (JSON has no references)");
      }
      if (js == null || js == Undefined.INSTANCE || js == Hole.INSTANCE) {
        return nodes.nullNode();
      }
      if (js instanceof String s) {
        return nodes.textNode(s);
      }
      if (js instanceof Boolean b) {
        return nodes.booleanNode(b);
      }
      if (js instanceof Double d) {
        if (!whole(d)) {
          return nodes.numberNode(d);
        }
        // As Jackson parses JSON's integers: an int where one fits, else a long.
        long l = d.longValue();
        return l == (int) l ? nodes.numberNode((int) l) : nodes.numberNode(l);
      }
      if (js instanceof BigInteger b) {
        return nodes.numberNode(b);
      }
      if (js instanceof Number n) {
        return node(n.doubleValue());
      }
      if (js instanceof KvU64 u) {
        return nodes.numberNode(u.toBigInteger());
      }
      if (js instanceof Instant i) {
        return nodes.textNode(i.toString());
      }
      if (js instanceof byte[] bytes) {
        return nodes.binaryNode(bytes);
      }
      if (!open.add(js)) {
        throw new KvTypeException("the value contains itself (a cycle), which JSON and so"
            + " Jackson cannot hold; read it without Jackson, as a JavaBean or as Object");
      }
      JsonNode out = container(js);
      open.remove(js);
      return out;
    }

    private JsonNode container(Object js) {
      if (js instanceof Map<?, ?> m) {
        ObjectNode out = nodes.objectNode();
        for (Map.Entry<?, ?> e : m.entrySet()) {
          out.set(String.valueOf(e.getKey()), node(e.getValue()));
        }
        return out;
      }
      if (js instanceof JsMap m) {
        // A JS Map whose keys are all strings reads as JSON's object would; others have no form.
        ObjectNode out = nodes.objectNode();
        for (Map.Entry<Object, Object> e : m) {
          if (!(e.getKey() instanceof String key)) {
            throw new KvTypeException("Jackson has no form of a JS Map with a key "
                + e.getKey() + " that is not a string");
          }
          out.set(key, node(e.getValue()));
        }
        return out;
      }
      if (js instanceof List<?> || js instanceof JsSet) {
        ArrayNode out = nodes.arrayNode();
        for (Object element : (Iterable<?>) js) {
          out.add(node(element));
        }
        return out;
      }
      throw new KvTypeException("Jackson has no form of a JS " + js.getClass().getSimpleName()
          + " (" + js + ")");
    }
  }

  /** Whether JSON would carry {@code d} as an integer: whole and exact. */
  private static boolean whole(double d) {
    return d == Math.rint(d) && Math.abs(d) < EXACT && !(d == 0 && 1 / d < 0);
  }
}
