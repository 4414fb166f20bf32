package dev.kvasir.dag.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** Keys read back in order with their versions, across pages of every size. */
class KeyVersionsTest {
  @Test
  void nothingAdded_isAtItsEnd() {
    KeyVersions none = new KeyVersions();

    assertThat(none.count()).isZero();
    assertThat(none.cursor().atEnd()).isTrue();
  }

  @Test
  void keysOfEveryLength_readBackInOrder_withTheirVersions() {
    Random random = new Random(5);
    TreeMap<byte[], Long> expected = new TreeMap<>(Arrays::compareUnsigned);
    while (expected.size() < 60_000) {
      // mostly short keys, some longer than a first page, one empty
      int length = random.nextInt(50) == 0 ? random.nextInt(9_000) : random.nextInt(20);
      byte[] key = new byte[length];
      random.nextBytes(key);
      expected.put(key, random.nextLong());
    }
    KeyVersions keys = new KeyVersions();
    expected.forEach(keys::add);

    assertThat(keys.count()).isEqualTo(expected.size());
    KeyVersions.Cursor cursor = keys.cursor();
    for (var e : expected.entrySet()) {
      assertThat(cursor.atEnd()).isFalse();
      assertThat(cursor.key()).isEqualTo(e.getKey());
      assertThat(cursor.version()).isEqualTo(e.getValue());
      assertThat(cursor.compareTo(e.getKey())).isZero();
      byte[] above = Arrays.copyOf(e.getKey(), e.getKey().length + 1);
      assertThat(cursor.compareTo(above)).isNegative();
      cursor.advance();
    }
    assertThat(cursor.atEnd()).isTrue();
  }

  /** A key larger than the largest page fills a page of its own, last or not. */
  @Test
  void keysLargerThanAPage_readBack() {
    byte[] small = {1};
    byte[] large = new byte[3 << 20];
    large[0] = 2;
    byte[] last = new byte[2 << 20];
    last[0] = 3;
    KeyVersions keys = new KeyVersions();
    keys.add(small, 1);
    keys.add(large, 2);
    keys.add(last, 3);

    KeyVersions.Cursor cursor = keys.cursor();
    for (byte[] key : new byte[][] {small, large, last}) {
      assertThat(cursor.atEnd()).isFalse();
      assertThat(cursor.compareTo(key)).isZero();
      assertThat(cursor.version()).isEqualTo(key[0]);
      cursor.advance();
    }
    assertThat(cursor.atEnd()).isTrue();
  }
}
