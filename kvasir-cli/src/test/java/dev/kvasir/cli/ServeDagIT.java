package dev.kvasir.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.kvasir.Kv;
import dev.kvasir.testkit.DenoPeer;
import dev.kvasir.testkit.DenoWrites;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code kvasir serve --db dag:DIR} passes the Deno remote checks the SQLite server passes
 * (DenoRemoteIT): every remote operation of the real Deno, and every value vector Deno writes,
 * read back afterwards from the {@code dag:} directory itself.
 */
class ServeDagIT {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String TOKEN = "serve-dag-token";

  @TempDir Path dir;

  @Test
  void everyRemoteOperationOfDeno_works_andWhatDenoWroteIsInTheDirectory() throws Exception {
    DenoPeer deno = DenoPeer.require(dir.resolve("deno")).env("DENO_KV_ACCESS_TOKEN", TOKEN);
    JsonNode stamps;
    try (ServeProcess serve = new ServeProcess(dir, Map.of(), "--db", "dag:db", "--port", "0",
        "--access-token", TOKEN)) {
      assertThat(deno.run("remote.ts", serve.url())).isEqualTo("ok");
      stamps = JSON.readTree(deno.run("write_all.ts", serve.url(),
          deno.vectorsDir().toString()));
      assertThat(serve.stop()).isZero();
    }
    try (Kv kv = Kv.open("dag:" + dir.resolve("db"))) {
      DenoWrites.assertEveryValueVector(kv, stamps);
    }
  }
}
