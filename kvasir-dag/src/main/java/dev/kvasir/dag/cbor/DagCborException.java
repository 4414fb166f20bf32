package dev.kvasir.dag.cbor;

/** Bytes that are not canonical DAG-CBOR, or a value DAG-CBOR cannot hold. */
public final class DagCborException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  public DagCborException(String message) {
    super(message);
  }
}
