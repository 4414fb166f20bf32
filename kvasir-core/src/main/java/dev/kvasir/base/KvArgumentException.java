package dev.kvasir.base;

/**
 * An argument a call cannot use, named in the message with the rule it breaks: a malformed
 * cursor or versionstamp, a selector whose bounds do not fit, a negative expiry or limit, an
 * option the engine does not know. Nothing was done.
 */
public class KvArgumentException extends KvException {
  private static final long serialVersionUID = 1L;

  public KvArgumentException(String message) {
    super(message);
  }

  public KvArgumentException(String message, Throwable cause) {
    super(message, cause);
  }
}
