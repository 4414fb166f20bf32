package dev.kvasir.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPInputStream;

/**
 * The KV/DAG vectors made with the JavaScript {@code @alanshaw/pail@0.3.4} (resources
 * {@code vectors/pail/v0.3.4-spec/}; schema in {@code vectors/pail/README.md}).
 */
public final class PailVectors {
  private static final String DIR = "/vectors/pail/v0.3.4-spec/";
  private static final ObjectMapper JSON = new ObjectMapper();

  private PailVectors() {}

  /** The scenario files listed in {@code index.json}, in order. */
  public static List<String> files() {
    List<String> files = new ArrayList<>();
    scenario("index.json").get("scenarios").forEach(s -> files.add(s.get("file").asText()));
    return files;
  }

  /** One scenario file (gzipped ones are unpacked). */
  public static JsonNode scenario(String file) {
    // index.json names the big scenarios without the .gz they are stored with.
    String name = PailVectors.class.getResource(DIR + file) == null ? file + ".gz" : file;
    try (InputStream raw = PailVectors.class.getResourceAsStream(DIR + name)) {
      if (raw == null) {
        throw new IllegalStateException("missing pail vector resource " + file);
      }
      InputStream in = name.endsWith(".gz") ? new GZIPInputStream(raw) : raw;
      return JSON.readTree(in);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
