package dev.kvasir.dag.store;

import dev.kvasir.dag.DagException;
import dev.kvasir.dag.cid.Cid;

/**
 * A block the DAG links to is not in the store. Never means "no such key": the data is
 * incomplete, so no answer about the key can be given.
 */
public final class MissingBlockException extends DagException {
  private static final long serialVersionUID = 1L;
  private final transient Cid cid;

  public MissingBlockException(Cid cid) {
    this(cid, "missing from the blockstore");
  }

  /** A missing block and why it is missing. */
  public MissingBlockException(Cid cid, String why) {
    super("block " + cid + " is " + why);
    this.cid = cid;
  }

  public Cid cid() {
    return cid;
  }
}
