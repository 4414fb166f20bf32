package dev.kvasir.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The KV Connect load of {@link ServerLoad}, shortened for the build: 64 clients, each with its
 * own connection, for 10 s. Only correctness is asserted (no errors, no lost increments); the
 * figures are printed, and the 30 s runs for notes use {@code ServerLoad}'s main.
 */
class ServerLoadIT {
  @TempDir Path dir;

  @Test
  void sixtyFourRemoteClients_noErrors_noLostWrites() throws Exception {
    ServerLoad.Result result = ServerLoad.run(dir, true, 64, 10);
    System.out.println(result);
    assertThat(result.operations()).isPositive();
    assertThat(result.errors()).isZero();
    assertThat(result.lostIncrements()).isZero();
  }
}
