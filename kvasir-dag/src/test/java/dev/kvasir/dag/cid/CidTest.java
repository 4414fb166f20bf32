package dev.kvasir.dag.cid;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

class CidTest {
  // docs/pail.md §2: the raw CID of "value-test" and the empty shard's CID.
  private static final String VALUE_TEST =
      "bafkreihq6i7upwwgrsrul2237askvod7jey22r6wbca55szti37zj6asgq";
  private static final String EMPTY_SHARD =
      "bafyreidwx2fvfdiaox32v2mnn6sxu3j4qoxeqcuenhtgrv5qv6litfnmoe";

  @Test
  void of_hashesWithSha256_likeTheJavaScriptMultiformats() {
    Cid raw = Cid.of(Cid.RAW, "value-test".getBytes(StandardCharsets.UTF_8));
    assertThat(raw.toString()).isEqualTo(VALUE_TEST);
    assertThat(raw.version()).isEqualTo(1);
    assertThat(raw.codec()).isEqualTo(Cid.RAW);
    assertThat(raw.byteLength()).isEqualTo(36);
    assertThat(Cid.of(Cid.DAG_CBOR, new byte[] {(byte) 0x80}).toString()).isEqualTo(EMPTY_SHARD);
  }

  @Test
  void parse_andDecode_roundTripTextAndBinary() throws IOException {
    Cid cid = Cid.parse(EMPTY_SHARD);
    assertThat(Cid.decode(cid.bytes())).isEqualTo(cid);
    assertThat(Cid.parse(EMPTY_SHARD.toUpperCase())).isEqualTo(cid);
    assertThat(Cid.read(new ByteArrayInputStream(cid.bytes()))).isEqualTo(cid);
    assertThat(HexFormat.of().formatHex(cid.bytes())).startsWith("01711220");
    assertThat(cid.matches(new byte[] {(byte) 0x80})).isTrue();
    assertThat(cid.matches(new byte[] {(byte) 0x81})).isFalse();
  }

  @Test
  void v0_isReadInBase58AndBinary() {
    byte[] multihash = new byte[34];
    multihash[0] = 0x12;
    multihash[1] = 0x20;
    System.arraycopy(Cid.sha256(new byte[] {1}), 0, multihash, 2, 32);
    Cid v0 = Cid.decode(multihash);
    assertThat(v0.version()).isZero();
    assertThat(v0.codec()).isEqualTo(Cid.DAG_PB);
    assertThat(v0.toString()).startsWith("Qm").hasSize(46);
    assertThat(Cid.parse(v0.toString())).isEqualTo(v0);
    assertThat(v0.matches(new byte[] {1})).isTrue();
  }

  @Test
  void malformedText_failsWithTheReason() {
    assertThatThrownBy(() -> Cid.parse("")).isInstanceOf(CidFormatException.class)
        .hasMessageContaining("empty CID");
    assertThatThrownBy(() -> Cid.parse("bafy!!")).isInstanceOf(CidFormatException.class)
        .hasMessageContaining("'!' at position 4 is not a base32 character");
    assertThatThrownBy(() -> Cid.parse("xyz")).isInstanceOf(CidFormatException.class)
        .hasMessageContaining("unsupported multibase prefix 'x'");
    assertThatThrownBy(() -> Cid.parse(EMPTY_SHARD.substring(0, 30)))
        .isInstanceOf(CidFormatException.class).hasMessageContaining("not a CID");
    assertThatThrownBy(() -> Cid.decode(new byte[] {2, 0x71, 0x12, 0}))
        .isInstanceOf(CidFormatException.class).hasMessageContaining("unsupported CID version 2");
    assertThatThrownBy(() -> Cid.decode(new byte[] {1, 0x71, 0x12, 0x20, 1}))
        .isInstanceOf(CidFormatException.class).hasMessageContaining("runs past the end");
    byte[] trailing = new byte[37];
    System.arraycopy(Cid.parse(EMPTY_SHARD).bytes(), 0, trailing, 0, 36);
    assertThatThrownBy(() -> Cid.decode(trailing)).isInstanceOf(CidFormatException.class)
        .hasMessageContaining("1 trailing bytes");
  }

  @Test
  void varint_rejectsNonMinimalForms() {
    assertThatThrownBy(() -> Varint.read(new byte[] {(byte) 0x81, 0}, 0))
        .hasMessageContaining("not minimal");
    assertThat(Varint.read(new byte[] {(byte) 0x80, 1}, 0).value()).isEqualTo(128);
  }
}
