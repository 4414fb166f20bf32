package dev.kvasir.dag.store;

import dev.kvasir.dag.DagException;
import dev.kvasir.dag.cid.Cid;

/** A block whose bytes do not hash to its CID, or that cannot be decoded as what it should be. */
public final class CorruptBlockException extends DagException {
  private static final long serialVersionUID = 1L;
  private final transient Cid cid;

  public CorruptBlockException(Cid cid, String why) {
    super("block " + cid + " is corrupt: " + why);
    this.cid = cid;
  }

  public Cid cid() {
    return cid;
  }
}
