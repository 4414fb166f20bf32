package dev.kvasir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kvasir.base.Hex;
import dev.kvasir.base.KvArgumentException;
import org.junit.jupiter.api.Test;

class CursorsTest {
  @Test
  void encode_isPaddedBase64UrlOfTheBytesAfterThePrefix() {
    // docs/list.md: prefix ["a"], key ["a",1].
    byte[] prefix = Hex.decode("026100");
    byte[] key = Hex.decode("02610021bff0000000000000");
    assertThat(Cursors.encode(prefix, key)).isEqualTo("Ib_wAAAAAAAA");
    assertThat(Cursors.encode(Hex.decode("02"), Hex.decode("02610021bff0000000000000")))
        .isEqualTo("YQAhv_AAAAAAAAA=");
  }

  @Test
  void decode_acceptsOnlyCanonicalPaddedBase64Url() {
    assertThat(Cursors.decode("YQA=")).containsExactly(0x61, 0x00);
    assertThat(Cursors.decode("")).isEmpty();
    for (String bad : new String[] {"YQA", "YQB=", "YQ+=", "YQ/=", "Y===", "YQA==", " YQA="}) {
      assertThatThrownBy(() -> Cursors.decode(bad)).as(bad)
          .isInstanceOf(KvArgumentException.class).hasMessageContaining("invalid cursor");
    }
  }

  @Test
  void encode_keyOutsideThePrefix_isAnInvalidBoundary() {
    assertThatThrownBy(() -> Cursors.encode(Hex.decode("0262"), Hex.decode("0261")))
        .hasMessage("Invalid boundary key");
  }
}
