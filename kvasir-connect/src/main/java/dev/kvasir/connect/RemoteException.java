package dev.kvasir.connect;

import dev.kvasir.base.KvException;

/** A KV Connect server refused a request or answered something a client cannot use. */
public final class RemoteException extends KvException {
  private static final long serialVersionUID = 1L;

  private final int status;

  public RemoteException(String message) {
    this(message, 0);
  }

  public RemoteException(String message, Throwable cause) {
    super(message, cause);
    this.status = 0;
  }

  /** A refusal the server answered with the HTTP {@code status}. */
  public RemoteException(String message, int status) {
    super(message);
    this.status = status;
  }

  /**
   * The HTTP status of the server's refusal: 401 for a token it does not know, 403 for a request
   * the token or a read-only server does not allow, 404 for a URL that is not a database's;
   * 0 when the failure was not a refusal (an answer that could not be decoded, for example).
   */
  public int status() {
    return status;
  }
}
