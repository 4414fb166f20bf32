package dev.kvasir;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Ordering is a property: for curated and random keys, {@code compareTo} agrees with the
 * unsigned byte order of the encodings, and {@code decode(encode(k))} is {@code k}.
 */
class KeyOrderPropertyTest {
  private static final Object[] CURATED = {
    "", "a", "a\u0000", "a\u0000b", "\u00ff", "\uffff", "😀", "ab", "b",
    new byte[0], new byte[] {0}, new byte[] {0, 0}, new byte[] {(byte) 0xff}, new byte[] {1},
    0.0, -0.0, 1.0, -1.0, Double.MIN_VALUE, -Double.MIN_VALUE, Double.MAX_VALUE,
    -Double.MAX_VALUE, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, Double.NaN,
    Double.longBitsToDouble(0xfff8000000000000L), 0.5, 1e300, -1e-300,
    BigInteger.ZERO, BigInteger.ONE, BigInteger.ONE.negate(), BigInteger.valueOf(255),
    BigInteger.valueOf(256), BigInteger.valueOf(-255), BigInteger.valueOf(-256),
    BigInteger.TWO.pow(63), BigInteger.TWO.pow(64), BigInteger.TWO.pow(64).negate(),
    BigInteger.TWO.pow(64).subtract(BigInteger.ONE), BigInteger.TWO.pow(2040).subtract(BigInteger.ONE),
    BigInteger.TWO.pow(2040).subtract(BigInteger.ONE).negate(), BigInteger.TWO.pow(71).negate(),
    true, false,
  };

  @Test
  void curatedPairs_orderLikeTheirBytes() {
    List<KvKey> keys = new ArrayList<>();
    for (Object a : CURATED) {
      keys.add(KvKey.of(a));
      for (Object b : CURATED) {
        keys.add(KvKey.of(a, b));
      }
    }
    assertOrderProperty(keys);
  }

  @Test
  void randomKeys_orderLikeTheirBytes() {
    Random random = new Random(20261121);
    List<KvKey> keys = new ArrayList<>();
    for (int i = 0; i < 3000; i++) {
      // Up to 9 parts: the decoder starts with room for 4 and must grow twice.
      Object[] parts = new Object[random.nextInt(10)];
      for (int p = 0; p < parts.length; p++) {
        parts[p] = randomPart(random);
      }
      keys.add(KvKey.of(parts));
    }
    assertOrderProperty(keys);
  }

  private static void assertOrderProperty(List<KvKey> keys) {
    for (KvKey k : keys) {
      assertThat(KvKey.decode(k.encode())).isEqualTo(k);
      assertThat(KvKey.decode(k.encode()).parts()).isEqualTo(k.parts());
    }
    Random random = new Random(7);
    for (int i = 0; i < 200_000; i++) {
      KvKey a = keys.get(random.nextInt(keys.size()));
      KvKey b = keys.get(random.nextInt(keys.size()));
      int bytes = Integer.signum(Arrays.compareUnsigned(a.encode(), b.encode()));
      assertThat(Integer.signum(a.compareTo(b))).as("%s vs %s", a, b).isEqualTo(bytes);
      assertThat(a.equals(b)).isEqualTo(bytes == 0);
    }
  }

  static Object randomPart(Random random) {
    switch (random.nextInt(6)) {
      case 0: {
        StringBuilder s = new StringBuilder();
        for (int i = random.nextInt(5); i > 0; i--) {
          s.append((char) (random.nextBoolean() ? random.nextInt(4) : random.nextInt(0x10000)));
        }
        return s.toString();
      }
      case 1: {
        byte[] b = new byte[random.nextInt(4)];
        for (int i = 0; i < b.length; i++) {
          b[i] = (byte) (random.nextBoolean() ? random.nextInt(2) * 0xff : random.nextInt());
        }
        return b;
      }
      case 2: return new BigInteger(random.nextInt(140), random).multiply(
          BigInteger.valueOf(random.nextInt(3) - 1));
      case 3: return Double.longBitsToDouble(random.nextLong());
      case 4: return random.nextInt(7) - 3.0 + (random.nextBoolean() ? 0.5 : 0);
      default: return random.nextBoolean();
    }
  }
}
