package dev.kvasir.golden;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kvasir.KvKey;
import dev.kvasir.Limits;
import dev.kvasir.base.Hex;
import dev.kvasir.base.KvLimitException;
import dev.kvasir.base.KvTypeException;
import dev.kvasir.golden.Vectors.KeyVector;
import java.math.BigInteger;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The key codec against the 176 keys Deno 2.9.6 wrote (vectors/denokv/keys.json). */
class KeyVectorsTest {
  static Stream<KeyVector> keys() {
    return Vectors.keys().stream();
  }

  @ParameterizedTest(name = "key {0}")
  @MethodSource("keys")
  void encode_matchesDenoBytes(KeyVector v) {
    assertThat(Hex.encode(KvKey.of(v.parts()).encode())).isEqualTo(v.encodedHex());
  }

  @ParameterizedTest(name = "key {0}")
  @MethodSource("keys")
  void decode_givesBackTheKeyAndItsBytes(KeyVector v) {
    KvKey decoded = KvKey.decode(v.encoded());
    assertThat(decoded).isEqualTo(KvKey.of(v.parts()));
    assertThat(decoded.encode()).isEqualTo(v.encoded());
    assertThat(decoded.size()).isEqualTo(v.parts().size());
  }

  @Test
  void vectorsCoverEveryPartType() {
    assertThat(Vectors.keys()).hasSize(176);
    assertThat(Vectors.keys().stream().flatMap(v -> v.parts().stream())
        .map(p -> p.getClass().getSimpleName()).distinct())
        .containsExactlyInAnyOrder("String", "byte[]", "Double", "BigInteger", "Boolean");
  }

  @Test
  void compareTo_reproducesDenoListOrder() {
    Map<Integer, KvKey> byId = Vectors.keys().stream()
        .collect(Collectors.toMap(KeyVector::id, v -> KvKey.of(v.parts())));
    // Keys Deno stores as the same bytes (lone surrogates, NaNs) are one key in its list, under
    // the highest id of the group.
    List<Integer> ours = Vectors.keys().stream()
        .collect(Collectors.toMap(KeyVector::encodedHex, KeyVector::id, Math::max))
        .values().stream()
        .sorted(Comparator.comparing(byId::get))
        .collect(Collectors.toList());
    assertThat(ours).containsExactlyElementsOf(Vectors.sortedKeyIds());
  }

  @Test
  void sortedPositions_matchCompareTo() {
    List<KeyVector> all = Vectors.keys().stream().filter(v -> v.sortedPosition() >= 0)
        .collect(Collectors.toList());
    assertThat(all).hasSize(172);
    for (KeyVector a : all) {
      for (KeyVector b : all) {
        int expected = Integer.signum(Integer.compare(a.sortedPosition(), b.sortedPosition()));
        assertThat(Integer.signum(KvKey.of(a.parts()).compareTo(KvKey.of(b.parts()))))
            .as("%s vs %s", a.id(), b.id()).isEqualTo(expected);
      }
    }
  }

  // The error_cases of keys.json, one by one.

  @Test
  void emptyKey_isReadableButNotWritable() {
    assertThat(KvKey.of().encode()).isEmpty();
    Limits.checkReadKey(KvKey.of());
    assertThatThrownBy(() -> Limits.checkWriteKey(KvKey.of()))
        .isInstanceOf(KvLimitException.class).hasMessage("key cannot be empty");
  }

  @Test
  void unsupportedPartTypes_areRejectedWithIndexAndType() {
    for (Object bad : new Object[] {null, new Object(), new java.util.HashMap<>(), 'c'}) {
      assertThatThrownBy(() -> KvKey.of("ok", bad))
          .isInstanceOf(KvTypeException.class)
          .hasMessageStartingWith("key part 1: unsupported key part type "
              + (bad == null ? "null" : bad.getClass().getName()));
    }
  }

  @Test
  void bigintOver255Bytes_isRejected() {
    BigInteger tooBig = BigInteger.TWO.pow(2040);
    assertThatThrownBy(() -> KvKey.of(tooBig))
        .isInstanceOf(KvLimitException.class)
        .hasMessageContaining("requires more than 255 bytes");
    assertThat(KvKey.of(tooBig.subtract(BigInteger.ONE)).encodedLength()).isEqualTo(257);
  }

  @Test
  void keyOf2049Bytes_isTooLargeForWriteAndRead() {
    KvKey key = KvKey.of((Object) new byte[2047]);
    assertThat(key.encodedLength()).isEqualTo(2047 * 2 + 2);
    KvKey ones = KvKey.of((Object) filled(2047, (byte) 1));
    assertThat(ones.encodedLength()).isEqualTo(2049);
    assertThatThrownBy(() -> Limits.checkWriteKey(ones))
        .isInstanceOf(KvLimitException.class)
        .hasMessage("key too large for write: 2049 bytes (max 2048)");
    assertThatThrownBy(() -> Limits.checkReadKey(ones))
        .isInstanceOf(KvLimitException.class)
        .hasMessage("key too large for read: 2050 bytes (max 2049)");
    Limits.checkWriteKey(KvKey.of((Object) filled(2046, (byte) 1)));
  }

  private static byte[] filled(int n, byte b) {
    byte[] out = new byte[n];
    java.util.Arrays.fill(out, b);
    return out;
  }
}
