package dev.kvasir.value;

/** JavaScript's {@code undefined}, distinct from {@code null}. */
public enum Undefined {
  INSTANCE;

  @Override
  public String toString() {
    return "undefined";
  }
}
