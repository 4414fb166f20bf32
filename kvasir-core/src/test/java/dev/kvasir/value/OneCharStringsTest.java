package dev.kvasir.value;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class OneCharStringsTest {
  @Test
  void everyLatin1Character_decodesToItself_andIsShared() {
    for (int c = 0; c < 256; c++) {
      String text = String.valueOf((char) c);
      byte[] bytes = V8.serialize(text);
      assertThat(bytes[bytes.length - 3]).as("tag").isEqualTo((byte) V8Tags.ONE_BYTE_STRING);
      Object decoded = V8.deserialize(bytes);
      assertThat(decoded).isEqualTo(text).isSameAs(V8.deserialize(bytes));
    }
  }

  @Test
  void longerAndWiderStrings_stillDecodeExactly() {
    for (String text : List.of("", "ab", "\u00e9t\u00e9", "\u20ac", "a\ud83d\ude00")) {
      assertThat(V8.deserialize(V8.serialize(text))).isEqualTo(text);
    }
  }
}
