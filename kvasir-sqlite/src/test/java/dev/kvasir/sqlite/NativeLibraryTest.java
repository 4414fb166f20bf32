package dev.kvasir.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Where the engine finds sqlite-jdbc's native library when it cannot be unpacked. */
class NativeLibraryTest {
  @TempDir Path dir;

  @Test
  void theLibraryInstalledOnTheLibraryPath_isFound() throws IOException {
    Path lib = Files.createDirectory(dir.resolve("lib"));
    Files.createFile(lib.resolve(NativeLibrary.FILE_NAME));
    String path = dir.resolve("elsewhere") + File.pathSeparator + File.pathSeparator + lib;
    assertThat(NativeLibrary.installedIn(path)).isEqualTo(lib);
    assertThat(NativeLibrary.installedIn(dir.toString())).isNull();
    assertThat(NativeLibrary.installedIn("")).isNull();
  }

  @Test
  void theRefusal_namesTheDirectory_andBothWaysOut() {
    Path missing = dir.resolve("missing");
    assertThat(NativeLibrary.refusal(missing, "org.sqlite.tmpdir"))
        .contains(missing + " (org.sqlite.tmpdir), which is not a directory")
        .contains("-Dorg.sqlite.tmpdir=DIR")
        .contains("install the library as " + NativeLibrary.FILE_NAME);
  }
}
