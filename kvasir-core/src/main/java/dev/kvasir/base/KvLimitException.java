package dev.kvasir.base;

/** A key, value or operation exceeds one of Deno KV's limits (docs/limits.md). */
public class KvLimitException extends KvException {
  private static final long serialVersionUID = 1L;

  public KvLimitException(String message) {
    super(message);
  }
}
