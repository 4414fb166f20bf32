package dev.kvasir.dag.store;

import dev.kvasir.dag.cid.Cid;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;

/**
 * Immutable bytes and the CID they hash to. A block is valid by construction: {@link #of}
 * computes the CID, {@link #verified} checks a claimed one.
 */
public final class Block {
  private final Cid cid;
  private final byte[] bytes;

  private Block(Cid cid, byte[] bytes) {
    this.cid = cid;
    this.bytes = bytes;
  }

  /** Hashes {@code data} (copied) into a CIDv1 with the given codec. */
  public static Block of(long codec, byte[] data) {
    byte[] own = data.clone();
    return new Block(Cid.of(codec, own), own);
  }

  /**
   * A block whose bytes are checked against {@code cid}.
   *
   * @throws CorruptBlockException if they do not hash to it
   */
  public static Block verified(Cid cid, byte[] data) {
    byte[] own = data.clone();
    if (!cid.matches(own)) {
      throw new CorruptBlockException(cid, "its " + own.length
          + " bytes hash to " + Cid.of(cid.codec(), own));
    }
    return new Block(cid, own);
  }

  public Cid cid() {
    return cid;
  }

  public int size() {
    return bytes.length;
  }

  /** The bytes (a copy). */
  public byte[] bytes() {
    return bytes.clone();
  }

  public void writeTo(OutputStream out) throws IOException {
    out.write(bytes);
  }

  /** Puts the bytes into {@code buffer}, which must have room for them. */
  public void writeTo(ByteBuffer buffer) {
    buffer.put(bytes);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Block && cid.equals(((Block) o).cid);
  }

  @Override
  public int hashCode() {
    return cid.hashCode();
  }

  @Override
  public String toString() {
    return cid + " (" + bytes.length + " bytes)";
  }
}
