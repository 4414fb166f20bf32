package dev.kvasir.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A file written aside and renamed into place, and what its errors name. */
class FileMovesTest {
  @TempDir Path dir;

  @Test
  void aFileWrittenAside_replacesTheTarget_andLeavesNothingElse() throws Exception {
    Path target = Files.writeString(dir.resolve("out.ndjson"), "old");
    FileMoves.writeAside(target, new PrintWriter(new StringWriter()),
        file -> Files.writeString(file, "new"));
    assertThat(Files.readString(target)).isEqualTo("new");
    try (var files = Files.list(dir)) {
      assertThat(files).containsExactly(target);
    }
  }

  @Test
  void aDirectoryWhereNoFileCanBeMade_isNamedWithTheTarget_notThePartialFile() {
    // Linux's /proc takes no new files. The error named out.ndjson.partial-PID, a file the user
    // never gave.
    Path target = Path.of("/proc", "kvasir-file-moves-test.ndjson");
    assertThatThrownBy(() -> FileMoves.writeAside(target, new PrintWriter(new StringWriter()),
        file -> Files.writeString(file, "x")))
        .isInstanceOf(FileSystemException.class)
        .satisfies(e -> {
          FileSystemException f = (FileSystemException) e;
          assertThat(f.getFile()).isEqualTo(target.toString());
          assertThat(f.getReason()).startsWith("cannot create files in /proc: ");
        });
  }
}
