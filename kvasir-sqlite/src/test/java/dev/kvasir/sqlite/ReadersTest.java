package dev.kvasir.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kvasir.spi.RawKey;
import dev.kvasir.spi.ReadRange;
import org.junit.jupiter.api.Test;

/** Which reads take the equality lookup instead of the range scan. */
class ReadersTest {
  private static RawKey key(int... bytes) {
    byte[] b = new byte[bytes.length];
    for (int i = 0; i < bytes.length; i++) {
      b[i] = (byte) bytes[i];
    }
    return RawKey.wrap(b);
  }

  @Test
  void onlyARangeOfExactlyOneKey_isALookup() {
    assertThat(Readers.isOneKey(ReadRange.single(key(2, 0x61, 0)))).isTrue();
    assertThat(Readers.isOneKey(new ReadRange(key(2, 0x61, 0), key(2, 0x61, 0, 0), 5, true)))
        .isTrue();
    assertThat(Readers.isOneKey(new ReadRange(key(2, 0x61, 0), key(2, 0x61, 0, 1), 1, false)))
        .as("the successor of [a, a+0x00) holds more keys").isFalse();
    assertThat(Readers.isOneKey(new ReadRange(key(2, 0x61), key(2, 0x62, 0), 1, false)))
        .isFalse();
  }
}
