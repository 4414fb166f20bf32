package dev.kvasir.dag;

/**
 * The root of KV/DAG's exceptions, so that a caller can catch them all: malformed CIDs and
 * DAG-CBOR, missing and corrupt blocks, shards over their size limit.
 */
public class DagException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public DagException(String message) {
    super(message);
  }

  public DagException(String message, Throwable cause) {
    super(message, cause);
  }
}
