package dev.kvasir.value;

/**
 * One shared String for each one-character Latin-1 string, as CPython keeps for its own: values
 * hold tags, flags and codes of one letter (the harness's W4 values two each), and a list that
 * reads them would otherwise allocate a String and its array for each. On a machine where the
 * heap's fresh pages are dear this shows in list scans (docs/performance.md §5, "Fewer bytes per
 * entry do show on this machine"). Strings are immutable, so sharing them is invisible except
 * to {@code ==}.
 */
final class OneCharStrings {
  private static final String[] TABLE = new String[256];

  static {
    for (int c = 0; c < TABLE.length; c++) {
      TABLE[c] = String.valueOf((char) c);
    }
  }

  private OneCharStrings() {}

  /** The string of the one character whose Latin-1 code is {@code latin1} (as unsigned). */
  static String of(byte latin1) {
    return TABLE[latin1 & 0xff];
  }
}
