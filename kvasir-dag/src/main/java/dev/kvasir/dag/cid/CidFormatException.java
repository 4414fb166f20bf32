package dev.kvasir.dag.cid;

import dev.kvasir.dag.DagException;

/** Text or bytes that are not a CID this library can read; the message says which and why. */
public final class CidFormatException extends DagException {
  private static final long serialVersionUID = 1L;

  public CidFormatException(String message) {
    super(message);
  }
}
