package dev.kvasir.bench;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;

/**
 * A script among this package's resources, unpacked to a temporary file for Deno to run against
 * a KV Connect server: the server's URL in {@code KVASIR_URL}, its token in {@code
 * DENO_KV_ACCESS_TOKEN} (which {@code Deno.openKv} reads). Closing it removes the file.
 */
final class DenoScript implements AutoCloseable {
  private final Path file;

  private DenoScript(Path file) {
    this.file = file;
  }

  static DenoScript unpack(String resource) throws IOException {
    Path file = Files.createTempFile("kvasir-bench-", ".mjs");
    try (InputStream in = DenoScript.class.getResourceAsStream(resource)) {
      Files.copy(in, file, StandardCopyOption.REPLACE_EXISTING);
    }
    return new DenoScript(file);
  }

  /** The command that runs the script with {@code deno}, against the server at {@code url}. */
  ProcessBuilder command(String deno, String url, String token, List<String> args) {
    List<String> command = new ArrayList<>(List.of(deno, "run", "--quiet", "--no-prompt",
        "--unstable-kv", "-A", file.toString()));
    command.addAll(args);
    ProcessBuilder pb = new ProcessBuilder(command);
    pb.environment().put("KVASIR_URL", url);
    pb.environment().put("DENO_KV_ACCESS_TOKEN", token);
    return pb;
  }

  @Override
  public void close() throws IOException {
    Files.deleteIfExists(file);
  }
}
