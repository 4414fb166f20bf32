package dev.kvasir.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The real Deno (npm {@code deno@2.9.6}) as an interop peer. It is the system property
 * {@code kvasir.deno} or the environment variable {@code KVASIR_DENO} when set, otherwise the
 * binary the build installed ({@link NpmPeer}); a missing one fails the test with the reason.
 *
 * <p>Scripts come from this module's {@code deno/} resources and run with the vectors next to
 * them: {@code vectors/values.json}, {@code vectors/keys.json}.
 */
public final class DenoPeer {
  /** The version the interop tests were written against. */
  public static final String VERSION = "2.9.6";

  private static final List<String> SCRIPTS =
      List.of("vectors.ts", "write_all.ts", "verify_all.ts", "cas.ts", "sequence.ts",
          "queue.ts", "watched_writes.ts", "remote.ts", "unknown_outcome.ts", "read_corrupt.ts",
          "describe.ts", "batches.ts", "read_each.ts", "differential.ts", "deep.ts",
          "set_literals.ts");

  private final Path binary;
  private final Path work;
  private final java.util.Map<String, String> environment = new java.util.HashMap<>();

  private DenoPeer(Path binary, Path work) {
    this.binary = binary;
    this.work = work;
  }

  /** The peer, with scripts unpacked into {@code work}; fails (or opts out) when missing. */
  public static DenoPeer require(Path work) {
    Path binary = binary();
    try {
      Files.createDirectories(work.resolve("vectors"));
      for (String script : SCRIPTS) {
        copy("/deno/" + script, work.resolve(script));
      }
      copy("/vectors/denokv/values.json", work.resolve("vectors/values.json"));
      copy("/vectors/denokv/keys.json", work.resolve("vectors/keys.json"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return new DenoPeer(binary, work);
  }

  /**
   * The Deno binary: {@code kvasir.deno} or {@code KVASIR_DENO} if set, else the one the build
   * installed; fails (or opts out) when missing.
   */
  public static Path binary() {
    String explicit = Optional.ofNullable(System.getProperty("kvasir.deno"))
        .orElse(System.getenv("KVASIR_DENO"));
    if (explicit != null) {
      Path binary = Path.of(explicit);
      if (!Files.isExecutable(binary)) {
        throw new AssertionError("Deno at " + binary + " (kvasir.deno / KVASIR_DENO) is not an"
            + " executable file");
      }
      return binary;
    }
    // The npm package's own launcher, or the platform package it depends on.
    return NpmPeer.require("deno", VERSION, List.of("node_modules/deno/deno",
        "node_modules/@deno/linux-x64-glibc/deno", "node_modules/@deno/linux-arm64-glibc/deno",
        "node_modules/@deno/darwin-arm64/deno", "node_modules/@deno/darwin-x64/deno"), true);
  }

  private static void copy(String resource, Path to) throws IOException {
    try (InputStream in = DenoPeer.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException("missing resource " + resource);
      }
      Files.copy(in, to, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }
  }

  /** The directory holding the vectors, as scripts expect it. */
  public Path vectorsDir() {
    return work.resolve("vectors");
  }

  /** Sets an environment variable for the scripts started from now on. */
  public DenoPeer env(String name, String value) {
    environment.put(name, value);
    return this;
  }

  /** Starts {@code deno run -A --unstable-kv <script> args…}. */
  public Process start(String script, String... args) throws IOException {
    List<String> command = new ArrayList<>(List.of(binary.toString(), "run", "-A",
        "--unstable-kv", "--no-check", work.resolve(script).toString()));
    command.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
    pb.environment().put("DENO_DIR", work.resolve(".deno").toString());
    pb.environment().put("NO_COLOR", "1");
    pb.environment().putAll(environment);
    return pb.start();
  }

  /**
   * Runs a script to completion.
   *
   * @return its output
   * @throws AssertionError if it fails or takes more than two minutes, with its output
   */
  public String run(String script, String... args) throws IOException, InterruptedException {
    Process p = start(script, args);
    return finish(p, script);
  }

  /** Waits for a started script; see {@link #run}. */
  public static String finish(Process p, String script) throws IOException, InterruptedException {
    // Read while it runs: a script that prints more than a pipe holds would wait for us.
    java.util.concurrent.CompletableFuture<byte[]> output =
        Blocking.call(() -> {
          try {
            return p.getInputStream().readAllBytes();
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        });
    if (!p.waitFor(120, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new AssertionError(script + " did not finish within 120 s");
    }
    String out;
    try {
      out = new String(output.get(), StandardCharsets.UTF_8);
    } catch (java.util.concurrent.ExecutionException e) {
      throw new IOException("reading " + script + "'s output", e.getCause());
    }
    if (p.exitValue() != 0) {
      throw new AssertionError(script + " exited with " + p.exitValue() + ":\n" + out);
    }
    return out.strip();
  }
}
