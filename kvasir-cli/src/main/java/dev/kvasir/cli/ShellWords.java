package dev.kvasir.cli;

import org.jline.reader.ParsedLine;
import org.jline.reader.impl.DefaultParser;

/**
 * How {@code kvasir shell} splits a line into words: quoted as in a POSIX shell, where an open
 * quote goes on on the next line, and a line that starts with {@code #} is a comment.
 */
final class ShellWords extends DefaultParser {
  ShellWords() {
    setEscapeChars(new char[0]); // backslashes belong to JSON, as in a POSIX '…'
    // JLine's default takes a line with an open quote as it stands, the quote dropped, so a
    // script's line set ["k"] '42 stored 42. Reading on, as sh does, keeps a value whole.
    setEofOnUnclosedQuote(true);
  }

  @Override
  public ParsedLine parse(String line, int cursor, ParseContext context) {
    // A comment has no words, so its apostrophe (# it's …) opens no quote.
    return line.stripLeading().startsWith("#") ? super.parse("", 0, context)
        : super.parse(line, cursor, context);
  }
}
