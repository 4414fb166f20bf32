package dev.kvasir.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kvasir.dag.Pail;
import dev.kvasir.dag.PailOptions;
import dev.kvasir.dag.PailUpdate;
import dev.kvasir.dag.cid.Cid;
import dev.kvasir.dag.store.Block;
import dev.kvasir.dag.store.MemoryBlockstore;
import dev.kvasir.testkit.PailPeer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Put and get throughput of {@link Pail} next to the JavaScript {@code @alanshaw/pail@0.3.4}
 * (Node, installed by the build of kvasir-dag, see {@code NpmPeer}), in one run, for 10 000 random keys on a memory
 * blockstore at 512 KiB and 8 KiB shards. Both sides drop replaced shards after each put.
 *
 * <pre>java -cp kvasir-bench/target/benchmarks.jar dev.kvasir.bench.DagThroughput [keys]</pre>
 */
public final class DagThroughput {
  private static final ObjectMapper JSON = new ObjectMapper();

  private DagThroughput() {}

  record Result(String root, double putsPerSecond, double getsPerSecond) {}

  public static void main(String[] args) {
    int n = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
    List<String> keys = new ArrayList<>();
    List<Cid> values = new ArrayList<>();
    Random random = new Random(20240422);
    String alphabet = "abcdefghijklmnopqrstuvwxyz-/_";
    for (int i = 0; i < n; i++) {
      StringBuilder key = new StringBuilder();
      int length = 1 + random.nextInt(64);
      for (int c = 0; c < length; c++) {
        key.append(alphabet.charAt(random.nextInt(alphabet.length())));
      }
      keys.add(key.toString());
      values.add(Cid.of(Cid.RAW, ("r" + i).getBytes(StandardCharsets.UTF_8)));
    }
    PailPeer js = PailPeer.require();
    System.out.printf("%d random keys, memory blockstore%n", n);
    System.out.printf("%-10s %12s %12s %7s %12s %12s %7s  %s%n", "shard", "JS puts/s",
        "Kvasir", "ratio", "JS gets/s", "Kvasir", "ratio", "same root as JS");
    for (int max : new int[] {512 * 1024, 8 * 1024}) {
      PailOptions options = PailOptions.defaults().withMaxShardSize(max);
      run(keys.subList(0, Math.min(n, 3000)), values, options); // warm up the JIT
      Result kvasir = run(keys, values, options);
      Result reference = run(keys, values, options.withOneSplitPerPut(true));
      Result node = javascript(js, keys, values, max);
      System.out.printf("%-10s %12.0f %12.0f %6.1fx %12.0f %12.0f %6.1fx  %s%n",
          max / 1024 + " KiB", node.putsPerSecond, kvasir.putsPerSecond,
          kvasir.putsPerSecond / node.putsPerSecond, node.getsPerSecond, kvasir.getsPerSecond,
          kvasir.getsPerSecond / node.getsPerSecond,
          kvasir.root.equals(node.root) ? "yes" : reference.root.equals(node.root)
              ? "with oneSplitPerPut (spec mode splits more, E6)" : "NO");
    }
  }

  private static Result run(List<String> keys, List<Cid> values, PailOptions options) {
    MemoryBlockstore store = new MemoryBlockstore();
    Pail pail = Pail.open(store, options);
    Cid root = pail.empty();
    long t0 = System.nanoTime();
    for (int i = 0; i < keys.size(); i++) {
      PailUpdate u = pail.put(root, keys.get(i), values.get(i));
      if (u.changed()) {
        for (Block b : u.removals()) {
          store.delete(b.cid());
        }
      }
      root = u.root();
    }
    long t1 = System.nanoTime();
    for (String key : keys) {
      if (pail.get(root, key) == null) {
        throw new IllegalStateException("lost " + key);
      }
    }
    long t2 = System.nanoTime();
    return new Result(root.toString(), keys.size() * 1e9 / (t1 - t0),
        keys.size() * 1e9 / (t2 - t1));
  }

  private static Result javascript(PailPeer js, List<String> keys, List<Cid> values, int max) {
    ObjectNode request = JSON.createObjectNode().put("mode", "bench").put("maxShardSize", max);
    keys.forEach(request.putArray("keys")::add);
    values.forEach(v -> request.withArray("values").add(v.toString()));
    JsonNode answer = js.call(request);
    return new Result(answer.get("root").asText(),
        keys.size() * 1000.0 / answer.get("putMs").asDouble(),
        keys.size() * 1000.0 / answer.get("getMs").asDouble());
  }
}
