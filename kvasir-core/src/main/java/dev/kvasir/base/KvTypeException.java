package dev.kvasir.base;

/**
 * A value has the wrong type for an operation: a {@code sum}, {@code min} or {@code max} on a
 * stored value that is not a u64 (the whole commit fails, nothing of it is applied), or a typed
 * read ({@code KvEntry.value(Class)}) of a value that does not fit the requested type.
 */
public class KvTypeException extends KvException {
  private static final long serialVersionUID = 1L;

  public KvTypeException(String message) {
    super(message);
  }
}
