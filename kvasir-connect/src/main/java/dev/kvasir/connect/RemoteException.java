package dev.kvasir.connect;

import dev.kvasir.base.KvException;

/** A KV Connect server refused a request or answered something a client cannot use. */
public final class RemoteException extends KvException {
  private static final long serialVersionUID = 1L;

  public RemoteException(String message) {
    super(message);
  }

  public RemoteException(String message, Throwable cause) {
    super(message, cause);
  }
}
