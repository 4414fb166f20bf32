package dev.kvasir.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kvasir.testkit.InstalledJdks;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The jar on the Java releases after 17 that users run it on: Java 24 and later print four
 * lines of warning on standard error when a library loads native code (the SQLite driver does),
 * at every command, unless the jar's manifest allows it.
 */
class NewerJavaIT {
  @TempDir Path dir;

  @Test
  void theJar_allowsTheSqliteDriverItsNativeLibrary() throws Exception {
    try (JarFile jar = new JarFile(Jar.JAR.toFile())) {
      assertThat(jar.getManifest().getMainAttributes().getValue("Enable-Native-Access"))
          .isEqualTo("ALL-UNNAMED");
    }
  }

  @Test
  void onJava22OrLater_aCommandPrintsNoWarning() throws Exception {
    List<Path> javas = InstalledJdks.javasFrom(22);
    Assumptions.assumeFalse(javas.isEmpty(),
        "no Java 22 or later under /usr/lib/jvm to run the jar on");
    for (Path java : javas) {
      Process p = new ProcessBuilder(java.toString(), "-jar", Jar.JAR.toString(), "set",
          "--db", dir.resolve("kv.sqlite3").toString(), "[\"k\"]", "1").start();
      String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
      assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
      assertThat(p.exitValue()).as(java + ": " + err).isZero();
      assertThat(err).as(java.toString()).isEmpty();
    }
  }
}
