package dev.kvasir.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.kvasir.KvKey;
import dev.kvasir.base.KvDecodeException;

/**
 * Any byte string either decodes to a key whose encoding is exactly those bytes, or fails with
 * a {@link KvDecodeException}; nothing else may escape.
 *
 * <p>Unit tests replay the stored inputs; {@code ./mvnw verify} fuzzes for 20 s; a long run:
 * {@code ./mvnw -pl kvasir-core verify -Dfuzz.seconds=3600} (profile {@code fuzz-long}).
 */
public class KeyDecodeFuzzTest {
  @FuzzTest(maxDuration = "20s")
  void decode_isCanonicalOrFailsCleanly(byte[] input) {
    fuzzerTestOneInput(input);
  }

  /** Entry point for the standalone Jazzer driver of the long run. */
  public static void fuzzerTestOneInput(byte[] input) {
    KvKey key;
    try {
      key = KvKey.decode(input);
    } catch (KvDecodeException expected) {
      return;
    }
    assertThat(key.encode()).isEqualTo(input);
    assertThat(KvKey.decode(key.encode())).isEqualTo(key);
  }
}
