package dev.kvasir.bench;

import dev.kvasir.server.KvServer;
import dev.kvasir.sqlite.SqliteConfig;
import dev.kvasir.sqlite.SqliteEngine;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@code deno-remote} peer of the shared harness (docs/peer-protocol.md): the harness's own
 * JavaScript workloads, run by Deno against a {@code KvServer} this process starts on a SQLite
 * file in {@code --dir}. Beside {@code deno-local} (the same workloads on Deno's own SQLite) it
 * prices the server for Deno clients, as {@code kvasir-remote} does for Java ones.
 *
 * <pre>DENO_BIN=… ./run.sh --peer-cmd "deno-remote=java -cp $PWD/kvasir-bench/target/benchmarks.jar
 *     dev.kvasir.bench.DenoRemotePeer"</pre>
 *
 * Run from the harness directory, as the harness runs peers: the script imports {@code
 * js/workloads.mjs} from there.
 */
public final class DenoRemotePeer {
  private static final String TOKEN = "deno-remote-peer-token";

  private DenoRemotePeer() {}

  public static void main(String[] args) throws Exception {
    String deno = System.getenv("DENO_BIN");
    if (deno == null || !Files.isExecutable(Path.of(deno))) {
      System.err.println("deno-remote: set DENO_BIN to the Deno binary (as for deno-local)");
      System.exit(2);
    }
    Path dir = null;
    for (int i = 0; i + 1 < args.length; i++) {
      if (args[i].equals("--dir")) {
        dir = Path.of(args[i + 1]);
      }
    }
    if (dir == null) {
      System.err.println("deno-remote: --dir DIR is required (docs/peer-protocol.md)");
      System.exit(2);
    }
    Path script = Files.createTempFile("deno-remote", ".mjs");
    try (InputStream in = DenoRemotePeer.class.getResourceAsStream("deno-remote.mjs")) {
      Files.copy(in, script, StandardCopyOption.REPLACE_EXISTING);
    }
    int code;
    try (SqliteEngine engine = SqliteEngine.open(SqliteConfig.of(dir.resolve("kv.sqlite3")
        .toString()));
        KvServer server = KvServer.builder(engine).accessToken(TOKEN).port(0).start()) {
      List<String> command = new ArrayList<>(List.of(deno, "run", "--quiet", "--no-prompt",
          "--unstable-kv", "-A", script.toString()));
      command.addAll(List.of(args));
      ProcessBuilder pb = new ProcessBuilder(command).inheritIO();
      pb.environment().put("KVASIR_URL", server.url());
      pb.environment().put("DENO_KV_ACCESS_TOKEN", TOKEN);
      code = pb.start().waitFor();
    } finally {
      Files.deleteIfExists(script);
    }
    System.exit(code);
  }
}
