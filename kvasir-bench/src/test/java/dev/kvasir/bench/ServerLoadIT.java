package dev.kvasir.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The KV Connect load of {@link ServerLoad}, shortened for the build: 64 Java clients, then 64
 * Deno clients, each with its own connection, for 2 + 8 s. Only correctness is asserted (no errors, no lost increments); the
 * figures are printed, and the 30 s runs for notes use {@code ServerLoad}'s main.
 */
class ServerLoadIT {
  @TempDir Path dir;

  @Test
  void sixtyFourRemoteClients_noErrors_noLostWrites() throws Exception {
    ServerLoad.Result result = ServerLoad.run(dir,
        new ServerLoad.Options(ServerLoad.Driver.REMOTE, 64, 8, 2, 0));
    System.out.println(result);
    assertThat(result.operations()).isPositive();
    assertThat(result.errors()).isZero();
    assertThat(result.lostIncrements()).isZero();
  }

  @Test
  void sixtyFourDenoClients_noErrors_noLostWrites() throws Exception {
    ServerLoad.Result result = ServerLoad.run(dir,
        new ServerLoad.Options(ServerLoad.Driver.DENO, 64, 8, 2, 0));
    System.out.println(result);
    assertThat(result.operations()).isPositive();
    assertThat(result.errors()).isZero();
    assertThat(result.lostIncrements()).isZero();
    assertThat(result.byKind().keySet()).containsExactlyElementsOf(ServerLoad.KINDS);
  }
}
