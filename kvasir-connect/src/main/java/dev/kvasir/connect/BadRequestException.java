package dev.kvasir.connect;

import dev.kvasir.base.KvException;

/**
 * A KV Connect request the server refuses as the client's fault (HTTP 400): malformed protobuf,
 * a limit exceeded, an invalid field. The message is what the client is told.
 */
public final class BadRequestException extends KvException {
  private static final long serialVersionUID = 1L;

  public BadRequestException(String message) {
    super(message);
  }
}
