package dev.kvasir.dag.cbor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.kvasir.dag.cid.Cid;
import dev.kvasir.testkit.PailVectors;
import java.math.BigInteger;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DagCborTest {
  private static final HexFormat HEX = HexFormat.of();

  @Test
  void everyBlockOfThePailVectors_decodesAndReencodesToTheSameBytes() {
    int blocks = 0;
    for (String file : PailVectors.files()) {
      JsonNode scenario = PailVectors.scenario(file);
      for (String list : new String[] {"final_blocks", "snapshot_extra_blocks"}) {
        for (JsonNode b : scenario.path(list)) {
          byte[] bytes = HEX.parseHex(b.get("bytes_hex").asText());
          assertThat(DagCbor.encode(DagCbor.decode(bytes))).as(b.get("cid").asText())
              .isEqualTo(bytes);
          assertThat(Cid.of(Cid.DAG_CBOR, bytes).toString()).isEqualTo(b.get("cid").asText());
          blocks++;
        }
      }
    }
    assertThat(blocks).isGreaterThan(400);
  }

  @Test
  void encode_writesCanonicalForm() {
    Map<String, Object> map = new LinkedHashMap<>();
    map.put("version", 1);
    map.put("roots", List.of());
    map.put("b", true);
    // Keys by encoded length, then bytewise: "b", "roots", "version".
    assertThat(HEX.formatHex(DagCbor.encode(map)))
        .isEqualTo("a36162f565726f6f7473806776657273696f6e01");
    assertThat(HEX.formatHex(DagCbor.encode(List.of(23L, 24L, 255L, 256L, -1L, -25L))))
        .isEqualTo("86171818" + "18ff" + "190100" + "20" + "3818");
    assertThat(HEX.formatHex(DagCbor.encode(1.5))).isEqualTo("fb3ff8000000000000");
    assertThat(DagCbor.decode(DagCbor.encode(new BigInteger("18446744073709551615"))))
        .isEqualTo(new BigInteger("18446744073709551615"));
    assertThat(DagCbor.decode(DagCbor.encode(new BigInteger("-18446744073709551616"))))
        .isEqualTo(new BigInteger("-18446744073709551616"));
    assertThat(DagCbor.decode(HEX.parseHex("3bffffffffffffffff")))
        .isEqualTo(new BigInteger("-18446744073709551616"));
  }

  @Test
  void textBeyondAscii_decodesAsWritten_inKeysAndValues() {
    Map<String, Object> map = new LinkedHashMap<>();
    map.put("a", "plain");
    map.put("ключ", "värde 日本 \uD83D\uDE00");
    map.put("é", List.of("", "ü"));
    assertThat(DagCbor.decode(DagCbor.encode(map))).isEqualTo(map);
  }

  @Test
  void encode_refusesWhatDagCborCannotHold() {
    assertThatThrownBy(() -> DagCbor.encode(Double.NaN)).hasMessageContaining("NaN");
    assertThatThrownBy(() -> DagCbor.encode(Map.of(1, 2))).hasMessageContaining("strings");
    assertThatThrownBy(() -> DagCbor.encode("\ud800")).hasMessageContaining("lone surrogate");
    assertThatThrownBy(() -> DagCbor.encode(new Object())).hasMessageContaining("cannot hold");
  }

  @Test
  void decode_rejectsNonCanonicalOrForbiddenInput() {
    String[][] bad = {
        {"1817", "not in its shortest form"},
        {"5f4101ff", "indefinite-length"},
        {"9f01ff", "indefinite-length"},
        {"f93c00", "half and single precision"},
        {"fa3fc00000", "half and single precision"},
        {"fb7ff8000000000000", "NaN"},
        {"f7", "undefined"},
        {"c11a514b67b0", "tag 1 is not allowed"},
        {"a2616201616101", "canonical order"},
        {"a2616101616102", "duplicate map key"},
        {"a10101", "map keys must be text"},
        {"62c328", "not valid UTF-8"},
        {"a162c32801", "not valid UTF-8"}, // a map key
        {"a262626201616102", "canonical order"}, // "bb" before "a": length first
        {"6a61", "runs past the end"},
        {"0101", "1 trailing bytes"},
        {"83", "exceeds the bytes left"},
        {"5a00010000", "runs past the end"},
        {"d82a4401711220", "must start with 0x00"},
        {"d82a4500017112", "runs past the end"},
        {"d82a01", "must hold a byte string"},
        {"", "empty input"},
        {"fc", "simple value 28 is not allowed"},
        {"1c", "reserved additional information 28"},
    };
    for (String[] c : bad) {
      assertThatThrownBy(() -> DagCbor.decode(HEX.parseHex(c[0]))).as(c[0])
          .isInstanceOf(DagCborException.class).hasMessageContaining(c[1]);
    }
  }

  @Test
  void decode_rejectsDeepNestingWithoutOverflowingTheStack() {
    byte[] deep = new byte[100_000];
    Arrays.fill(deep, (byte) 0x81);
    assertThatThrownBy(() -> DagCbor.decode(deep)).hasMessageContaining("nesting deeper");
  }
}
