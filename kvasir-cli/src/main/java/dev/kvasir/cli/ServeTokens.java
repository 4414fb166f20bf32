package dev.kvasir.cli;

import dev.kvasir.base.FileErrorReason;
import dev.kvasir.server.KvServer;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.Base64;

/**
 * The tokens {@code kvasir serve} accepts (docs/operations.md §4): one given on the command line,
 * in the environment or in a file, several in a tokens file, or else a new random one. A new
 * token is shown on the terminal, and only there; without one (a service, a container, a
 * pipe) it goes to the file {@value #GENERATED_FILE} in the working directory, readable only by
 * the server's user, so that it never lands in a log.
 */
final class ServeTokens {
  static final String GENERATED_FILE = "kvasir-access-token";

  private final TokensFile scoped;
  private final String single;
  private final boolean generated;

  private ServeTokens(TokensFile scoped, String single, boolean generated) {
    this.scoped = scoped;
    this.single = single;
    this.generated = generated;
  }

  /**
   * The tokens the options give.
   *
   * @throws IllegalArgumentException if they are given more than one way, a file cannot be
   *     read, or the token is too short or has white space
   */
  static ServeTokens resolve(String token, Path tokenFile, Path tokensFile) {
    int ways = (token != null && !token.isEmpty() ? 1 : 0) + (tokenFile != null ? 1 : 0)
        + (tokensFile != null ? 1 : 0);
    if (ways > 1) {
      throw new IllegalArgumentException("give the access tokens one way: --access-token,"
          + " --access-token-file or --tokens-file (or their environment variables)");
    }
    if (tokensFile != null) {
      return new ServeTokens(new TokensFile(tokensFile), null, false);
    }
    String given = tokenFile != null ? Secrets.firstLine(tokenFile, "access token") : token;
    if (given == null || given.isEmpty()) {
      return new ServeTokens(null, newToken(), true);
    }
    if (given.length() < 12 || given.chars().anyMatch(Character::isWhitespace)) {
      throw new IllegalArgumentException("the access token must have at least 12 characters and"
          + " no white space; pass another --access-token or leave it out to get a random one");
    }
    return new ServeTokens(null, given, false);
  }

  /** Gives the server these tokens. */
  void configure(KvServer.Builder server) {
    if (scoped != null) {
      server.accessTokens(scoped);
    } else {
      server.accessToken(single);
    }
  }

  /**
   * What the banner says of a new token: the token itself on a terminal, else where it was
   * written; null when the token was given.
   *
   * @throws IOException if it cannot be written
   */
  String announce() throws IOException {
    if (!generated) {
      return null;
    }
    if (Consoles.interactive()) {
      return "Access token (generated, shown only now): " + single;
    }
    Path file = Path.of(GENERATED_FILE).toAbsolutePath();
    try {
      writePrivately(file, single + "\n");
    } catch (IOException e) {
      // Java's message was the path of the file written aside alone.
      throw new IOException("cannot write the generated access token to " + file + ": "
          + FileErrorReason.of(e) + "; give the server a token (--access-token-file FILE,"
          + " KVASIR_ACCESS_TOKEN) or start it in a directory it may write", e);
    }
    return "Access token (generated): in " + file + ", readable only by this user";
  }

  /** Replaces {@code file} with {@code text}, created readable by its owner only. */
  private static void writePrivately(Path file, String text) throws IOException {
    Path temp = file.resolveSibling(file.getFileName() + ".new");
    Files.deleteIfExists(temp);
    try {
      Files.createFile(temp, PosixFilePermissions.asFileAttribute(
          PosixFilePermissions.fromString("rw-------")));
    } catch (UnsupportedOperationException notPosix) {
      Files.createFile(temp);
    } catch (FileAlreadyExistsException raced) {
      throw new IOException("another process writes " + temp);
    }
    Files.writeString(temp, text);
    Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }

  private static String newToken() {
    byte[] bytes = new byte[24];
    new SecureRandom().nextBytes(bytes);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }
}
