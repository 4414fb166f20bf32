package dev.kvasir;

/** A key, value or operation exceeds one of Deno KV's limits (see {@link Limits}). */
public class KvLimitException extends KvException {
  private static final long serialVersionUID = 1L;

  public KvLimitException(String message) {
    super(message);
  }
}
