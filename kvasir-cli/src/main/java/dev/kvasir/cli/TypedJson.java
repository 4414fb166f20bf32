package dev.kvasir.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.util.RawValue;
import dev.kvasir.base.KvDecodeException;
import dev.kvasir.value.EncodedValue;
import dev.kvasir.value.InvalidDate;
import dev.kvasir.value.JsArray;
import dev.kvasir.value.JsFormat;
import dev.kvasir.value.JsMap;
import dev.kvasir.value.JsRegExp;
import dev.kvasir.value.JsSet;
import dev.kvasir.value.KvU64;
import dev.kvasir.value.Undefined;
import dev.kvasir.value.V8;
import dev.kvasir.value.ValueEncoding;
import java.math.BigInteger;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Base64;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Values as JSON, losslessly. Plain JSON stays plain: null, booleans, finite numbers, strings,
 * arrays and objects. Everything else is an object with one {@code $}-key:
 *
 * <pre>
 * {"$undefined":null}   {"$number":"NaN"|"-NaN"|"Infinity"|"-Infinity"|"-0"}   {"$bigint":"7"}
 * {"$bytes":"AQI="}     {"$u64":"7"}   {"$date":"2024-01-01T00:00:00Z"} ({"$date":null}: invalid)
 * {"$regexp":{"source":"a+","flags":"g"}}   {"$map":[[key,value],…]}   {"$set":[value,…]}
 * {"$object":{…}}       an object that itself has a single $-key
 * {"$v8":"base64"}      the whole value as V8 bytes, for what JSON cannot carry: shared or
 *                       cyclic references, sparse arrays, typed arrays, errors, boxed primitives
 * </pre>
 */
final class TypedJson {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  static final String FORMS = "plain JSON, or {\"$bigint\":\"7\"}, {\"$bytes\":\"AQI=\"},"
      + " {\"$u64\":\"7\"}, {\"$date\":\"…\"}, {\"$map\":[[k,v]]}, {\"$set\":[…]},"
      + " {\"$regexp\":{\"source\":\"…\",\"flags\":\"…\"}}, {\"$undefined\":null},"
      + " {\"$number\":\"NaN\"}, {\"$object\":{…}}, {\"$v8\":\"base64\"}";

  private TypedJson() {}

  /** A stored value as JSON: raw bytes, u64, or the decoded V8 value. */
  static JsonNode of(EncodedValue stored) {
    return switch (stored.encoding()) {
      case BYTES -> tagged("$bytes", NODES.textNode(base64(stored.bytes())));
      case LE64 -> tagged("$u64", NODES.textNode(
          KvU64.fromLittleEndian(stored.bytes()).toBigInteger().toString()));
      case V8 -> {
        Object value = stored.decode();
        JsonNode plain = new Writer().write(value);
        yield plain != null ? plain : tagged("$v8", NODES.textNode(base64(stored.bytes())));
      }
    };
  }

  /** A value without shared references (a key part, a value built by hand) as JSON. */
  static JsonNode ofValue(Object value) {
    JsonNode json = new Writer().write(value);
    if (json == null) {
      throw new IllegalArgumentException("no JSON form for " + value);
    }
    return json;
  }

  /** Writes JSON for a value graph; null from {@link #write} means JSON cannot carry it. */
  private static final class Writer {
    private final IdentityHashMap<Object, Boolean> seen = new IdentityHashMap<>();

    JsonNode write(Object v) {
      if (v == null) {
        return NODES.nullNode();
      } else if (v instanceof Boolean b) {
        return NODES.booleanNode(b);
      } else if (v instanceof String s) {
        return NODES.textNode(s);
      } else if (v instanceof BigInteger i) {
        return tagged("$bigint", NODES.textNode(i.toString()));
      } else if (v instanceof Number n) {
        return number(n.doubleValue());
      } else if (v instanceof Undefined) {
        return tagged("$undefined", NODES.nullNode());
      } else if (v instanceof KvU64 u) {
        return tagged("$u64", NODES.textNode(u.toBigInteger().toString()));
      }
      // Objects: JSON would duplicate a shared one and never end on a cycle.
      if (seen.put(v, Boolean.TRUE) != null) {
        return null;
      }
      if (v instanceof Instant t) {
        return tagged("$date", NODES.textNode(t.toString()));
      } else if (v instanceof InvalidDate) {
        return tagged("$date", NODES.nullNode());
      } else if (v instanceof JsRegExp r) {
        return tagged("$regexp", NODES.objectNode().put("source", r.source())
            .put("flags", r.flags()));
      } else if (v instanceof byte[] b) {
        return tagged("$bytes", NODES.textNode(base64(b)));
      } else if (v instanceof JsMap m) {
        ArrayNode pairs = NODES.arrayNode();
        for (Map.Entry<Object, Object> e : m) {
          JsonNode key = write(e.getKey());
          JsonNode value = write(e.getValue());
          if (key == null || value == null) {
            return null;
          }
          pairs.add(NODES.arrayNode().add(key).add(value));
        }
        return tagged("$map", pairs);
      } else if (v instanceof JsSet s) {
        ArrayNode items = array(s.iterator());
        return items == null ? null : tagged("$set", items);
      } else if (v instanceof List<?> list) {
        boolean plain = !(list instanceof JsArray a && !a.properties().isEmpty());
        return plain ? array(list.iterator()) : null;
      } else if (v instanceof Map<?, ?> map) {
        ObjectNode object = NODES.objectNode();
        for (Map.Entry<?, ?> e : map.entrySet()) {
          JsonNode value = write(e.getValue());
          if (!(e.getKey() instanceof String) || value == null) {
            return null;
          }
          object.set((String) e.getKey(), value);
        }
        return isTagged(object) ? tagged("$object", object) : object;
      }
      return null; // sparse arrays, holes, typed arrays, buffers, errors, boxed primitives
    }

    private ArrayNode array(Iterator<?> items) {
      ArrayNode out = NODES.arrayNode();
      while (items.hasNext()) {
        JsonNode item = write(items.next());
        if (item == null) {
          return null;
        }
        out.add(item);
      }
      return out;
    }
  }

  /**
   * A finite number as JavaScript writes it ({@code JSON.stringify}): {@code 1e+21},
   * {@code 0.000001}, {@code 9007199254740992}, where Java's own text for a double is
   * {@code 1.0E21}, {@code 1.0E-6}, {@code 9.007199254740992E15}. Both are JSON; this one is
   * what Deno prints for the same value.
   */
  private static JsonNode number(double d) {
    if (Double.isNaN(d) || Double.isInfinite(d) || d == 0 && 1 / d < 0) {
      return tagged("$number", NODES.textNode(special(d)));
    }
    if (d == Math.rint(d) && Math.abs(d) < 0x1p53) {
      return NODES.numberNode((long) d);
    }
    return NODES.rawValueNode(new RawValue(JsFormat.numberToString(d)));
  }

  /** The name of a number JSON cannot write; a NaN with its sign bit set (a distinct key) is -NaN. */
  static String special(double d) {
    if (Double.isNaN(d)) {
      return Double.doubleToRawLongBits(d) < 0 ? "-NaN" : "NaN";
    }
    return d == 0 ? "-0" : d > 0 ? "Infinity" : "-Infinity";
  }

  /**
   * The tagged form of a JavaScript literal JSON has no word for ({@code NaN}, {@code Infinity},
   * {@code undefined}, {@code 7n}), for an error to suggest; null for any other text.
   */
  static String taggedFormOf(String literal) {
    if (literal.equals("undefined")) {
      return "{\"$undefined\":null}";
    }
    if (literal.matches("-?\\d+n")) {
      return "{\"$bigint\":\"" + literal.substring(0, literal.length() - 1) + "\"}";
    }
    String name = literal.startsWith("+") ? literal.substring(1) : literal;
    return special(name) != null ? "{\"$number\":\"" + name + "\"}" : null;
  }

  /** The number {@link #special} names, or null. */
  static Double special(String name) {
    return switch (name) {
      case "NaN" -> Double.NaN;
      case "-NaN" -> Double.longBitsToDouble(0xfff8000000000000L);
      case "Infinity" -> Double.POSITIVE_INFINITY;
      case "-Infinity" -> Double.NEGATIVE_INFINITY;
      case "-0" -> -0.0;
      default -> null;
    };
  }

  /**
   * The value for JSON in this syntax: {@code byte[]}, {@link KvU64}, an {@link EncodedValue}
   * for {@code $v8}, or a JS value graph.
   *
   * @throws IllegalArgumentException naming the problem and the forms accepted
   */
  static Object read(JsonNode json) {
    if (isTagged(json) && json.has("$v8")) {
      byte[] bytes = decodeBase64(json.get("$v8"), "$v8");
      try {
        V8.deserialize(bytes); // refuse bytes that no reader could use
      } catch (KvDecodeException e) {
        throw new IllegalArgumentException("$v8 holds no valid V8 value: " + e.getMessage());
      }
      return EncodedValue.of(ValueEncoding.V8, bytes);
    }
    return value(json);
  }

  private static Object value(JsonNode json) {
    if (json.isNull()) {
      return null;
    } else if (json.isBoolean()) {
      return json.booleanValue();
    } else if (json.isNumber()) {
      return json.doubleValue();
    } else if (json.isTextual()) {
      return json.textValue();
    } else if (json.isArray()) {
      JsArray out = new JsArray();
      json.forEach(item -> out.add(value(item)));
      return out;
    } else if (isTagged(json)) {
      return tag(json.fieldNames().next(), json.elements().next());
    }
    return object(json);
  }

  /** A JS object, its properties in the order given. */
  private static Map<String, Object> object(JsonNode json) {
    Map<String, Object> out = new LinkedHashMap<>();
    json.properties().forEach(e -> out.put(e.getKey(), value(e.getValue())));
    return out;
  }

  private static Object tag(String tag, JsonNode body) {
    switch (tag) {
      case "$undefined":
        return Undefined.INSTANCE;
      case "$number":
        Double special = special(text(body, tag));
        if (special == null) {
          throw new IllegalArgumentException("$number is one of \"NaN\", \"-NaN\","
              + " \"Infinity\", \"-Infinity\", \"-0\"; other numbers are plain JSON");
        }
        return special;
      case "$bigint":
        return integer(body, tag);
      case "$u64":
        return KvU64.of(integer(body, tag));
      case "$bytes":
        return decodeBase64(body, tag);
      case "$date":
        if (body.isNull()) {
          return InvalidDate.INSTANCE;
        }
        try {
          return Instant.parse(text(body, tag));
        } catch (DateTimeParseException e) {
          throw new IllegalArgumentException("$date needs an ISO-8601 instant such as"
              + " \"2024-01-31T12:00:00Z\", not \"" + body.asText() + "\"");
        }
      case "$regexp":
        if (!body.isObject() || !body.path("source").isTextual()) {
          throw new IllegalArgumentException("$regexp needs {\"source\":\"…\",\"flags\":\"…\"}");
        }
        return new JsRegExp(body.get("source").textValue(), body.path("flags").asText(""));
      case "$map": {
        JsMap map = new JsMap();
        for (JsonNode pair : array(body, tag)) {
          if (!pair.isArray() || pair.size() != 2) {
            throw new IllegalArgumentException("$map needs an array of [key, value] pairs");
          }
          map.put(value(pair.get(0)), value(pair.get(1)));
        }
        return map;
      }
      case "$set": {
        JsSet set = new JsSet();
        array(body, tag).forEach(item -> set.add(value(item)));
        return set;
      }
      case "$object":
        if (!body.isObject()) {
          throw new IllegalArgumentException("$object needs an object");
        }
        return object(body);
      case "$v8":
        throw new IllegalArgumentException("$v8 stands only for a whole value, not inside one");
      default:
        throw new IllegalArgumentException("unknown tag " + tag + "; values are " + FORMS
            + " (an object with one $-key of its own is written {\"$object\":{…}})");
    }
  }

  /** An object with exactly one key that starts with '$' is a tag. */
  private static boolean isTagged(JsonNode json) {
    return json.isObject() && json.size() == 1 && json.fieldNames().next().startsWith("$");
  }

  private static ObjectNode tagged(String tag, JsonNode body) {
    ObjectNode node = NODES.objectNode();
    node.set(tag, body);
    return node;
  }

  private static String text(JsonNode body, String tag) {
    if (!body.isTextual()) {
      throw new IllegalArgumentException(tag + " needs a string, e.g. {\"" + tag + "\":\"…\"}");
    }
    return body.textValue();
  }

  private static BigInteger integer(JsonNode body, String tag) {
    try {
      return new BigInteger(text(body, tag));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(tag + " needs an integer in a string, e.g. {\"" + tag
          + "\":\"7\"}");
    }
  }

  private static JsonNode array(JsonNode body, String tag) {
    if (!body.isArray()) {
      throw new IllegalArgumentException(tag + " needs an array");
    }
    return body;
  }

  private static byte[] decodeBase64(JsonNode body, String tag) {
    try {
      return Base64.getDecoder().decode(text(body, tag));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(tag + " needs base64: " + e.getMessage());
    }
  }

  static String base64(byte[] bytes) {
    return Base64.getEncoder().encodeToString(bytes);
  }
}
