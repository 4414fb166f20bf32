package dev.kvasir;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kvasir.value.EncodedValue;
import dev.kvasir.value.V8;
import dev.kvasir.value.ValueEncoding;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The README's example, compiled and asserted. Keep the two in step. */
class TutorialTest {
  @Test
  void readmeExample() {
    KvKey key = KvKey.of("users", "alice", 42);
    assertThat(key.toString()).isEqualTo("[\"users\",\"alice\",42]");
    byte[] stored = key.encode();
    assertThat(KvKey.decode(stored).equals(key)).isTrue();

    byte[] v8 = V8.serialize(Map.of("name", "Alice", "age", 30));
    Map<?, ?> back = (Map<?, ?>) V8.deserialize(v8);
    assertThat(back).isEqualTo(Map.of("name", "Alice", "age", 30.0));
    assertThat(EncodedValue.of(new byte[] {1, 2}).encoding()).isEqualTo(ValueEncoding.BYTES);
  }
}
