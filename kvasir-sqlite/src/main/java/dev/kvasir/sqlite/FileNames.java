package dev.kvasir.sqlite;

import dev.kvasir.base.KvArgumentException;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The locations the SQLite engine refuses as file names, because no one means them as such: each
 * would make a file in the working directory while the caller's data went somewhere they did not
 * look (docs/sqlite.md §1). Deno refuses an empty name and one starting with ':'; the others are
 * refused because they read as a URL or as SQLite's URI file names, which Deno does not take
 * either. A name written from the current directory ({@code ./sqlite:app.db}) is a file name
 * whatever it holds.
 */
final class FileNames {
  /** A URL's scheme and colon: two letters at least, so that {@code C:\data} stays a path. */
  private static final Pattern SCHEME = Pattern.compile("^([A-Za-z]{2,}):");
  /** SQLite's URI parameters ({@code ?mode=ro}), which a plain file name would hold as text. */
  private static final Pattern URI_PARAMETER = Pattern.compile("\\?[A-Za-z_]+=");

  private FileNames() {}

  /** Whether {@code location} starts like a URL ({@code sqlite:}, {@code file:}, {@code mem:}). */
  static boolean looksLikeUrl(String location) {
    return !fromCurrentDirectory(location) && SCHEME.matcher(location).find();
  }

  /**
   * @throws KvArgumentException saying what to give instead, for a location that is not taken as
   *     a file name
   */
  static void check(String location) {
    if (location.isEmpty()) {
      throw new KvArgumentException("Filename cannot be empty");
    }
    if (location.isBlank()) {
      throw new KvArgumentException("Filename cannot be blank: '" + location + "'");
    }
    if (location.startsWith(":") && !location.equals(":memory:")) {
      throw new KvArgumentException("Filename cannot start with ':' unless prefixed with './': '"
          + location + "' (':memory:' is a database in memory)");
    }
    if (fromCurrentDirectory(location)) {
      return;
    }
    var scheme = SCHEME.matcher(location);
    if (scheme.find()) {
      String name = scheme.group(1).toLowerCase(Locale.ROOT);
      throw new KvArgumentException(name.equals("file")
          ? "'" + location + "' is a SQLite URI file name, which Kvasir does not take (nor does"
              + " Deno): give the file's path"
          : "no engine takes locations starting '" + scheme.group() + "', as in '" + location
              + "'; for a file of that name, write ./" + location
              + (name.startsWith("mem") ? " (':memory:' is a database in memory)" : ""));
    }
    if (URI_PARAMETER.matcher(location).find()) {
      throw new KvArgumentException("'" + location + "' holds SQLite URI parameters, which"
          + " Kvasir does not take (nor does Deno): give the file's path, and options such as"
          + " sqlite.readOnly=true as options (Kv.open(location, options), kvasir --db-option)");
    }
  }

  private static boolean fromCurrentDirectory(String location) {
    return location.startsWith("./") || location.startsWith(".\\");
  }
}
