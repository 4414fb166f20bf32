package dev.kvasir.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The KV Connect load of {@link ServerLoad}, shortened for the build: 64 Java clients on threads,
 * 64 on the asynchronous API, then 64 Deno clients, each with its own connection, for 2 + 8 s.
 * Only correctness is asserted (no errors, no lost increments, every kind of operation run); the
 * figures are printed, and the runs for notes use {@code ServerLoad}'s main
 * (docs/performance.md §4).
 */
class ServerLoadIT {
  @TempDir Path dir;

  @ParameterizedTest
  @EnumSource(value = ServerLoad.Driver.class, names = {"REMOTE", "REMOTE_ASYNC", "DENO"})
  void sixtyFourClients_noErrors_noLostWrites(ServerLoad.Driver driver) throws Exception {
    ServerLoad.Result result = ServerLoad.run(dir, new ServerLoad.Options(driver, 64, 8, 2, 0,
        ServerLoad.DEFAULT_DENO_LOOPS));
    System.out.println(result);
    assertThat(result.operations()).isPositive();
    assertThat(result.errors()).isZero();
    assertThat(result.lostIncrements()).isZero();
    assertThat(result.byKind().keySet()).containsExactlyElementsOf(ServerLoad.KINDS);
    assertThat(result.byKind().values()).allSatisfy(l -> assertThat(l.count()).isPositive());
    // The server's JVM reports its compilers' time, read at both ends of the measured part.
    assertThat(result.serverCompilingSeconds()).isNotNaN().isGreaterThanOrEqualTo(0.0);
  }
}
