package dev.kvasir.golden;

import com.fasterxml.jackson.databind.JsonNode;
import dev.kvasir.base.Hex;
import dev.kvasir.value.Hole;
import dev.kvasir.value.InvalidDate;
import dev.kvasir.value.JsArray;
import dev.kvasir.value.JsArrayBuffer;
import dev.kvasir.value.JsBoxed;
import dev.kvasir.value.JsError;
import dev.kvasir.value.JsMap;
import dev.kvasir.value.JsRegExp;
import dev.kvasir.value.JsSet;
import dev.kvasir.value.JsTypedArray;
import dev.kvasir.value.KvU64;
import dev.kvasir.value.Undefined;
import java.math.BigInteger;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Builds the Java value that a {@code values.json} description stands for (schema in that
 * file's {@code value_schema}), in the shape {@code V8.deserialize} returns: numbers as
 * {@code Double}, objects in JS property order, a Uint8Array covering its own buffer as
 * {@code byte[]}, a nested KvU64 as the plain object {@code {value}} Deno makes of it.
 */
public final class ValueDescriptions {
  private final Map<String, Object> byId = new HashMap<>();
  private final JsonNode defs;

  private ValueDescriptions(JsonNode defs) {
    this.defs = defs;
  }

  /** The Java value of a top-level description. */
  public static Object build(JsonNode description) {
    ValueDescriptions builder = new ValueDescriptions(description.get("defs"));
    if (description.get("t").asText().equals("KvU64")) {
      return KvU64.of(new BigInteger(description.get("v").asText()));
    }
    return builder.value(description);
  }

  private Object value(JsonNode d) {
    switch (d.get("t").asText()) {
      case "undefined": return Undefined.INSTANCE;
      case "null": return null;
      case "hole": return Hole.INSTANCE;
      case "boolean": return d.get("v").asBoolean();
      case "number": return number(d.get("hex").asText());
      case "bigint": return new BigInteger(d.get("v").asText());
      case "string": return d.get("v").asText();
      case "array": return d.has("items") ? denseArray(d) : sparseArray(d);
      case "object": return object(d);
      case "map": return map(d);
      case "set": return set(d);
      case "date": return date(d.get("ms"));
      case "regexp": return new JsRegExp(d.get("source").asText(), d.get("flags").asText());
      case "Uint8Array": return Hex.decode(d.get("hex").asText());
      case "typedarray": return typedArray(d);
      case "ArrayBuffer": return buffer(d);
      case "KvU64": return new LinkedHashMap<>(Map.of("value", new BigInteger(d.get("v").asText())));
      case "boxed": return boxed(d);
      case "ref": return reference(d.get("id").asText());
      case "shared": return shared(d);
      case "error": return error(d);
      default: throw new IllegalArgumentException("unknown value description: " + d);
    }
  }

  private static double number(String hex) {
    return Double.longBitsToDouble(Long.parseUnsignedLong(hex, 16));
  }

  private <T> T register(JsonNode d, T object) {
    if (d.has("id")) {
      byId.put(d.get("id").asText(), object);
    }
    return object;
  }

  private Object reference(String id) {
    Object target = byId.get(id);
    if (target == null && defs != null && defs.has(id)) {
      target = value(defs.get(id));
      byId.put(id, target);
    }
    if (target == null) {
      throw new IllegalArgumentException("unresolved reference " + id);
    }
    return target;
  }

  private Object denseArray(JsonNode d) {
    JsArray array = register(d, new JsArray());
    d.get("items").forEach(item -> array.add(value(item)));
    if (d.has("props")) {
      d.get("props").forEach(p -> array.properties().put(p.get(0).asText(), value(p.get(1))));
    }
    return array;
  }

  private Object sparseArray(JsonNode d) {
    JsArray array = register(d, new JsArray());
    for (int i = 0; i < d.get("length").asInt(); i++) {
      array.add(Hole.INSTANCE);
    }
    for (JsonNode e : d.get("entries")) {
      if (e.get(0).isNumber()) {
        array.set(e.get(0).asInt(), value(e.get(1)));
      } else {
        array.properties().put(e.get(0).asText(), value(e.get(1)));
      }
    }
    return array;
  }

  /** JS property order: array-index keys ascending, then the others in insertion order. */
  private Object object(JsonNode d) {
    Map<String, Object> object = register(d, new LinkedHashMap<>());
    List<JsonNode> entries = new ArrayList<>();
    d.get("entries").forEach(entries::add);
    entries.sort(Comparator.comparingLong(e -> {
      long index = arrayIndex(e.get(0).asText());
      return index < 0 ? Long.MAX_VALUE : index;
    }));
    for (JsonNode e : entries) {
      object.put(e.get(0).asText(), value(e.get(1)));
    }
    return object;
  }

  private static long arrayIndex(String key) {
    if (!key.matches("0|[1-9][0-9]{0,9}")) {
      return -1;
    }
    long v = Long.parseLong(key);
    return v <= 0xfffffffeL ? v : -1;
  }

  private Object map(JsonNode d) {
    JsMap map = register(d, new JsMap());
    d.get("entries").forEach(e -> map.put(value(e.get(0)), value(e.get(1))));
    return map;
  }

  private Object set(JsonNode d) {
    JsSet set = register(d, new JsSet());
    d.get("items").forEach(item -> set.add(value(item)));
    return set;
  }

  /** JS TimeClip: NaN stays invalid, fractions truncate toward zero. */
  private static Object date(JsonNode ms) {
    if (ms.isTextual() && ms.asText().equals("NaN")) {
      return InvalidDate.INSTANCE;
    }
    return Instant.ofEpochMilli((long) ms.asDouble());
  }

  private Object typedArray(JsonNode d) {
    JsTypedArray.Kind kind = JsTypedArray.Kind.ofJsName(d.get("kind").asText());
    int offset = d.get("byteOffset").asInt();
    int length = d.get("length").asInt();
    if (d.has("bufferHex")) {
      byte[] bytes = Hex.decode(d.get("bufferHex").asText());
      if (kind == JsTypedArray.Kind.UINT8_ARRAY && offset == 0 && length == bytes.length) {
        return bytes;
      }
      return JsTypedArray.of(kind, JsArrayBuffer.of(bytes), offset, length);
    }
    JsArrayBuffer buffer = (JsArrayBuffer) reference(d.get("bufferRef").asText());
    return JsTypedArray.of(kind, buffer, offset, length);
  }

  private Object buffer(JsonNode d) {
    byte[] bytes = Hex.decode(d.get("hex").asText());
    return register(d, d.has("maxByteLength")
        ? JsArrayBuffer.resizable(bytes, d.get("maxByteLength").asInt())
        : JsArrayBuffer.of(bytes));
  }

  private Object boxed(JsonNode d) {
    Object primitive = value(d.get("value"));
    switch (d.get("kind").asText()) {
      case "Number": return new JsBoxed.Num((Double) primitive);
      case "String": return new JsBoxed.Str((String) primitive);
      case "Boolean": return new JsBoxed.Bool((Boolean) primitive);
      case "BigInt": return new JsBoxed.BigInt((BigInteger) primitive);
      default: throw new IllegalArgumentException("unknown boxed kind: " + d);
    }
  }

  private Object shared(JsonNode d) {
    Object element = value(d.get("value"));
    JsArray array = new JsArray();
    for (int i = 0; i < d.get("count").asInt(); i++) {
      array.add(element);
    }
    return array;
  }

  private Object error(JsonNode d) {
    JsError.Kind kind = JsError.Kind.ofJsName(d.get("name").asText());
    String message = d.get("message").asText();
    String stack = d.get("stack").isNull() ? null : d.get("stack").asText();
    return d.has("cause") ? JsError.withCause(kind, message, stack, value(d.get("cause")))
        : JsError.of(kind, message, stack);
  }
}
