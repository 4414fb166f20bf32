package dev.kvasir.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Secrets read from files, so that neither {@code ps} nor a shell's history shows them. */
final class Secrets {
  private Secrets() {}

  /**
   * The first line of a secret file, without its line break.
   *
   * @throws IllegalArgumentException naming the file and {@code what} it should hold
   */
  static String firstLine(Path file, String what) {
    try {
      String text = Files.readString(file);
      int end = text.indexOf('\n');
      String line = end < 0 ? text : text.substring(0, end);
      return line.endsWith("\r") ? line.substring(0, line.length() - 1) : line;
    } catch (IOException e) {
      throw new IllegalArgumentException("cannot read the " + what + " from " + file + ": "
          + e.getMessage());
    }
  }
}
