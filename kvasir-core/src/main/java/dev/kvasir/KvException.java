package dev.kvasir;

/**
 * Root of every error Kvasir raises on its own account. Unchecked; subclasses exist only where
 * a caller needs to tell failures apart. Messages name the offending thing and the rule.
 */
public class KvException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public KvException(String message) {
    super(message);
  }

  public KvException(String message, Throwable cause) {
    super(message, cause);
  }
}
