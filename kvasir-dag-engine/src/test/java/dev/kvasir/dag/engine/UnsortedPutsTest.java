package dev.kvasir.dag.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kvasir.dag.cbor.DagCbor;
import dev.kvasir.dag.cid.Cid;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** Puts in any order come back sorted by key, each key once with its last value. */
class UnsortedPutsTest {
  @Test
  void nothingPut_passesNothing() {
    List<String> seen = new ArrayList<>();
    new UnsortedPuts().forEachSorted((key, value) -> seen.add(key));

    assertThat(seen).isEmpty();
  }

  @Test
  void keysOfEveryLength_comeBackSorted_theLastPutWinning() {
    Random random = new Random(3);
    TreeMap<String, Cid> expected = new TreeMap<>();
    UnsortedPuts puts = new UnsortedPuts();
    for (int i = 0; i < 50_000; i++) {
      // mostly short keys of a small alphabet, so many repeat; some longer than a first page;
      // characters up to 255, where a signed byte would order them wrongly
      int length = random.nextInt(100) == 0 ? random.nextInt(6_000) : 1 + random.nextInt(3);
      StringBuilder key = new StringBuilder();
      for (int c = 0; c < length; c++) {
        key.append(random.nextBoolean() ? (char) ('a' + random.nextInt(4))
            : (char) (0x7e + random.nextInt(0x82)));
      }
      Cid value = Cid.of(Cid.DAG_CBOR, DagCbor.encode((long) i));
      puts.add(key.toString(), value);
      expected.put(key.toString(), value);
    }
    List<Map.Entry<String, Cid>> seen = new ArrayList<>();
    puts.forEachSorted((key, value) -> seen.add(Map.entry(key, value)));

    assertThat(puts.size()).isEqualTo(50_000);
    assertThat(seen).containsExactlyElementsOf(expected.entrySet().stream()
        .map(e -> Map.entry(e.getKey(), e.getValue())).toList());
  }

  @Test
  void holds_onlyKeysOfCharactersBelow256() {
    assertThat(UnsortedPuts.holds("x0000018d2a3c4e00" + "0275\u00ff")).isTrue();
    assertThat(UnsortedPuts.holds("x\u0100")).isFalse();
  }
}
