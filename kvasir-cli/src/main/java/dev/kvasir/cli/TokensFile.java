package dev.kvasir.cli;

import dev.kvasir.KvKey;
import dev.kvasir.base.FileErrorReason;
import dev.kvasir.server.AccessToken;
import dev.kvasir.spi.RawKey;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code kvasir serve --tokens-file}: the tokens clients may present, one per line (docs/
 * operations.md §4): {@code TOKEN rw|ro [PREFIX …]}, prefixes as keys in the CLI's syntax,
 * {@code #} comments. Read again when the file changes (looked at once a second at most), so
 * tokens rotate without a restart; a file that no longer parses leaves the tokens in force and
 * says why.
 */
final class TokensFile implements Supplier<List<AccessToken>> {
  private static final long LOOK_EVERY_MS = 1_000;

  private static final Logger LOG = LoggerFactory.getLogger(TokensFile.class);

  private final Path file;
  private List<AccessToken> tokens;
  private FileTime readAt;
  private long lookedAtMs;

  /**
   * Reads {@code file}; later problems are logged as warnings.
   *
   * @throws IllegalArgumentException if it cannot be read or parsed, naming the line
   */
  TokensFile(Path file) {
    this.file = file;
    this.readAt = modified();
    this.tokens = parse(read());
    this.lookedAtMs = System.currentTimeMillis();
  }

  @Override
  public synchronized List<AccessToken> get() {
    long now = System.currentTimeMillis();
    if (now - lookedAtMs >= LOOK_EVERY_MS) {
      lookedAtMs = now;
      try {
        FileTime modified = modified();
        if (!modified.equals(readAt)) {
          tokens = parse(read());
          readAt = modified;
          LOG.info("Read {} tokens from {}", tokens.size(), file);
        }
      } catch (IllegalArgumentException e) {
        LOG.warn("{}; the tokens read before stay in force", e.getMessage());
      }
    }
    return tokens;
  }

  private FileTime modified() {
    try {
      return Files.getLastModifiedTime(file);
    } catch (IOException e) {
      throw unreadable(e);
    }
  }

  private List<String> read() {
    try {
      return TextFiles.read(file).lines().toList();
    } catch (IOException e) {
      throw unreadable(e);
    }
  }

  private IllegalArgumentException unreadable(IOException e) {
    return new IllegalArgumentException("cannot read the tokens file " + file + ": "
        + FileErrorReason.of(e), e);
  }

  private List<AccessToken> parse(List<String> lines) {
    List<AccessToken> out = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i).strip();
      if (line.isEmpty() || line.startsWith("#")) {
        continue;
      }
      try {
        AccessToken token = token(line);
        if (!seen.add(token.secret())) {
          throw new IllegalArgumentException("the token appears twice");
        }
        out.add(token);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(file + " line " + (i + 1) + ": " + e.getMessage()
            + " (expected: TOKEN rw|ro [PREFIX ...])");
      }
    }
    if (out.isEmpty()) {
      throw new IllegalArgumentException(file + " holds no token");
    }
    return List.copyOf(out);
  }

  private static AccessToken token(String line) {
    String[] fields = line.split("\\s+", 3);
    if (fields.length < 2 || !fields[1].equals("rw") && !fields[1].equals("ro")) {
      throw new IllegalArgumentException("the second field is rw or ro");
    }
    List<RawKey> prefixes = new ArrayList<>();
    if (fields.length == 3) {
      // Keys are separated by white space between a closing and an opening bracket.
      for (String key : fields[2].split("(?<=\\])\\s+(?=\\[)")) {
        KvKey prefix = KeySyntax.parse(key);
        if (prefix.size() == 0) {
          throw new IllegalArgumentException("the empty prefix [] would cover every key; leave"
              + " the prefixes out instead");
        }
        prefixes.add(prefix.raw());
      }
    }
    return new AccessToken(fields[0], fields[1].equals("ro"), prefixes);
  }
}
