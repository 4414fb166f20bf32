package dev.kvasir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kvasir.base.KvException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** ULIDs as the ULID specification and Deno's key-space page make them (docs/keys.md §9). */
class UlidTest {
  private static final String FORM = "[0-7][0-9A-HJKMNP-TV-Z]{25}";

  @Test
  void theSpecificationsExample_decodesToItsTime() {
    assertThat(Ulid.time("01ARYZ6S41TSV4RRFFQ69G5FAV"))
        .isEqualTo(Instant.ofEpochMilli(1469918176385L));
    assertThat(Ulid.time("01H76YTWK3YBV020S6MP69TBEQ"))
        .isEqualTo(Instant.ofEpochMilli(1691377037923L));
    assertThat(Ulid.next(1469918176385L)).startsWith("01ARYZ6S41").matches(FORM);
  }

  @Test
  void ulids_are26CrockfordDigits_sortAsTheirTimes_andAreUnique() {
    List<String> made = new ArrayList<>();
    for (long t = 0; t < 1L << 47; t = t * 3 + 1) {
      made.add(Ulid.next(t));
    }
    assertThat(made).allMatch(u -> u.matches(FORM));
    assertThat(made).isSorted();
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < 10_000; i++) {
      assertThat(seen.add(Ulid.next())).isTrue();
    }
    String now = Ulid.next();
    assertThat(Ulid.time(now).toEpochMilli())
        .isBetween(System.currentTimeMillis() - 10_000, System.currentTimeMillis());
  }

  @Test
  void monotonicUlids_increaseStrictly_byOneWithinAMillisecond() {
    List<String> made = new ArrayList<>();
    for (int i = 0; i < 100_000; i++) {
      made.add(Ulid.monotonic());
    }
    assertThat(made).isSorted().doesNotHaveDuplicates();
    // Two alike but for their last digit are one apart: the random bits plus one.
    for (int i = 1; i < made.size(); i++) {
      String a = made.get(i - 1);
      String b = made.get(i);
      if (a.substring(0, 25).equals(b.substring(0, 25))) {
        assertThat(digit(b.charAt(25)) - digit(a.charAt(25))).isOne();
      }
    }
    // As keys they sort the same way.
    List<KvKey> keys = made.stream().map(u -> KvKey.of("users", u)).toList();
    assertThat(keys).isSorted();
  }

  @Test
  void badInput_isRefusedNamingTheProblem() {
    assertThatThrownBy(() -> Ulid.time("01ARYZ6S41")).isInstanceOf(KvException.class)
        .hasMessageContaining("26 characters");
    assertThatThrownBy(() -> Ulid.time("01ARYZ6S41TSV4RRFFQ69G5FAU"))
        .hasMessageContaining("'U' at 25");
    assertThatThrownBy(() -> Ulid.time("81ARYZ6S41TSV4RRFFQ69G5FAV"))
        .hasMessageContaining("overflows 48 bits");
    assertThatThrownBy(() -> Ulid.next(-1)).hasMessageContaining("from 1970 on");
  }

  private static int digit(char c) {
    return "0123456789ABCDEFGHJKMNPQRSTVWXYZ".indexOf(c);
  }
}
