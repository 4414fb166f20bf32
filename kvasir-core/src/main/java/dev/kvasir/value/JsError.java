package dev.kvasir.value;

import dev.kvasir.base.KvArgumentException;
import java.util.Objects;

/**
 * A JS {@code Error} as structured clone keeps it: its kind (the prototype), and the message,
 * stack and cause when present. Immutable; identity is the JS object identity.
 */
public final class JsError {
  /** The error prototypes V8 distinguishes, with the tag it writes for each. */
  public enum Kind {
    ERROR(0),
    EVAL_ERROR('E'),
    RANGE_ERROR('R'),
    REFERENCE_ERROR('F'),
    SYNTAX_ERROR('S'),
    TYPE_ERROR('T'),
    URI_ERROR('U');

    final int tag;

    Kind(int tag) {
      this.tag = tag;
    }

    /** The JS constructor name, e.g. {@code RangeError}. */
    public String jsName() {
      StringBuilder out = new StringBuilder();
      for (String word : name().split("_")) {
        out.append(word.equals("URI") ? "URI" : word.charAt(0) + word.substring(1).toLowerCase());
      }
      return out.toString();
    }

    /** The kind whose {@link #jsName()} is {@code name}. */
    public static Kind ofJsName(String name) {
      for (Kind k : values()) {
        if (k.jsName().equals(name)) {
          return k;
        }
      }
      throw new KvArgumentException("not a JS error type: " + name);
    }
  }

  private final Kind kind;
  private final String message;
  private final String stack;
  private final boolean hasCause;
  private final Object cause;

  private JsError(Kind kind, String message, String stack, boolean hasCause, Object cause) {
    this.kind = Objects.requireNonNull(kind, "kind");
    this.message = message;
    this.stack = stack;
    this.hasCause = hasCause;
    this.cause = cause;
  }

  /** An error without a cause; {@code message} and {@code stack} may be null (absent). */
  public static JsError of(Kind kind, String message, String stack) {
    return new JsError(kind, message, stack, false, null);
  }

  /** An error with a cause property, which may be any value including null. */
  public static JsError withCause(Kind kind, String message, String stack, Object cause) {
    return new JsError(kind, message, stack, true, cause);
  }

  public Kind kind() {
    return kind;
  }

  /** The message, or null when the error has no own message property. */
  public String message() {
    return message;
  }

  /** The stack string, or null when it was absent (for example deleted). */
  public String stack() {
    return stack;
  }

  public boolean hasCause() {
    return hasCause;
  }

  /** The cause; meaningful only when {@link #hasCause()}. */
  public Object cause() {
    return cause;
  }

  @Override
  public String toString() {
    return kind.jsName() + (message == null ? "" : ": " + message);
  }
}
