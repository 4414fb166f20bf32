package dev.kvasir.base;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import org.junit.jupiter.api.Test;

/** The reason of a file error, without the file's name, which the caller gives once. */
class FileErrorReasonTest {
  @Test
  void theSystemsReason_orWordsForJavasExceptions_withoutThePath() {
    assertThat(FileErrorReason.of(new FileSystemException("/ro/x", null,
        "Read-only file system"))).isEqualTo("Read-only file system");
    assertThat(FileErrorReason.of(new NoSuchFileException("cert.pem")))
        .isEqualTo("no such file or directory");
    assertThat(FileErrorReason.of(new AccessDeniedException("/etc/shadow")))
        .isEqualTo("permission denied");
    assertThat(FileErrorReason.of(new IOException("Broken pipe"))).isEqualTo("Broken pipe");
  }

  /** Java expands no ~, nor does a shell after '=' or in quotes: a missing ~/… says so. */
  @Test
  void aMissingPathStartingWithATilde_isSaidToBeUnexpanded() {
    assertThat(FileErrorReason.of(new NoSuchFileException("~/cert.pem")))
        .isEqualTo("no such file or directory (~ is not expanded here: write the home"
            + " directory's path, or ~/… as a word of its own on a shell's command line)");
    assertThat(FileErrorReason.unexpandedTilde("/home/me/cert.pem")).isEmpty();
  }
}
