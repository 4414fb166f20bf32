package dev.kvasir.sqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kvasir.Kv;
import dev.kvasir.KvKey;
import dev.kvasir.base.KvException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A file or directory the process cannot write (docs/sqlite.md §10): opening it for writing is
 * refused at once, naming the cause and the read-only way in, which still reads it. Before,
 * SQLite opened such a file read-only without a word and every commit failed later. Root
 * ignores permissions, so as root the test makes things unwritable with the immutable
 * attribute instead.
 */
class UnwritableFileTest {
  @TempDir Path dir;
  private final List<Path> immutable = new ArrayList<>();

  @AfterEach
  void makeWritableAgain() throws Exception {
    for (Path p : immutable) {
      run("chattr", "-i", p.toString());
    }
  }

  @Test
  void aReadOnlyFile_isRefusedForWriting_unchanged_andReadsReadOnly() throws Exception {
    Path file = dir.resolve("kv.sqlite3");
    try (Kv kv = Kv.open(file.toString())) {
      kv.set(KvKey.of("k"), "v");
    }
    byte[] before = Files.readAllBytes(file);
    makeUnwritable(file);

    assertThatThrownBy(() -> SqliteEngine.open(SqliteConfig.of(file.toString())))
        .isInstanceOf(KvException.class)
        .hasMessageContaining("cannot open " + file + " for writing: the file is read-only")
        .hasMessageContaining("sqlite.readOnly=true");
    assertThat(Files.readAllBytes(file)).isEqualTo(before);
    try (Kv kv = Kv.of(SqliteEngine.open(SqliteConfig.of(file.toString()).readOnly(true)))) {
      assertThat(kv.get(KvKey.of("k")).value()).isEqualTo("v");
    }
  }

  @Test
  void aReadOnlyDirectory_isRefusedForWriting_andForCreating() throws Exception {
    Path sub = Files.createDirectory(dir.resolve("data"));
    Path file = sub.resolve("kv.sqlite3");
    try (Kv kv = Kv.open(file.toString())) {
      kv.set(KvKey.of("k"), "v");
    } // closing folds the log into the file and removes it
    makeUnwritable(sub);

    assertThatThrownBy(() -> SqliteEngine.open(SqliteConfig.of(file.toString())))
        .isInstanceOf(KvException.class)
        .hasMessageContaining("its directory " + sub + " cannot be written")
        .hasMessageContaining(file + "-wal");
    assertThatThrownBy(() -> SqliteEngine.open(SqliteConfig.of(sub.resolve("new").toString())))
        .isInstanceOf(KvException.class)
        .hasMessageContaining("cannot create " + sub.resolve("new"));
    try (Kv kv = Kv.of(SqliteEngine.open(SqliteConfig.of(file.toString()).readOnly(true)))) {
      assertThat(kv.get(KvKey.of("k")).value()).isEqualTo("v");
    }
  }

  private void makeUnwritable(Path p) throws Exception {
    Files.setPosixFilePermissions(p,
        PosixFilePermissions.fromString(Files.isDirectory(p) ? "r-xr-xr-x" : "r--r--r--"));
    if (Files.isWritable(p)) { // root
      String out = run("chattr", "+i", p.toString());
      Assumptions.assumeFalse(Files.isWritable(p),
          "as root, only the immutable attribute makes " + p + " unwritable, and chattr +i"
              + " failed here: " + out);
      immutable.add(p);
    }
  }

  private static String run(String... command) throws Exception {
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    p.waitFor();
    return out;
  }
}
