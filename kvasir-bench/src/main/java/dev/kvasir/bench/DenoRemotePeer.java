package dev.kvasir.bench;

import dev.kvasir.server.KvServer;
import dev.kvasir.sqlite.SqliteConfig;
import dev.kvasir.sqlite.SqliteEngine;
import java.nio.file.Files;
import java.nio.file.Path;
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
    String dir = PeerProtocol.arguments(args).get("--dir");
    if (dir == null) {
      System.err.println("deno-remote: --dir DIR is required (docs/peer-protocol.md)");
      System.exit(2);
    }
    int code;
    try (DenoScript script = DenoScript.unpack("deno-remote.mjs");
        SqliteEngine engine = SqliteEngine.open(SqliteConfig.of(Path.of(dir, "kv.sqlite3")
            .toString()));
        KvServer server = KvServer.builder(engine).accessToken(TOKEN).port(0).start()) {
      code = script.command(deno, server.url(), TOKEN, List.of(args)).inheritIO().start()
          .waitFor();
    }
    System.exit(code);
  }
}
