package dev.kvasir.value;

/** Tag bytes of V8's ValueSerializer format (docs/values.md §3). */
final class V8Tags {
  static final int VERSION_TAG = 0xff;
  /** Deno 2.9.6 writes version 16. */
  static final int WRITE_VERSION = 16;
  /** Oldest version read; 13 is the first with today's object and view layout we accept. */
  static final int MIN_READ_VERSION = 13;
  static final int MAX_READ_VERSION = 16;
  /** Version from which array buffer views carry a flags varint. */
  static final int VIEW_FLAGS_VERSION = 14;

  /**
   * Deepest nesting read or written on the caller's thread. Recursion costs up to about 1 KiB
   * of stack per level before the JIT compiles it (measured: a 1 MiB stack held 1 092 levels of
   * a cold writer and 1 474 of a cold reader), so 512 fit a default thread stack with room to
   * spare. Deeper values go to {@link dev.kvasir.internal.LargeStack}.
   */
  static final int INLINE_DEPTH = 512;

  /**
   * Deepest nesting read or written at all: more than the 21 844 levels that fit the 65 536
   * bytes Deno allows a value (a Set in a Set costs 3 bytes a level), so no value of a size
   * Deno stores is refused for its depth; Deno 2.9.6 itself writes at most 3 597 to 4 980
   * (docs/values.md §8). Beyond it, input is hostile or a runaway structure.
   */
  static final int MAX_DEPTH = 32_768;

  static final int PADDING = 0x00;
  static final int VERIFY_OBJECT_COUNT = '?';
  static final int THE_HOLE = '-';
  static final int UNDEFINED = '_';
  static final int NULL = '0';
  static final int TRUE = 'T';
  static final int FALSE = 'F';
  static final int INT32 = 'I';
  static final int UINT32 = 'U';
  static final int DOUBLE = 'N';
  static final int BIGINT = 'Z';
  static final int UTF8_STRING = 'S';
  static final int ONE_BYTE_STRING = '"';
  static final int TWO_BYTE_STRING = 'c';
  static final int OBJECT_REFERENCE = '^';
  static final int BEGIN_OBJECT = 'o';
  static final int END_OBJECT = '{';
  static final int BEGIN_SPARSE_ARRAY = 'a';
  static final int END_SPARSE_ARRAY = '@';
  static final int BEGIN_DENSE_ARRAY = 'A';
  static final int END_DENSE_ARRAY = '$';
  static final int DATE = 'D';
  static final int TRUE_OBJECT = 'y';
  static final int FALSE_OBJECT = 'x';
  static final int NUMBER_OBJECT = 'n';
  static final int BIGINT_OBJECT = 'z';
  static final int STRING_OBJECT = 's';
  static final int REGEXP = 'R';
  static final int BEGIN_MAP = ';';
  static final int END_MAP = ':';
  static final int BEGIN_SET = '\'';
  static final int END_SET = ',';
  static final int ARRAY_BUFFER = 'B';
  static final int RESIZABLE_ARRAY_BUFFER = '~';
  static final int ARRAY_BUFFER_VIEW = 'V';
  static final int HOST_OBJECT = '\\';
  static final int ERROR = 'r';

  // Sub-tags inside an Error ('r'); prototype tags live on JsError.Kind.
  static final int ERROR_MESSAGE = 'm';
  static final int ERROR_STACK = 's';
  static final int ERROR_CAUSE = 'c';
  static final int ERROR_END = '.';

  /** RegExp flag bits V8 accepts from JS (0x40, "linear", is internal). */
  static final int REGEXP_FLAG_MASK = 0x1bf;

  private V8Tags() {}
}
