package dev.kvasir.connect;

import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What every data call made under one metadata answer shares, worked out once per exchange:
 * the headers (docs/kv-connect.md §2) and each method's URI on the strong and the eventual
 * endpoint. Made per call instead (a URI parsed, the database id formatted, the endpoints
 * searched), they took about 2% of a Java client's CPU under load.
 */
final class DataCalls {
  private final Metadata metadata;
  private final Map<String, String> headers;
  private final String strongBase;
  private final String eventualBase;
  private final Map<String, URI> strongUris = new ConcurrentHashMap<>();
  private final Map<String, URI> eventualUris = new ConcurrentHashMap<>();

  DataCalls(Metadata metadata) {
    this.metadata = metadata;
    Map<String, String> h = new LinkedHashMap<>();
    h.put("authorization", "Bearer " + metadata.token());
    if (metadata.version() == 1) {
      h.put("x-transaction-domain-id", metadata.databaseId().toString());
    } else {
      h.put("x-denokv-database-id", metadata.databaseId().toString());
      h.put("x-denokv-version", String.valueOf(metadata.version()));
    }
    this.headers = Map.copyOf(h);
    this.strongBase = metadata.strongEndpoint().url() + "/";
    this.eventualBase = metadata.eventualEndpoint().url() + "/";
  }

  Metadata metadata() {
    return metadata;
  }

  /** The headers of every data call, with {@code extra} added. */
  Map<String, String> headers(Map<String, String> extra) {
    if (extra.isEmpty()) {
      return headers;
    }
    Map<String, String> all = new LinkedHashMap<>(headers);
    all.putAll(extra);
    return all;
  }

  /** {@code method}'s URI on the strong endpoint, or on the eventual one. */
  URI uri(String method, boolean strong) {
    return strong ? strongUris.computeIfAbsent(method, m -> URI.create(strongBase + m))
        : eventualUris.computeIfAbsent(method, m -> URI.create(eventualBase + m));
  }
}
