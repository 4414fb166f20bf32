package dev.kvasir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kvasir.base.Hex;
import dev.kvasir.base.KvArgumentException;
import dev.kvasir.key.KeyRange;
import org.junit.jupiter.api.Test;

/** Deno's four selector shapes and the bounds it refuses (docs/keys.md §7). */
class ListSelectorTest {
  private static final KvKey A = KvKey.of("a");

  @Test
  void eachShape_coversItsRange() {
    KvKey m = KvKey.of("a", "m");
    assertThat(ListSelector.prefix(A).keyRange())
        .isEqualTo(KeyRange.of(Hex.decode("02610000"), Hex.decode("026100ff")));
    assertThat(ListSelector.prefix(A).withStart(m).keyRange())
        .isEqualTo(KeyRange.of(m.encode(), Hex.decode("026100ff")));
    assertThat(ListSelector.prefix(A).withEnd(m).keyRange())
        .isEqualTo(KeyRange.of(Hex.decode("02610000"), m.encode()));
    assertThat(ListSelector.range(A, m).keyRange()).isEqualTo(KeyRange.of(A.encode(), m.encode()));
  }

  @Test
  void boundsOutsideThePrefix_areRejected() {
    assertThatThrownBy(() -> ListSelector.prefix(A).withStart(KvKey.of("b", 1)))
        .isInstanceOf(KvArgumentException.class)
        .hasMessageStartingWith("Start key is not in the keyspace defined by prefix");
    assertThatThrownBy(() -> ListSelector.prefix(A).withStart(A))
        .hasMessageStartingWith("Start key is not in the keyspace defined by prefix");
    assertThatThrownBy(() -> ListSelector.prefix(A).withEnd(KvKey.of("ab")))
        .hasMessageStartingWith("End key is not in the keyspace defined by prefix");
  }

  @Test
  void range_rejectsStartAfterEnd() {
    assertThat(ListSelector.range(A, A).keyRange().contains(A.encode())).isFalse();
    assertThatThrownBy(() -> ListSelector.range(KvKey.of("b"), A))
        .isInstanceOf(KvArgumentException.class)
        .hasMessage("Start key is greater than end key: [\"b\"] > [\"a\"]");
  }
}
