package dev.kvasir.dag.store;

import dev.kvasir.dag.cbor.DagCbor;
import dev.kvasir.dag.cid.Cid;
import dev.kvasir.dag.cid.Varint;
import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Streams a CAR v1 file: a varint-framed DAG-CBOR header {@code {roots, version: 1}}, then one
 * varint-framed section per block holding the binary CID and the bytes.
 */
public final class CarWriter implements Closeable {
  private final OutputStream out;

  public CarWriter(OutputStream out, List<Cid> roots) throws IOException {
    this.out = out;
    Map<String, Object> header = new LinkedHashMap<>();
    header.put("roots", List.copyOf(roots));
    header.put("version", 1L);
    byte[] encoded = DagCbor.encode(header);
    writeVarint(encoded.length);
    out.write(encoded);
  }

  public void write(Block block) throws IOException {
    writeVarint((long) block.cid().byteLength() + block.size());
    out.write(block.cid().bytes());
    block.writeTo(out);
  }

  private void writeVarint(long n) throws IOException {
    ByteArrayOutputStream buf = new ByteArrayOutputStream(9);
    Varint.write(buf, n);
    buf.writeTo(out);
  }

  @Override
  public void close() throws IOException {
    out.close();
  }
}
