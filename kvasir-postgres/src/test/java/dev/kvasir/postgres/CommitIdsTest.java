package dev.kvasir.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class CommitIdsTest {
  @Test
  void oneWriter_neverRepeatsAnId_andKeepsItsUpperHalf() {
    CommitIds ids = new CommitIds();
    UUID first = ids.next();
    Set<UUID> seen = new HashSet<>();
    seen.add(first);
    for (int i = 0; i < 10_000; i++) {
      UUID id = ids.next();
      assertThat(seen.add(id)).as("id %s given twice", id).isTrue();
      assertThat(id.getMostSignificantBits()).isEqualTo(first.getMostSignificantBits());
    }
  }

  @Test
  void twoWriters_drawTheirOwnUpperHalves() {
    // Equal by chance once in 2^64 runs.
    assertThat(new CommitIds().next().getMostSignificantBits())
        .isNotEqualTo(new CommitIds().next().getMostSignificantBits());
  }
}
