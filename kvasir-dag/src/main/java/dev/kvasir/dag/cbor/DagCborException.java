package dev.kvasir.dag.cbor;

import dev.kvasir.dag.DagException;

/** Bytes that are not canonical DAG-CBOR, or a value DAG-CBOR cannot hold. */
public final class DagCborException extends DagException {
  private static final long serialVersionUID = 1L;

  public DagCborException(String message) {
    super(message);
  }
}
