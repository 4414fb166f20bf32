package dev.kvasir.dag.store;

import dev.kvasir.dag.cbor.DagCbor;
import dev.kvasir.dag.cid.Cid;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** Moving whole DAGs in and out of a blockstore as CAR v1 files. */
public final class Car {
  private Car() {}

  /**
   * Writes {@code root} and every block reachable from it (depth first, each once) as a CAR
   * with that single root. Links of DAG-CBOR blocks are followed; a linked block of another
   * codec (user data such as raw values) is included when the store has it and skipped when
   * not. Returns the number of blocks written; the stream is flushed, not closed.
   *
   * @throws MissingBlockException if a linked DAG-CBOR block is missing
   */
  public static long export(Blockstore store, Cid root, OutputStream out) throws IOException {
    long written = 0;
    CarWriter car = new CarWriter(out, List.of(root));
    Set<Cid> seen = new HashSet<>();
    Deque<Cid> todo = new ArrayDeque<>();
    todo.push(root);
    while (!todo.isEmpty()) {
      Cid cid = todo.pop();
      if (!seen.add(cid)) {
        continue;
      }
      Block block = cid.codec() == Cid.DAG_CBOR ? store.require(cid) : store.get(cid);
      if (block == null) {
        continue;
      }
      car.write(block);
      written++;
      if (cid.codec() == Cid.DAG_CBOR) {
        List<Cid> links = DagCbor.links(DagCbor.decode(block.bytes()));
        for (int i = links.size() - 1; i >= 0; i--) {
          todo.push(links.get(i));
        }
      }
    }
    out.flush();
    return written;
  }

  /** Stores every block of a CAR stream (each verified) and returns its roots. */
  public static List<Cid> load(InputStream in, Blockstore store) throws IOException {
    try (CarReader car = new CarReader(in)) {
      for (Block b = car.next(); b != null; b = car.next()) {
        store.put(b);
      }
      return car.roots();
    }
  }
}
