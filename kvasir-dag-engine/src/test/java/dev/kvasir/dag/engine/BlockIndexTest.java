package dev.kvasir.dag.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The block log's compact index (docs/dag-engine.md §2) against the entries it was given. */
class BlockIndexTest {
  /** The entries {@code index} files under {@code hash}, as offset:length strings. */
  private static List<String> filed(BlockIndex index, int hash) {
    List<String> found = new ArrayList<>();
    for (int e : index.candidates(hash)) {
      found.add(index.offset(e) + ":" + index.length(e));
    }
    return found;
  }

  @Test
  void namesEveryEntryOfAHash_acrossTableGrowths_andNoOther() {
    BlockIndex index = new BlockIndex();
    int hashes = 1_000; // 100 entries a hash: the lookups must tell them apart
    for (int n = 0; n < 100_000; n++) {
      index.add(n % hashes * 0x10001, n * 100L, n % 5000);
    }
    assertThat(index.size()).isEqualTo(100_000);
    for (int h = 0; h < hashes; h++) {
      List<String> expected = new ArrayList<>();
      for (int n = h; n < 100_000; n += hashes) {
        expected.add(n * 100L + ":" + n % 5000);
      }
      assertThat(filed(index, h * 0x10001)).containsExactlyInAnyOrderElementsOf(expected);
    }
    assertThat(index.candidates(hashes * 0x10001)).isEmpty();
    assertThat(index.candidates(7)).isEmpty();
  }

  @Test
  void truncate_forgetsTheEntriesAddedLast_andTheIndexGrowsAgainFromThere() {
    BlockIndex index = new BlockIndex();
    for (int n = 0; n < 3_000; n++) {
      index.add(n, n, 1);
    }
    for (int n = 3_000; n < 60_000; n++) { // past several growths of the table
      index.add(n, n, 2);
    }
    index.truncate(3_000);
    assertThat(index.size()).isEqualTo(3_000);
    assertThat(filed(index, 2_999)).containsExactly("2999:1");
    assertThat(index.candidates(3_000)).isEmpty();
    assertThat(index.candidates(59_999)).isEmpty();

    for (int n = 3_000; n < 10_000; n++) {
      index.add(n, n, 3);
    }
    assertThat(filed(index, 9_999)).containsExactly("9999:3");
    assertThat(filed(index, 0)).containsExactly("0:1");
    index.truncate(0);
    assertThat(index.size()).isZero();
    assertThat(index.candidates(0)).isEmpty();
    index.add(7, 7, 7);
    assertThat(filed(index, 7)).containsExactly("7:7");
  }

  /**
   * Entries taken over from an index file, at every count up to a few table sizes: a table
   * that the count fills leaves a lookup of an absent hash probing forever, hence the timeout.
   */
  @Test
  @Timeout(value = 30, unit = TimeUnit.SECONDS)
  void replaceWith_namesEveryEntry_andNoOther_atEveryCount() {
    for (int count = 0; count <= 200; count++) {
      long[] offsets = new long[count];
      int[] lengths = new int[count];
      int[] hashes = new int[count];
      for (int n = 0; n < count; n++) {
        offsets[n] = n * 10L;
        lengths[n] = n;
        hashes[n] = n * 31;
      }
      BlockIndex index = new BlockIndex();
      index.replaceWith(offsets, lengths, hashes);
      assertThat(index.size()).isEqualTo(count);
      for (int n = 0; n < count; n++) {
        assertThat(filed(index, n * 31)).containsExactly(n * 10L + ":" + n);
      }
      assertThat(index.candidates(-1)).isEmpty();
      index.add(-1, 5, 5);
      assertThat(filed(index, -1)).containsExactly("5:5");
    }
  }
}
