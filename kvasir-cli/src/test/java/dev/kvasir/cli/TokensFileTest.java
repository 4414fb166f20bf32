package dev.kvasir.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kvasir.KvKey;
import dev.kvasir.server.AccessToken;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TokensFileTest {
  @TempDir Path dir;

  private Path write(String text, Instant modified) throws Exception {
    Path file = dir.resolve("tokens");
    Files.writeString(file, text);
    Files.setLastModifiedTime(file, FileTime.from(modified));
    return file;
  }

  @Test
  void aByteOrderMark_isNotPartOfTheFirstToken() throws Exception {
    // Notepad's UTF-8 starts with one: the first token was unusable, its mark invisible.
    Path file = write("\uFEFFops-token-0123456789 rw\r\nnext-token-0123456789 ro\r\n",
        Instant.now());
    assertThat(new TokensFile(file).get()).extracting(AccessToken::secret)
        .containsExactly("ops-token-0123456789", "next-token-0123456789");
  }

  @Test
  void lines_becomeTokensWithAccessAndPrefixes() throws Exception {
    Path file = write("""
        # comment
        ops-token-0123456789 rw
        dash-token-0123456789   ro
        app-token-0123456789 rw ["users", "alice"]  ["sessions", 7n]
        """, Instant.now());
    List<AccessToken> tokens = new TokensFile(file).get();
    assertThat(tokens).hasSize(3);
    assertThat(tokens.get(0).readOnly()).isFalse();
    assertThat(tokens.get(0).prefixes()).isEmpty();
    assertThat(tokens.get(1).readOnly()).isTrue();
    assertThat(tokens.get(2).prefixes()).containsExactly(KvKey.of("users", "alice").raw(),
        KvKey.of("sessions", java.math.BigInteger.valueOf(7)).raw());
  }

  @Test
  void aBadFile_isRefusedAtStart_andKeepsTheOldTokensLater() throws Exception {
    assertThatThrownBy(() -> new TokensFile(write("short rw\n", Instant.now())))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("line 1").hasMessageContaining("at least 12 characters");
    Instant start = Instant.now().minusSeconds(60);
    Path file = write("first-token-0123456789 rw\n", start);
    TokensFile tokens = new TokensFile(file);
    write("first-token-0123456789 maybe\n", start.plusSeconds(1));
    Thread.sleep(1_100); // the file is looked at once a second at most
    try (CapturedLog log = new CapturedLog(TokensFile.class)) {
      assertThat(tokens.get()).extracting(AccessToken::secret)
          .containsExactly("first-token-0123456789");
      assertThat(log.lines()).singleElement().asString().startsWith("WARN")
          .contains("line 1").contains("stay in force");
    }
    write("second-token-0123456789 ro\n", start.plusSeconds(2));
    Thread.sleep(1_100);
    assertThat(tokens.get()).extracting(AccessToken::secret)
        .containsExactly("second-token-0123456789");
  }
}
