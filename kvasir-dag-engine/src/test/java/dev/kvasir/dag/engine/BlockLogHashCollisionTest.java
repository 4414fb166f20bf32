package dev.kvasir.dag.engine;

import static dev.kvasir.dag.engine.BlockLogs.assertReads;
import static dev.kvasir.dag.engine.BlockLogs.commit;
import static dev.kvasir.dag.engine.BlockLogs.randomBlocks;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kvasir.dag.cid.Cid;
import dev.kvasir.dag.store.Block;
import java.nio.file.Files;
import java.nio.file.Path;
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

  @Test
  void blocksThatShareAHash_areReadAsTheirOwn_beforeAndAfterReopening() throws Exception {
    List<Block> first = randomBlocks(new Random(1), 300, 100);
    List<Block> second = randomBlocks(new Random(2), 300, 100);
    List<Block> absent = randomBlocks(new Random(3), 50, 100);
    try (BlockLog log = BlockLog.open(dir, false, TWO_HASHES, BlockLog.INDEX_FILE_AFTER)) {
      first.forEach(log::put);
      commit(log, "first");
      second.forEach(log::put);
      commit(log, "second");
      assertReads(log, first);
      assertReads(log, second);
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
    try (BlockLog reopened = BlockLog.open(dir, true, TWO_HASHES, BlockLog.INDEX_FILE_AFTER)) {
      assertThat(reopened.commits()).hasSize(3);
      assertReads(reopened, first);
      assertReads(reopened, second);
      assertThat(reopened.has(absent.get(0).cid())).isFalse();
    }
  }

  @Test
  void aDiscardedLargeTransaction_leavesNoBlockOfItsHashesBehind() throws Exception {
    List<Block> kept = randomBlocks(new Random(4), 100, 100);
    // About 16 MB: more than the log holds before it writes a transaction's blocks.
    List<Block> discarded = randomBlocks(new Random(5), BlockLog.SPILL_BYTES >> 14, 64 << 10);
    try (BlockLog log = BlockLog.open(dir, false, TWO_HASHES, BlockLog.INDEX_FILE_AFTER)) {
      kept.forEach(log::put);
      commit(log, "kept");
      long end = log.committedBytes();
      discarded.forEach(log::put);
      assertThat(Files.size(dir.resolve(BlockLog.FILE_NAME))).as("written before its commit")
          .isGreaterThan(end + BlockLog.SPILL_BYTES);
      assertThat(log.get(discarded.get(0).cid()).bytes()).isEqualTo(discarded.get(0).bytes());
      log.discard();
      for (Block b : discarded) {
        assertThat(log.has(b.cid())).isFalse();
      }
      assertReads(log, kept);
      discarded.subList(0, 10).forEach(log::put); // written again, after the cut
      commit(log, "again");
      assertReads(log, kept);
      assertReads(log, discarded.subList(0, 10));
    }
  }
}
