package dev.kvasir.dag.store;

import dev.kvasir.dag.DagException;
import dev.kvasir.dag.cbor.DagCbor;
import dev.kvasir.dag.cid.Cid;
import dev.kvasir.dag.cid.Varint;
import java.io.ByteArrayInputStream;
import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Reads a CAR v1 stream block by block. Every block's bytes are checked against its CID, so
 * a damaged file fails with {@link CorruptBlockException} instead of yielding bad data.
 */
public final class CarReader implements Closeable {
  /** Largest header or section accepted; well above the 512 KiB shard limit. */
  static final int MAX_SECTION = 64 << 20;

  private final InputStream in;
  private final List<Cid> roots;
  private long blocksRead;

  public CarReader(InputStream in) throws IOException {
    this.in = in;
    long length = Varint.read(in);
    if (length < 0) {
      throw new IOException("not a CAR file: it is empty");
    }
    Object header;
    try {
      header = DagCbor.decode(readExactly(length, "header"));
    } catch (IllegalArgumentException | DagException e) {
      throw new IOException("not a CAR v1 file: bad header (" + e.getMessage() + ")", e);
    }
    this.roots = roots(header);
  }

  private static List<Cid> roots(Object header) throws IOException {
    if (!(header instanceof Map) || !Long.valueOf(1).equals(((Map<?, ?>) header).get("version"))
        || !(((Map<?, ?>) header).get("roots") instanceof List)) {
      throw new IOException("not a CAR v1 file: the header must be {roots: [CID…], version: 1}");
    }
    List<Cid> out = new ArrayList<>();
    for (Object root : (List<?>) ((Map<?, ?>) header).get("roots")) {
      if (!(root instanceof Cid)) {
        throw new IOException("not a CAR v1 file: a root is not a CID");
      }
      out.add((Cid) root);
    }
    return List.copyOf(out);
  }

  public List<Cid> roots() {
    return roots;
  }

  /** The next block, or {@code null} at the end of the file. */
  public Block next() throws IOException {
    long length = Varint.read(in);
    if (length < 0) {
      return null;
    }
    byte[] section = readExactly(length, "block section " + (blocksRead + 1));
    ByteArrayInputStream sectionIn = new ByteArrayInputStream(section);
    Cid cid;
    try {
      cid = Cid.read(sectionIn);
    } catch (IllegalArgumentException | DagException | EOFException e) {
      throw new IOException("CAR block section " + (blocksRead + 1) + " has a bad CID: "
          + e.getMessage(), e);
    }
    blocksRead++;
    return Block.verified(cid, sectionIn.readAllBytes());
  }

  private byte[] readExactly(long length, String what) throws IOException {
    if (length > MAX_SECTION) {
      throw new IOException("CAR " + what + " claims " + length + " bytes (max " + MAX_SECTION
          + ")");
    }
    byte[] bytes = in.readNBytes((int) length);
    if (bytes.length != length) {
      throw new EOFException("CAR file ends inside " + what);
    }
    return bytes;
  }

  @Override
  public void close() throws IOException {
    in.close();
  }
}
