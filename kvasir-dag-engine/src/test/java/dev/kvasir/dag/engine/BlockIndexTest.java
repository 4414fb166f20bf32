package dev.kvasir.dag.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kvasir.dag.cid.Cid;
import dev.kvasir.dag.engine.BlockIndex.Location;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The block log's compact index (docs/dag-engine.md §2) against a plain map. */
class BlockIndexTest {
  private static Cid cid(long codec, int n) {
    return Cid.of(codec, ByteBuffer.allocate(4).putInt(n).array());
  }

  @Test
  void findsEveryBlockItHolds_acrossPagesAndTableGrowths_andNoOther() {
    BlockIndex index = new BlockIndex();
    Map<Cid, Location> model = new HashMap<>();
    for (int n = 0; n < 100_000; n++) { // 3.7 MB of CIDs: many pages, many growths
      Cid cid = cid(n % 3 == 0 ? Cid.RAW : Cid.DAG_CBOR, n);
      Location at = new Location(n * 100L, n % 5000);
      index.put(cid, at);
      model.put(cid, at);
    }
    index.put(cid(Cid.DAG_CBOR, 1), new Location(-1, -1)); // a block it has: kept as it was
    assertThat(index.size()).isEqualTo(model.size());
    model.forEach((cid, at) -> assertThat(index.get(cid)).isEqualTo(at));
    for (int n = 100_000; n < 101_000; n++) {
      assertThat(index.contains(cid(Cid.DAG_CBOR, n))).isFalse();
    }
    // The same bytes under another codec are another block.
    assertThat(index.contains(cid(Cid.DAG_PB, 4))).isFalse();
  }

  @Test
  void truncate_forgetsTheEntriesAddedLast_andTheIndexGrowsAgainFromThere() {
    BlockIndex index = new BlockIndex();
    for (int n = 0; n < 3_000; n++) {
      index.put(cid(Cid.RAW, n), new Location(n, 1));
    }
    for (int n = 3_000; n < 60_000; n++) { // past the first pages
      index.put(cid(Cid.RAW, n), new Location(n, 2));
    }
    index.truncate(3_000);
    assertThat(index.size()).isEqualTo(3_000);
    assertThat(index.get(cid(Cid.RAW, 2_999))).isEqualTo(new Location(2_999, 1));
    assertThat(index.contains(cid(Cid.RAW, 3_000))).isFalse();
    assertThat(index.contains(cid(Cid.RAW, 59_999))).isFalse();

    for (int n = 3_000; n < 10_000; n++) {
      index.put(cid(Cid.DAG_CBOR, n), new Location(n, 3));
    }
    assertThat(index.get(cid(Cid.DAG_CBOR, 9_999))).isEqualTo(new Location(9_999, 3));
    assertThat(index.get(cid(Cid.RAW, 0))).isEqualTo(new Location(0, 1));
    index.truncate(0);
    assertThat(index.size()).isZero();
    assertThat(index.contains(cid(Cid.RAW, 0))).isFalse();
    index.put(cid(Cid.RAW, 7), new Location(7, 7));
    assertThat(index.get(cid(Cid.RAW, 7))).isEqualTo(new Location(7, 7));
  }
}
