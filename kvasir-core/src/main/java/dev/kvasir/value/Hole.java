package dev.kvasir.value;

/**
 * An array hole: an index with no element, as in {@code [1, , 3]}. Distinct from {@code
 * undefined}; an array containing holes is written in V8's sparse form.
 */
public enum Hole {
  INSTANCE;

  @Override
  public String toString() {
    return "<empty>";
  }
}
