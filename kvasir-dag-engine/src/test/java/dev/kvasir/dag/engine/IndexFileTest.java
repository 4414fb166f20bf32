package dev.kvasir.dag.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kvasir.dag.cid.Cid;
import dev.kvasir.dag.store.Block;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The index file (docs/dag-engine.md §2) reads back what was written, across the edges of the
 * buffer it is read through (1 MiB; its columns here take 2.4 MiB and start at an odd offset),
 * and refuses a file cut short or with bytes added.
 */
class IndexFileTest {
  private static final int BLOCKS = 150_000;

  @TempDir Path dir;

  @Test
  void readsBackWhatWasWritten() throws Exception {
    Path path = written();
    IndexFile read = IndexFile.read(path);

    assertThat(read.end()).isEqualTo(123_456_789_012L);
    assertThat(read.fileKey()).isEqualTo("(dev=801,ino=4711)");
    assertThat(read.commits()).isEqualTo(commits());
    long[] offsets = new long[BLOCKS];
    int[] lengths = new int[BLOCKS];
    int[] hashes = new int[BLOCKS];
    for (int e = 0; e < BLOCKS; e++) {
      offsets[e] = offset(e);
      lengths[e] = length(e);
      hashes[e] = hash(e);
    }
    assertThat(read.offsets()).isEqualTo(offsets);
    assertThat(read.lengths()).isEqualTo(lengths);
    assertThat(read.hashes()).isEqualTo(hashes);
    assertThat(IndexFile.read(dir.resolve("none"))).isNull();
    assertThat(dir.resolve(IndexFile.FILE_NAME + ".new")).doesNotExist();
  }

  @Test
  void aFileCutShortOrLonger_isUnusable() throws Exception {
    Path path = written();
    byte[] bytes = Files.readAllBytes(path);
    for (int length : new int[] {0, 11, bytes.length / 2, (1 << 20) + 3, bytes.length - 1}) {
      Files.write(path, Arrays.copyOf(bytes, length));
      assertThatThrownBy(() -> IndexFile.read(path)).as("cut to %d bytes", length)
          .isInstanceOf(IndexFile.Unusable.class);
    }
    Files.write(path, Arrays.copyOf(bytes, bytes.length + 1));
    assertThatThrownBy(() -> IndexFile.read(path)).isInstanceOf(IndexFile.Unusable.class);
  }

  private Path written() throws Exception {
    BlockIndex index = new BlockIndex();
    for (int e = 0; e < BLOCKS + 10; e++) { // entries past the count given are not written
      index.add(hash(e), offset(e), length(e));
    }
    Path path = dir.resolve(IndexFile.FILE_NAME);
    IndexFile.write(path, 123_456_789_012L, "(dev=801,ino=4711)", commits(),
        index.prefix(BLOCKS));
    return path;
  }

  private static List<Cid> commits() {
    List<Cid> commits = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      commits.add(Block.of(Cid.DAG_CBOR, new byte[] {(byte) i}).cid());
    }
    return commits;
  }

  private static long offset(int e) {
    return 8 + e * 5_000_000_003L; // past 4 GiB
  }

  private static int length(int e) {
    return 37 + e % 70_000;
  }

  private static int hash(int e) {
    return e * 0x9E3779B9;
  }
}
