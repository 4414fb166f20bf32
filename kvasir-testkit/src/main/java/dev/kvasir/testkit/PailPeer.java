package dev.kvasir.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import org.junit.jupiter.api.Assumptions;

/**
 * The JavaScript {@code @alanshaw/pail@0.3.4} run by Node through {@code pail/driver.mjs}
 * (request and answer formats are at the top of that script). {@code .ci/run} installs it into
 * {@code ~/.cache/kvasir/pail-0.3.4}; tests fail rather than skip when it is missing and
 * {@code KVASIR_REQUIRE_PAIL} is set.
 */
public final class PailPeer {
  public static final String VERSION = "0.3.4";
  private static final ObjectMapper JSON = new ObjectMapper();

  private final Path modules;

  private PailPeer(Path modules) {
    this.modules = modules;
  }

  /** The installed peer; aborts the calling test (or fails under CI) when it is missing. */
  public static PailPeer require() {
    Path modules = Path.of(System.getProperty("user.home"), ".cache", "kvasir",
        "pail-" + VERSION, "node_modules");
    if (!Files.isRegularFile(modules.resolve("@alanshaw/pail/src/index.js"))) {
      String reason = "@alanshaw/pail " + VERSION + " not found under " + modules
          + ": run `npm install --prefix ~/.cache/kvasir/pail-" + VERSION + " @alanshaw/pail@"
          + VERSION + "`";
      if (System.getenv("KVASIR_REQUIRE_PAIL") != null) {
        throw new AssertionError(reason + " (KVASIR_REQUIRE_PAIL is set)");
      }
      Assumptions.abort(reason);
    }
    return new PailPeer(modules);
  }

  /** Sends one request to a fresh Node process and returns its answer. */
  public JsonNode call(JsonNode request) {
    try {
      Path script = Files.createTempFile("kvasir-pail-driver", ".mjs");
      try {
        try (InputStream in = PailPeer.class.getResourceAsStream("/pail/driver.mjs")) {
          Files.copy(in, script, StandardCopyOption.REPLACE_EXISTING);
        }
        Process node = new ProcessBuilder("node", script.toString(), modules.toString())
            .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        try (OutputStream stdin = node.getOutputStream()) {
          stdin.write(JSON.writeValueAsBytes(request));
        }
        byte[] answer = node.getInputStream().readAllBytes();
        int exit = node.waitFor();
        if (exit != 0) {
          throw new IllegalStateException("the pail driver exited with " + exit + ": "
              + new String(answer, StandardCharsets.UTF_8));
        }
        return JSON.readTree(answer);
      } finally {
        Files.deleteIfExists(script);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
