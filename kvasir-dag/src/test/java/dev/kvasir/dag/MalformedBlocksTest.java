package dev.kvasir.dag;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kvasir.dag.cbor.DagCbor;
import dev.kvasir.dag.cid.Cid;
import dev.kvasir.dag.store.Block;
import dev.kvasir.dag.store.Blockstore;
import dev.kvasir.dag.store.CorruptBlockException;
import dev.kvasir.dag.store.MemoryBlockstore;
import dev.kvasir.dag.store.MissingBlockException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A damaged DAG fails loudly, naming the block; it never reads as a missing key. */
class MalformedBlocksTest {
  private final MemoryBlockstore store = new MemoryBlockstore();
  private final Pail pail = Pail.open(store);
  private final Cid value = Cid.of(Cid.RAW, "v".getBytes(StandardCharsets.UTF_8));

  /** A root {@code [["a", [child]]]} whose child block is {@code childBytes}. */
  private Cid rootOver(Block child) {
    store.put(child);
    Block root = Block.of(Cid.DAG_CBOR, DagCbor.encode(List.of(List.of("a",
        List.of(child.cid())))));
    store.put(root);
    return root.cid();
  }

  @Test
  void badCbor_isReportedWithTheCid() {
    Block bad = Block.of(Cid.DAG_CBOR, new byte[] {(byte) 0x82, 0x61});
    Cid root = rootOver(bad);
    assertThatThrownBy(() -> pail.get(root, "ab")).isInstanceOf(CorruptBlockException.class)
        .hasMessageContaining("block " + bad.cid() + " is corrupt")
        .hasMessageContaining("invalid DAG-CBOR");
  }

  @Test
  void wrongShape_isReportedWithTheCid() {
    for (Object shape : List.<Object>of(Map.of("entries", List.of()), List.of(List.of(1, 2)),
        List.of(List.of("x", "y")), List.of(List.of("b", value), List.of("a", value)),
        List.of(List.of("a", List.of(value))))) {
      Block bad = Block.of(Cid.DAG_CBOR, DagCbor.encode(shape));
      Cid root = rootOver(bad);
      assertThatThrownBy(() -> pail.entries(root).toList()).as(shape.toString())
          .isInstanceOf(CorruptBlockException.class)
          .hasMessageContaining(bad.cid() + " is corrupt: not a pail shard");
    }
  }

  @Test
  void hashMismatch_isReportedWithTheCid() {
    Block good = Block.of(Cid.DAG_CBOR, DagCbor.encode(List.of(List.of("b", value))));
    Blockstore lying = new Blockstore() {
      @Override
      public Block get(Cid cid) {
        return cid.equals(good.cid()) ? Block.verified(cid, new byte[] {(byte) 0x80})
            : store.get(cid);
      }

      @Override
      public void put(Block block) {
        store.put(block);
      }

      @Override
      public void delete(Cid cid) {
        store.delete(cid);
      }
    };
    Cid root = rootOver(good);
    assertThatThrownBy(() -> Pail.open(lying).get(root, "ab"))
        .isInstanceOf(CorruptBlockException.class).hasMessageContaining(good.cid().toString())
        .hasMessageContaining("hash to");
  }

  @Test
  void missingBlock_isAnErrorNotAnAbsentKey() {
    Cid absent = Cid.of(Cid.DAG_CBOR, new byte[] {(byte) 0x81});
    Block root = Block.of(Cid.DAG_CBOR, DagCbor.encode(List.of(List.of("a", List.of(absent)))));
    store.put(root);
    assertThatThrownBy(() -> pail.get(root.cid(), "ab"))
        .isInstanceOf(MissingBlockException.class).hasMessageContaining(absent.toString());
    assertThat(pail.get(root.cid(), "b")).isNull();
    assertThatThrownBy(() -> pail.get(Cid.of(Cid.DAG_CBOR, new byte[] {1}), "x"))
        .isInstanceOf(MissingBlockException.class);
  }

  @Test
  void aRootThatIsNotDagCbor_isRefused() {
    Block raw = Block.of(Cid.RAW, new byte[] {(byte) 0x80});
    store.put(raw);
    assertThatThrownBy(() -> pail.get(raw.cid(), "x")).isInstanceOf(CorruptBlockException.class)
        .hasMessageContaining("codec 0x55 is not dag-cbor");
  }

  @Test
  void keysThatAreNotWellFormedUnicode_areRefusedBeforeAnythingIsWritten() {
    Cid root = pail.empty();
    int before = store.size();
    assertThatThrownBy(() -> pail.put(root, "a\ud800", value))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("lone surrogate");
    assertThat(store.size()).isEqualTo(before);
  }
}
