package dev.kvasir.dag.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kvasir.dag.cid.Cid;
import dev.kvasir.dag.store.Block;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A transaction whose blocks outgrow {@link BlockLog#SPILL_BYTES} (docs/dag-engine.md §2): its
 * blocks go to the file before its commit, so that it need not hold them, yet it stays one
 * commit. Readers see none of it before its marker; a discarded one, or one a crash cut short,
 * leaves the log at its last commit.
 */
class BlockLogSpillTest {
  @TempDir Path dir;

  /** Random blocks of 64 KiB, more of them than {@link BlockLog#SPILL_BYTES} holds. */
  private static List<Block> moreThanSpillSize(long seed) {
    Random random = new Random(seed);
    List<Block> blocks = new ArrayList<>();
    for (long bytes = 0; bytes <= 2L * BlockLog.SPILL_BYTES; bytes += 64 << 10) {
      byte[] data = new byte[64 << 10];
      random.nextBytes(data);
      blocks.add(Block.of(Cid.RAW, data));
    }
    return blocks;
  }

  private static Block marker(String text) {
    return Block.of(Cid.RAW, text.getBytes());
  }

  /** Commits what {@code log} has staged, with a record block of {@code text}. */
  private static void commit(BlockLog log, String text) {
    Block record = marker(text);
    log.put(record);
    log.commit(record.cid());
  }

  @Test
  void aLargeTransaction_isWrittenAsItGoes_readableMeanwhile_andCommittedWhole() {
    List<Block> blocks = moreThanSpillSize(1);
    try (BlockLog log = BlockLog.open(dir, false)) {
      long committed = log.committedBytes();
      blocks.forEach(log::put);
      assertThat(Files.exists(dir.resolve(BlockLog.FILE_NAME))).isTrue();
      assertThat(dir.resolve(BlockLog.FILE_NAME).toFile().length())
          .as("staged blocks beyond the spill size are in the file already")
          .isGreaterThan(committed + BlockLog.SPILL_BYTES);
      assertThat(log.committedBytes()).isEqualTo(committed);
      assertThat(log.get(blocks.get(0).cid()).bytes()).isEqualTo(blocks.get(0).bytes());
      try (BlockLog reader = BlockLog.open(dir, true)) {
        assertThat(reader.lastCommit()).as("no marker yet").isNull();
        assertThat(reader.has(blocks.get(0).cid())).isFalse();
      }

      commit(log, "commit");
    }
    try (BlockLog reopened = BlockLog.open(dir, true)) {
      assertThat(reopened.commits()).hasSize(1);
      for (Block b : blocks) {
        assertThat(reopened.get(b.cid()).bytes()).isEqualTo(b.bytes());
      }
    }
  }

  @Test
  void aDiscardedLargeTransaction_leavesTheLogAtItsLastCommit() {
    try (BlockLog log = BlockLog.open(dir, false)) {
      commit(log, "first");
      long committed = log.committedBytes();

      List<Block> discarded = moreThanSpillSize(2);
      discarded.forEach(log::put);
      log.discard();
      assertThat(dir.resolve(BlockLog.FILE_NAME).toFile().length()).isEqualTo(committed);
      assertThat(log.has(discarded.get(0).cid())).isFalse();

      commit(log, "second");
    }
    try (BlockLog reopened = BlockLog.open(dir, true)) {
      assertThat(reopened.commits()).hasSize(2);
      assertThat(reopened.has(marker("second").cid())).isTrue();
    }
  }

  @Test
  void aLargeTransactionCutShortByACrash_isCutOffWhenTheLogOpens() throws Exception {
    long committed;
    try (BlockLog log = BlockLog.open(dir, false)) {
      commit(log, "first");
      committed = log.committedBytes();
      moreThanSpillSize(3).forEach(log::put);
      // Closed without a commit or a discard: the spilled blocks stay in the file, as after a
      // crash.
    }
    assertThat(Files.size(dir.resolve(BlockLog.FILE_NAME))).isGreaterThan(committed);
    try (BlockLog reopened = BlockLog.open(dir, false)) {
      assertThat(reopened.commits()).hasSize(1);
      assertThat(Files.size(dir.resolve(BlockLog.FILE_NAME))).isEqualTo(committed);
    }
  }
}
