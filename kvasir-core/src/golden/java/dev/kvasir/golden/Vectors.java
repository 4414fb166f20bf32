package dev.kvasir.golden;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.kvasir.base.Hex;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;

/**
 * The golden vectors made with the real Deno (resources {@code vectors/denokv/}), parsed into
 * plain Java. See {@code docs/vectors.md} for their origin.
 */
public final class Vectors {
  private static final ObjectMapper JSON = new ObjectMapper();

  private Vectors() {}

  /**
   * One key of {@code keys.json}: its parts as Java values and Deno's exact encoding. Keys that
   * share their encoding with another id have no sorted position (−1).
   */
  public record KeyVector(int id, List<Object> parts, String encodedHex, int sortedPosition,
      boolean decodesToOtherParts, JsonNode source) {
    public byte[] encoded() {
      return Hex.decode(encodedHex);
    }
  }

  /** One value of {@code values.json}: its description and Deno's stored bytes. */
  public record ValueVector(int id, String name, JsonNode description, int encoding,
      String storedHex) {
    public byte[] stored() {
      return Hex.decode(storedHex);
    }

    @Override
    public String toString() {
      return id + " " + name;
    }
  }

  public static JsonNode json(String resource) {
    try (InputStream in = Vectors.class.getResourceAsStream("/vectors/denokv/" + resource)) {
      if (in == null) {
        throw new IllegalStateException("missing test vector resource " + resource);
      }
      return JSON.readTree(in);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public static List<KeyVector> keys() {
    List<KeyVector> out = new ArrayList<>();
    for (JsonNode k : json("keys.json").get("keys")) {
      List<Object> parts = new ArrayList<>();
      for (JsonNode p : k.get("parts")) {
        parts.add(keyPart(p));
      }
      boolean changes = k.has("decoded_by_deno") || k.has("same_encoding_as_id");
      out.add(new KeyVector(k.get("id").asInt(), parts, k.get("encoded_hex").asText(),
          k.path("sorted_position").asInt(-1), changes, k));
    }
    return out;
  }

  /** Key ids in the order Deno's {@code list({prefix: []})} returned them. */
  public static List<Integer> sortedKeyIds() {
    List<Integer> ids = new ArrayList<>();
    json("keys.json").get("sorted_ids").forEach(n -> ids.add(n.asInt()));
    return ids;
  }

  public static List<ValueVector> values() {
    List<ValueVector> out = new ArrayList<>();
    for (JsonNode v : json("values.json").get("values")) {
      out.add(new ValueVector(v.get("id").asInt(), v.get("name").asText(), v.get("value"),
          v.get("v_encoding").asInt(), v.get("stored_hex").asText()));
    }
    return out;
  }

  private static Object keyPart(JsonNode p) {
    switch (p.get("type").asText()) {
      case "string": return p.get("value").asText();
      case "bytes": return Hex.decode(p.get("hex").asText());
      case "number": return Double.longBitsToDouble(Long.parseUnsignedLong(p.get("hex").asText(), 16));
      case "bigint": return new BigInteger(p.get("value").asText());
      case "boolean": return p.get("value").asBoolean();
      default: throw new IllegalArgumentException("unknown key part type in vectors: " + p);
    }
  }
}
