package dev.kvasir.dag.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kvasir.dag.cid.Cid;
import dev.kvasir.dag.store.Block;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.ToIntFunction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The block log's index holds hashes, not CIDs, and tells blocks of one hash apart by the CIDs
 * in the file (docs/dag-engine.md §2). Here every CID has one of two hashes, so nearly every
 * lookup meets other blocks' sections first.
 */
class BlockLogHashCollisionTest {
  private static final ToIntFunction<Cid> TWO_HASHES = cid -> cid.hashCode() & 1;

  @TempDir Path dir;

  private static List<Block> blocks(long seed, int count, int size) {
    Random random = new Random(seed);
    List<Block> blocks = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      byte[] data = new byte[size];
      random.nextBytes(data);
      blocks.add(Block.of(i % 2 == 0 ? Cid.RAW : Cid.DAG_CBOR, data));
    }
    return blocks;
  }

  private static void commit(BlockLog log, String text) {
    Block record = Block.of(Cid.RAW, text.getBytes());
    log.put(record);
    log.commit(record.cid());
  }

  private static void assertHolds(BlockLog log, List<Block> blocks) {
    for (Block b : blocks) {
      assertThat(log.has(b.cid())).isTrue();
      assertThat(log.get(b.cid()).bytes()).isEqualTo(b.bytes());
    }
  }

  @Test
  void blocksThatShareAHash_areReadAsTheirOwn_beforeAndAfterReopening() throws Exception {
    List<Block> first = blocks(1, 300, 100);
    List<Block> second = blocks(2, 300, 100);
    List<Block> absent = blocks(3, 50, 100);
    try (BlockLog log = BlockLog.open(dir, false, TWO_HASHES)) {
      first.forEach(log::put);
      commit(log, "first");
      second.forEach(log::put);
      commit(log, "second");
      assertHolds(log, first);
      assertHolds(log, second);
      for (Block b : absent) {
        assertThat(log.has(b.cid())).isFalse();
        assertThat(log.get(b.cid())).isNull();
      }

      long size = Files.size(dir.resolve(BlockLog.FILE_NAME));
      first.forEach(log::put); // all held: nothing to write but the marker
      commit(log, "third");
      assertThat(Files.size(dir.resolve(BlockLog.FILE_NAME)) - size)
          .isLessThan(100);
    }
    try (BlockLog reopened = BlockLog.open(dir, true, TWO_HASHES)) {
      assertThat(reopened.commits()).hasSize(3);
      assertHolds(reopened, first);
      assertHolds(reopened, second);
      assertThat(reopened.has(absent.get(0).cid())).isFalse();
    }
  }

  @Test
  void aDiscardedLargeTransaction_leavesNoBlockOfItsHashesBehind() {
    List<Block> kept = blocks(4, 100, 100);
    List<Block> discarded = blocks(5, (BlockLog.SPILL_BYTES >> 16) + 8, 64 << 10); // it spills
    try (BlockLog log = BlockLog.open(dir, false, TWO_HASHES)) {
      kept.forEach(log::put);
      commit(log, "kept");
      discarded.forEach(log::put);
      assertThat(log.get(discarded.get(0).cid()).bytes()).isEqualTo(discarded.get(0).bytes());
      log.discard();
      for (Block b : discarded) {
        assertThat(log.has(b.cid())).isFalse();
      }
      assertHolds(log, kept);
      discarded.subList(0, 10).forEach(log::put); // written again, after the cut
      commit(log, "again");
      assertHolds(log, kept);
      assertHolds(log, discarded.subList(0, 10));
    }
  }
}
