package dev.kvasir.spi;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Which ranges the engines read as a lookup of one key. */
class ReadRangeTest {
  private static RawKey key(int... bytes) {
    byte[] b = new byte[bytes.length];
    for (int i = 0; i < bytes.length; i++) {
      b[i] = (byte) bytes[i];
    }
    return RawKey.wrap(b);
  }

  @Test
  void onlyARangeOfExactlyOneKey_isOneKey() {
    assertThat(ReadRange.single(key(2, 0x61, 0)).isOneKey()).isTrue();
    assertThat(new ReadRange(key(2, 0x61, 0), key(2, 0x61, 0, 0), 5, true).isOneKey())
        .isTrue();
    assertThat(new ReadRange(key(2, 0x61, 0), key(2, 0x61, 0, 1), 1, false).isOneKey())
        .as("the successor of [a, a+0x00) holds more keys").isFalse();
    assertThat(new ReadRange(key(2, 0x61), key(2, 0x62, 0), 1, false).isOneKey()).isFalse();
    assertThat(new ReadRange(RawKey.BELOW_ALL, RawKey.ABOVE_ALL, 1, false).isOneKey())
        .isFalse();
  }
}
