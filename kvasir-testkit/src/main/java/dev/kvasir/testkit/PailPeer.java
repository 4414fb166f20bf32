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
import java.util.List;

/**
 * The JavaScript {@code @alanshaw/pail@0.3.4} run by Node through {@code pail/driver.mjs}
 * (request and answer formats are at the top of that script). The build installs it
 * ({@link NpmPeer}); a missing one fails the test with the reason.
 */
public final class PailPeer {
  public static final String NAME = "@alanshaw/pail";
  public static final String VERSION = "0.3.4";
  private static final ObjectMapper JSON = new ObjectMapper();

  private final Path modules;

  private PailPeer(Path modules) {
    this.modules = modules;
  }

  /** The installed peer; fails the calling test (or opts out) when it is missing. */
  public static PailPeer require() {
    NpmPeer.require(NAME, VERSION, List.of("node_modules/@alanshaw/pail/src/index.js"), false);
    return new PailPeer(NpmPeer.home(NAME, VERSION).resolve("node_modules"));
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
