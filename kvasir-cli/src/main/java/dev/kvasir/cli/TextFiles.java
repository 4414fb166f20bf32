package dev.kvasir.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Small text files an operator writes (tokens, passwords, settings), read as UTF-8 without the
 * byte order mark that Notepad and PowerShell 5 put first: left in, it was an invisible first
 * character of the token, the password or the first setting's name (docs/operations.md §2).
 */
final class TextFiles {
  /** The byte order mark as a character. */
  static final String BOM = "\uFEFF";

  private TextFiles() {}

  /** The whole file as text, a leading byte order mark dropped. */
  static String read(Path file) throws IOException {
    String text = Files.readString(file, StandardCharsets.UTF_8);
    return text.startsWith(BOM) ? text.substring(1) : text;
  }
}
