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
}
