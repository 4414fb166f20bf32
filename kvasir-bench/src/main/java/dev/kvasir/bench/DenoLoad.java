package dev.kvasir.bench;

import dev.kvasir.Kv;
import dev.kvasir.bench.ServerLoad.Latency;
import dev.kvasir.bench.ServerLoad.Options;
import dev.kvasir.bench.ServerLoad.Result;
import dev.kvasir.testkit.DenoPeer;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@link ServerLoad}'s {@code deno} driver: the mix from Deno clients, run by the script {@code
 * server-load.mjs} against a {@link LoadServer}. The script marks the start and the end of its
 * measured part on its output; both processes' CPU time is read at those marks.
 */
final class DenoLoad {
  private DenoLoad() {}

  static Result run(Options options, LoadServer server) throws Exception {
    try (DenoScript script = DenoScript.unpack("server-load.mjs")) {
      Process p = script.command(DenoPeer.binary().toString(), server.url(), ServerLoad.TOKEN,
          List.of(String.valueOf(options.clients()), String.valueOf(options.warmup()),
              String.valueOf(options.seconds()), String.valueOf(options.denoLoops())))
          .redirectError(ProcessBuilder.Redirect.INHERIT).start();
      long serverBefore = 0;
      long serverAfter = 0;
      long denoBefore = 0;
      long denoAfter = 0;
      long compilingBefore = -1;
      long compilingAfter = -1;
      long errors = 0;
      long[] seen = new long[ServerLoad.COUNTERS];
      Map<String, Latency> latencies = new LinkedHashMap<>();
      try (BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(),
          StandardCharsets.UTF_8))) {
        for (String line; (line = out.readLine()) != null; ) {
          String[] f = line.split(" ");
          switch (f[0]) {
            case "measuring" -> {
              serverBefore = server.cpuNanos();
              denoBefore = LoadServer.cpuNanos(p);
              compilingBefore = server.compilationMillis();
            }
            case "done" -> {
              serverAfter = server.cpuNanos();
              denoAfter = LoadServer.cpuNanos(p);
              compilingAfter = server.compilationMillis();
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
          ServerLoad.micros(denoBefore, denoAfter, all.count()),
          ServerLoad.compilingSeconds(compilingBefore, compilingAfter));
    }
  }
}
