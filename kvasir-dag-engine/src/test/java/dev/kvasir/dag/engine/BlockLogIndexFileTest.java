package dev.kvasir.dag.engine;

import static dev.kvasir.dag.engine.BlockLogs.assertReads;
import static dev.kvasir.dag.engine.BlockLogs.commit;
import static dev.kvasir.dag.engine.BlockLogs.randomBlocks;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kvasir.dag.cid.Cid;
import dev.kvasir.dag.store.Block;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A writer saves the log's index in an index file, and opening takes the index from it and reads
 * only the sections after it, if it describes the log; else it reads the whole log
 * (docs/dag-engine.md §2).
 *
 * <p>Whether opening read the log is told by a damaged section head: reading the log stops
 * there, so the commits after it are not found, while an index taken from the file still finds
 * them (reads go to a block's CID, after the head). The damaged head is the second section's,
 * which opening does not check: it checks 17 blocks spread over the index file, and in a log of
 * 33 blocks or more the second is not one of them.
 */
class BlockLogIndexFileTest {
  /** Saves an index file whenever the log has a commit it lacks. */
  private static final long ALWAYS = 1;
  private static final long NEVER = Long.MAX_VALUE;

  @TempDir Path dir;
  private final Random random = new Random(5);

  @Test
  void opening_takesTheIndexFromTheFile_andReadsTheCommitsAfterIt() throws Exception {
    List<Block> first = randomBlocks(random, 40, 3_000);
    List<Block> later = randomBlocks(random, 10, 3_000);
    write(first.subList(0, 20), first.subList(20, 40), ALWAYS);
    assertThat(dir.resolve(IndexFile.FILE_NAME)).exists();
    try (BlockLog log = open(false, NEVER)) { // a commit the index file lacks
      later.forEach(log::put);
      commit(log, "later");
    }
    List<Block> all = new ArrayList<>(first);
    all.addAll(later);
    assertAReaderTakesTheIndexFromTheFile(3, all);
  }

  @Test
  void withoutAnIndexFile_theWholeLogIsRead() throws Exception {
    write(randomBlocks(random, 20, 3_000), randomBlocks(random, 20, 3_000), NEVER);
    assertThat(dir.resolve(IndexFile.FILE_NAME)).doesNotExist();
    damageHeadOfSection(1);

    try (BlockLog log = open(true, NEVER)) {
      assertThat(log.commits()).isEmpty(); // the first commit's marker lies after the damage
    }
  }

  @Test
  void aWriterSavesTheIndexFileWhenItOpensALogThatOutgrewIt_notAReader() throws Exception {
    List<Block> blocks = randomBlocks(random, 40, 3_000);
    write(blocks, List.of(), NEVER);
    try (BlockLog reader = open(true, ALWAYS)) {
      assertThat(dir.resolve(IndexFile.FILE_NAME)).doesNotExist();
    }
    try (BlockLog writer = open(false, ALWAYS)) {
      assertThat(dir.resolve(IndexFile.FILE_NAME)).exists(); // before it closes
    }
    assertAReaderTakesTheIndexFromTheFile(1, blocks);
  }

  @Test
  void aWriterSavesTheIndexFileAsTheLogGrows_whileItStaysOpen() throws Exception {
    List<Block> blocks = randomBlocks(random, 40, 3_000);
    try (BlockLog writer = open(false, ALWAYS)) {
      blocks.forEach(writer::put);
      commit(writer, "first");
      // Saved on a thread of its own; the rename puts it in place whole.
      Path indexFile = dir.resolve(IndexFile.FILE_NAME);
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      while (Files.notExists(indexFile) && System.nanoTime() < deadline) {
        Thread.sleep(10);
      }
      assertThat(indexFile).exists();
      assertAReaderTakesTheIndexFromTheFile(1, blocks); // as a writer killed now leaves it
    }
  }

  @Test
  void aDamagedIndexFile_isIgnored() throws Exception {
    List<Block> blocks = randomBlocks(random, 40, 3_000);
    write(blocks.subList(0, 20), blocks.subList(20, 40), ALWAYS);
    Path indexFile = dir.resolve(IndexFile.FILE_NAME);
    byte[] bytes = Files.readAllBytes(indexFile);
    // The hash of the second of its 42 blocks (the hashes are the last column, 4 bytes each,
    // before the 4-byte checksum), which opening does not check against the log.
    bytes[bytes.length - 4 - 41 * 4] ^= 1;
    Files.write(indexFile, bytes);
    damageHeadOfSection(1);

    try (BlockLog log = open(true, NEVER)) {
      assertThat(log.commits()).isEmpty();
    }
  }

  @Test
  void anIndexFileOfACopiedLog_isIgnored() throws Exception {
    write(randomBlocks(random, 20, 3_000), randomBlocks(random, 20, 3_000), ALWAYS);
    damageHeadOfSection(1);
    Path copy = Files.createDirectory(dir.resolve("copy"));
    for (String name : List.of(BlockLog.FILE_NAME, IndexFile.FILE_NAME)) {
      Files.copy(dir.resolve(name), copy.resolve(name));
    }

    try (BlockLog original = open(true, NEVER);
        BlockLog copied = BlockLog.open(copy, true, Cid::hashCode, NEVER)) {
      assertThat(original.commits()).hasSize(2);
      assertThat(copied.commits()).isEmpty(); // read whole, up to the damage
    }
  }

  @Test
  void anIndexFileOfAnotherLogWrittenInTheSameFile_isIgnored() throws Exception {
    // The other log is written to another directory and its bytes then into this log's file,
    // which keeps the file's identity. It holds the same blocks where this one does, the same
    // commit record among them, but its marker names another block of the same CID length.
    Path other = Files.createDirectory(dir.resolve("other"));
    List<Block> blocks = randomBlocks(random, 16, 3_000);
    write(blocks, List.of(), ALWAYS);
    Cid otherCommit = blocks.get(0).cid();
    try (BlockLog log = BlockLog.open(other, false, Cid::hashCode, NEVER)) {
      blocks.forEach(log::put);
      log.put(Block.of(Cid.RAW, "first".getBytes()));
      log.commit(otherCommit);
    }
    overwriteLogWith(other.resolve(BlockLog.FILE_NAME));

    try (BlockLog log = open(true, NEVER)) {
      assertThat(log.commits()).containsExactly(otherCommit);
      assertReads(log, blocks);
    }
  }

  @Test
  void anIndexFileWhoseBlocksAreNotWhereItSays_isIgnored() throws Exception {
    // The same blocks and commit in another order: the commit's marker ends the log where the
    // index file says, but the blocks lie elsewhere. Every block is one of its samples.
    List<Block> blocks = randomBlocks(random, 16, 3_000);
    write(blocks, List.of(), ALWAYS);
    Path other = Files.createDirectory(dir.resolve("other"));
    try (BlockLog log = BlockLog.open(other, false, Cid::hashCode, NEVER)) {
      List<Block> reversed = new ArrayList<>(blocks);
      Collections.reverse(reversed);
      reversed.forEach(log::put);
      commit(log, "first");
    }
    overwriteLogWith(other.resolve(BlockLog.FILE_NAME));

    try (BlockLog log = open(true, NEVER)) {
      assertReads(log, blocks);
    }
  }

  @Test
  void anIndexFileOfMoreThanTheLogHolds_isIgnored() throws Exception {
    List<Block> blocks = randomBlocks(random, 40, 3_000);
    write(blocks.subList(0, 20), List.of(), NEVER);
    Path older = dir.resolve("older");
    Files.copy(dir.resolve(BlockLog.FILE_NAME), older);
    try (BlockLog log = open(false, ALWAYS)) { // saves an index file of the first commit
      blocks.subList(20, 40).forEach(log::put);
      commit(log, "second");
    } // and of both
    overwriteLogWith(older); // the log as it was after its first commit

    try (BlockLog log = open(true, NEVER)) {
      assertThat(log.commits()).hasSize(1);
      assertReads(log, blocks.subList(0, 20));
    }
  }

  @Test
  void anIndexFileMadeWithAnotherHash_isIgnored() throws Exception {
    List<Block> blocks = randomBlocks(random, 40, 3_000);
    write(blocks.subList(0, 20), blocks.subList(20, 40), ALWAYS);

    try (BlockLog log = BlockLog.open(dir, true, cid -> cid.hashCode() % 3, NEVER)) {
      assertReads(log, blocks);
    }
  }

  /** Commits {@code first} and then {@code second} (unless empty) to a new log, and closes it. */
  private void write(List<Block> first, List<Block> second, long indexFileAfter) {
    try (BlockLog log = open(false, indexFileAfter)) {
      first.forEach(log::put);
      commit(log, "first");
      if (!second.isEmpty()) {
        second.forEach(log::put);
        commit(log, "second");
      }
    }
  }

  private BlockLog open(boolean readOnly, long indexFileAfter) {
    return BlockLog.open(dir, readOnly, Cid::hashCode, indexFileAfter);
  }

  /**
   * A reader opening the log now finds its {@code commits} and {@code blocks} although the
   * second section's head is made damaged first: it takes the index from the index file.
   */
  private void assertAReaderTakesTheIndexFromTheFile(int commits, List<Block> blocks)
      throws IOException {
    damageHeadOfSection(1);
    try (BlockLog log = open(true, NEVER)) {
      assertThat(log.commits()).hasSize(commits);
      assertReads(log, blocks);
    }
  }

  /** Gives the {@code n}th section (from 0) of the log an unknown type. */
  private void damageHeadOfSection(int n) throws IOException {
    try (FileChannel c = FileChannel.open(dir.resolve(BlockLog.FILE_NAME),
        StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      long at = 8; // past the magic
      ByteBuffer head = ByteBuffer.allocate(5);
      for (int i = 0; i < n; i++) {
        c.read(head.clear(), at);
        at += 5 + head.getInt(1);
      }
      c.write(ByteBuffer.wrap(new byte[] {'?'}), at);
    }
  }

  /** Puts the bytes of {@code source} into the log's file, which stays the same file. */
  private void overwriteLogWith(Path source) throws IOException {
    Path log = dir.resolve(BlockLog.FILE_NAME);
    Object identity = Files.readAttributes(log, "fileKey").get("fileKey");
    try (FileChannel c = FileChannel.open(log, StandardOpenOption.WRITE,
        StandardOpenOption.TRUNCATE_EXISTING)) {
      c.write(ByteBuffer.wrap(Files.readAllBytes(source)));
    }
    assertThat(Files.readAttributes(log, "fileKey").get("fileKey")).isEqualTo(identity);
  }
}
