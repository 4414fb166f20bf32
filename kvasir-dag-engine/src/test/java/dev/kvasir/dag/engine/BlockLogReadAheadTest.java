package dev.kvasir.dag.engine;

import static dev.kvasir.dag.engine.BlockLogs.assertReads;
import static dev.kvasir.dag.engine.BlockLogs.commit;
import static dev.kvasir.dag.engine.BlockLogs.randomBlocks;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kvasir.dag.store.Block;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A thread that reads sections in file order gets them from a window read at once
 * (docs/dag-engine.md §2): the blocks it reads so are the blocks, in every order of reading, and
 * the window never holds bytes past the last commit, which a discarded transaction may have
 * written and the next one overwrites.
 */
class BlockLogReadAheadTest {
  @TempDir Path dir;

  @Test
  void blocksReadInFileOrder_backwards_orShuffled_areTheBlocks() {
    Random random = new Random(5);
    List<Block> blocks = randomBlocks(random, 2_000, 300); // about 300 KB: several windows
    try (BlockLog log = BlockLog.open(dir, false)) {
      blocks.forEach(log::put);
      commit(log, "all");
      assertReads(log, blocks);
      List<Block> backwards = new ArrayList<>(blocks);
      Collections.reverse(backwards);
      assertReads(log, backwards);
      List<Block> shuffled = new ArrayList<>(blocks);
      Collections.shuffle(shuffled, random);
      assertReads(log, shuffled);
      List<Block> everyThird = new ArrayList<>();
      for (int i = 0; i < blocks.size(); i += 3) {
        everyThird.add(blocks.get(i));
      }
      assertReads(log, everyThird);
    }
  }

  @Test
  void theWindowStopsAtTheLastCommit_soBytesOfADiscardedTransactionAreNeverServed() {
    Random random = new Random(6);
    List<Block> committed = randomBlocks(random, 50, 200);
    try (BlockLog log = BlockLog.open(dir, false)) {
      committed.forEach(log::put);
      commit(log, "first");
      // Spilled past the last commit, then discarded: the file held these bytes for a while.
      long end = log.committedBytes();
      List<Block> discarded = randomBlocks(random, BlockLog.SPILL_BYTES >> 14, 64 << 10); // 16 MB
      discarded.forEach(log::put);
      assertThat(dir.resolve(BlockLog.FILE_NAME).toFile().length()).isGreaterThan(end + 65536);
      assertReads(log, committed); // in file order: the window reaches the end of the commit
      log.discard();

      List<Block> next = randomBlocks(random, 50, 200); // written where the discarded ones were
      next.forEach(log::put);
      commit(log, "second");
      assertReads(log, next);
      assertReads(log, committed);
    }
  }
}
