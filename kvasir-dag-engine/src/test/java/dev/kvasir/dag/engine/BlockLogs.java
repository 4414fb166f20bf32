package dev.kvasir.dag.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kvasir.dag.cid.Cid;
import dev.kvasir.dag.store.Block;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/** What the block log's tests make, commit and check. */
final class BlockLogs {
  private BlockLogs() {}

  /** {@code count} blocks of random bytes, 1 to {@code maxSize} each, every other one DAG-CBOR. */
  static List<Block> randomBlocks(Random random, int count, int maxSize) {
    List<Block> blocks = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      byte[] data = new byte[1 + random.nextInt(maxSize)];
      random.nextBytes(data);
      blocks.add(Block.of(i % 2 == 0 ? Cid.RAW : Cid.DAG_CBOR, data));
    }
    return blocks;
  }

  /** Commits what {@code log} has staged, with a record block of {@code text}. */
  static void commit(BlockLog log, String text) {
    Block record = Block.of(Cid.RAW, text.getBytes());
    log.put(record);
    log.commit(record.cid());
  }

  /** {@code log} has each of {@code blocks}, read in the order given. */
  static void assertReads(BlockLog log, List<Block> blocks) {
    for (Block b : blocks) {
      assertThat(log.has(b.cid())).isTrue();
      assertThat(log.get(b.cid()).bytes()).isEqualTo(b.bytes());
    }
  }
}
