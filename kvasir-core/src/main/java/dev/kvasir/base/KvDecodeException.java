package dev.kvasir.base;

/**
 * Stored bytes (an encoded key or a serialized value) are malformed: truncated, an unknown tag,
 * invalid UTF-8, a length larger than the input, nesting beyond the supported depth. Decoders
 * never let another exception type escape for bad input.
 */
public class KvDecodeException extends KvException {
  private static final long serialVersionUID = 1L;

  public KvDecodeException(String message) {
    super(message);
  }
}
