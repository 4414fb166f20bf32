package dev.kvasir.bench;

import dev.kvasir.Kv;
import dev.kvasir.bench.ServerLoad.Latency;
import dev.kvasir.bench.ServerLoad.Options;
import dev.kvasir.bench.ServerLoad.Result;
import dev.kvasir.testkit.DenoPeer;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@link ServerLoad}'s {@code deno} driver: the mix from Deno clients, run by the script {@code
 * server-load.mjs} against a {@link LoadServer}. The script marks the start and the end of its
 * measured part on its output; both processes' CPU time is read at those marks.
 */
final class DenoLoad {
  private DenoLoad() {}

  static Result run(Options options, LoadServer server) throws Exception {
    Path script = Files.createTempFile("server-load", ".mjs");
    try (InputStream in = DenoLoad.class.getResourceAsStream("server-load.mjs")) {
      Files.copy(in, script, StandardCopyOption.REPLACE_EXISTING);
    }
    try {
      ProcessBuilder pb = new ProcessBuilder(DenoPeer.binary().toString(), "run", "--quiet",
          "--no-prompt", "--unstable-kv", "-A", script.toString(),
          String.valueOf(options.clients()), String.valueOf(options.warmup()),
          String.valueOf(options.seconds())).redirectError(ProcessBuilder.Redirect.INHERIT);
      pb.environment().put("KVASIR_URL", server.url());
      pb.environment().put("DENO_KV_ACCESS_TOKEN", ServerLoad.TOKEN);
      Process p = pb.start();
      long serverBefore = 0;
      long serverAfter = 0;
      long denoBefore = 0;
      long denoAfter = 0;
      long errors = 0;
      long[] seen = new long[ServerLoad.COUNTERS];
      Map<String, Latency> latencies = new LinkedHashMap<>();
      try (BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(),
          StandardCharsets.UTF_8))) {
        for (String line; (line = out.readLine()) != null; ) {
          String[] f = line.split(" ");
          switch (f[0]) {
            case "measuring" -> {
              serverBefore = server.cpuTime().toNanos();
              denoBefore = cpuTime(p);
            }
            case "done" -> {
              serverAfter = server.cpuTime().toNanos();
              denoAfter = cpuTime(p);
            }
            case "errors" -> errors = Long.parseLong(f[1]);
            case "latency" -> latencies.put(f[1], new Latency(Long.parseLong(f[2]),
                Double.parseDouble(f[3]), Double.parseDouble(f[4])));
            case "increments" -> seen = Arrays.stream(f[1].split(","))
                .mapToLong(Long::parseLong).toArray();
            default -> System.err.println("deno: " + line);
          }
        }
      }
      if (p.waitFor() != 0 || !latencies.containsKey("all")) {
        throw new IllegalStateException("the Deno driver failed (exit " + p.exitValue()
            + "; its errors are above)");
      }
      long lost;
      try (Kv kv = ServerLoad.open(server)) {
        lost = ServerLoad.lostIncrements(kv, seen);
      }
      Latency all = latencies.remove("all");
      return new Result(options, all.count(), errors, lost, all, latencies,
          ServerLoad.micros(serverBefore, serverAfter, all.count()),
          ServerLoad.micros(denoBefore, denoAfter, all.count()));
    } finally {
      Files.deleteIfExists(script);
    }
  }

  private static long cpuTime(Process p) {
    return p.info().totalCpuDuration().orElseThrow().toNanos();
  }
}
