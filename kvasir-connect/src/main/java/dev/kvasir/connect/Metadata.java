package dev.kvasir.connect;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * The KV Connect metadata exchange (docs/kv-connect.md §2): what a server answers to {@code
 * POST /} and a client reads. Exactly the five fields, since {@code @deno/kv} rejects others.
 */
public record Metadata(int version, UUID databaseId, List<Endpoint> endpoints, String token,
    Instant expiresAt) {
  /** The protocol versions this implementation speaks. */
  public static final List<Integer> SUPPORTED_VERSIONS = List.of(1, 2, 3);

  private static final ObjectMapper JSON = new ObjectMapper();

  public Metadata {
    endpoints = List.copyOf(endpoints);
  }

  /** One data-path endpoint; {@code strong} for strong consistency, else eventual. */
  public record Endpoint(String url, boolean strong) {}

  /** The request body a client sends. */
  public static String request() {
    return "{\"supportedVersions\":[1,2,3]}";
  }

  /**
   * The versions a client offers in a request body.
   *
   * @throws BadRequestException if the body is not such a request
   */
  public static List<Integer> offeredVersions(String body) {
    try (JsonParser tokens = JSON.createParser(body)
        .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)) {
      JsonNode request = JSON.readTree(tokens);
      if (tokens.nextToken() != null) {
        // As denokv's serde_json, which refuses what follows the one value, not drops it.
        throw new BadRequestException("The metadata request has more text after its JSON.");
      }
      JsonNode versions = request == null ? null : request.get("supportedVersions");
      if (versions == null || !versions.isArray()) {
        throw new BadRequestException("The metadata request must be JSON with a"
            + " \"supportedVersions\" array, e.g. {\"supportedVersions\":[1,2,3]}.");
      }
      List<Integer> out = new ArrayList<>();
      for (JsonNode v : versions) {
        // denokv reads the list as unsigned 64-bit integers: a fraction, a sign or a string is
        // refused, where asInt() would take "3" or 3.5 as 3, and 2^32 + 3 as 3.
        if (!v.isIntegralNumber() || v.bigIntegerValue().signum() < 0
            || v.bigIntegerValue().bitLength() > 64) {
          throw new BadRequestException("\"supportedVersions\" must hold protocol version"
              + " numbers such as 3, not " + v + ".");
        }
        if (v.canConvertToInt()) {
          out.add(v.intValue()); // a larger number names no version anyone speaks
        }
      }
      return out;
    } catch (JsonProcessingException e) {
      // Jackson names an unclosed object's start as "[Source: REDACTED (`StreamReadFeature…`
      // disabled); line: 1, column: 1]", words about its API that a caller cannot act on.
      throw new BadRequestException("The metadata request is not valid JSON: "
          + e.getOriginalMessage().replaceAll(
              "\\[Source: [^\\]]*?; line: (\\d+), column: (\\d+)\\]", "line $1, column $2"));
    } catch (IOException e) {
      throw new UncheckedIOException(e); // a String has no I/O to fail
    }
  }

  public String toJson() {
    ObjectNode root = JSON.createObjectNode();
    root.put("version", version);
    root.put("databaseId", databaseId.toString());
    ArrayNode list = root.putArray("endpoints");
    for (Endpoint e : endpoints) {
      list.addObject().put("url", e.url()).put("consistency", e.strong() ? "strong" : "eventual");
    }
    root.put("token", token);
    root.put("expiresAt", expiresAt.toString());
    return root.toString();
  }

  /**
   * Reads a server's answer; relative endpoint URLs (v2, v3) are resolved against {@code base}.
   *
   * @throws RemoteException if it is not valid metadata
   */
  public static Metadata parse(String json, URI base) {
    try {
      JsonNode root = JSON.readTree(json);
      JsonNode v = root.get("version");
      if (v == null || !v.isInt()) {
        throw new RemoteException("'" + base + "' is not a valid KV Connect endpoint (failed to"
            + " read the metadata version)");
      }
      int version = v.asInt();
      if (!SUPPORTED_VERSIONS.contains(version)) {
        throw new RemoteException("'" + base + "' reported unsupported KV Connect metadata"
            + " version " + version);
      }
      List<Endpoint> endpoints = new ArrayList<>();
      for (JsonNode e : required(root, "endpoints")) {
        String url = required(e, "url").asText();
        if (url.endsWith("/")) {
          throw new RemoteException("endpoint URL must not end with '/': " + url);
        }
        URI uri = URI.create(url);
        if (!uri.isAbsolute()) {
          if (version == 1) {
            throw new RemoteException("invalid endpoint URL: relative URL without a base");
          }
          uri = base.resolve(uri);
        }
        String consistency = required(e, "consistency").asText();
        if (!consistency.equals("strong") && !consistency.equals("eventual")) {
          throw new RemoteException("unsupported consistency level: " + consistency);
        }
        endpoints.add(new Endpoint(uri.toString(), consistency.equals("strong")));
      }
      if (endpoints.stream().noneMatch(Endpoint::strong)) {
        throw new RemoteException("the server offers no strongly consistent endpoint");
      }
      return new Metadata(version, UUID.fromString(required(root, "databaseId").asText()),
          endpoints, required(root, "token").asText(),
          Instant.parse(required(root, "expiresAt").asText()));
    } catch (JsonProcessingException | IllegalArgumentException | DateTimeParseException e) {
      throw new RemoteException("invalid KV Connect metadata from '" + base + "': "
          + e.getMessage(), e);
    }
  }

  private static JsonNode required(JsonNode node, String field) {
    JsonNode v = node.get(field);
    if (v == null || v.isNull()) {
      throw new RemoteException("invalid KV Connect metadata: missing field `" + field + "`");
    }
    return v;
  }

  /** The first strongly consistent endpoint. */
  public Endpoint strongEndpoint() {
    return endpoints.stream().filter(Endpoint::strong).findFirst().orElseThrow();
  }

  /** The first eventual endpoint, or the strong one if there is none. */
  public Endpoint eventualEndpoint() {
    return endpoints.stream().filter(e -> !e.strong()).findFirst()
        .orElseGet(this::strongEndpoint);
  }
}
