package dev.kvasir.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kvasir.Kv;
import dev.kvasir.spi.StoredEntry;
import dev.kvasir.value.ValueEncoding;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * The rows a run of {@link DenoDifferential} leaves, compared between Deno's file and the
 * other side's database.
 */
final class DenoRows {
  private static final long CLOCK_SLACK_MS = 1_000;

  /**
   * A row: its key in hex, its value's encoding and bytes, whether it expires and the number of
   * the commit (among the successful ones) that wrote it ({@code written}); in a versionstamped
   * key, the versionstamp's text shows as that number too. The value's bytes are apart because
   * V8's may differ in one way (docs/values.md §6), the expiry because each side computed it
   * from its own clock.
   */
  record Row(String key, int encoding, byte[] value, String written, long expireAtMs) {
    /** Key, encoding, hex value, expiry and commit, as a failure shows them. */
    String text() {
      return key + " " + encoding + " " + HexFormat.of().formatHex(value) + " " + written;
    }

    /** Whether the rows agree in all but the value's bytes. */
    boolean sameButValue(Row other) {
      return key.equals(other.key) && encoding == other.encoding
          && written.equals(other.written);
    }
  }

  private DenoRows() {}

  /** Every row of {@code kv}, in key order; {@code stamps} are its commits' versionstamps. */
  static List<Row> of(Kv kv, List<String> stamps) {
    List<Row> rows = new ArrayList<>();
    HexFormat hex = HexFormat.of();
    kv.engine().dump((StoredEntry e) -> {
      int commit = stamps.indexOf(e.versionstamp().toString());
      String key = hex.formatHex(e.key().sharedBytes()).replace(
          hex.formatHex(e.versionstamp().toString().getBytes(StandardCharsets.US_ASCII)),
          "<commit " + commit + ">");
      rows.add(new Row(key, e.value().code(), e.value().bytes(),
          (e.expireAtMs() < 0 ? "no expiry" : "expires") + " commit " + commit,
          e.expireAtMs()));
    });
    return rows;
  }

  /**
   * The same rows on both sides. A row that expires was written by the same commit with the
   * same {@code expireIn} on both, so its two expiries differ by the time between the two
   * commits: from {@code minGapMs} (the other side's start less Deno's end) to {@code maxGapMs}
   * (the other side's end less Deno's start), give or take a second for the clock's
   * adjustments.
   */
  static void assertSame(List<Row> other, List<Row> deno, long minGapMs, long maxGapMs) {
    for (int i = 0; i < Math.min(deno.size(), other.size()); i++) {
      if (integralDoublesOnly(deno.get(i), other.get(i))) {
        System.out.printf("row %d: Deno wrote an integral number as a double (N) where the other"
            + " side wrote it as an integer (I), accepted (docs/values.md §6): %s%n", i,
            deno.get(i).text());
      } else {
        assertThat(other.get(i).text()).as("row %d (key, encoding, value, expiry, commit)", i)
            .isEqualTo(deno.get(i).text());
      }
      if (deno.get(i).expireAtMs() >= 0) {
        assertThat(other.get(i).expireAtMs() - deno.get(i).expireAtMs())
            .as("row %d: its expiry here less Deno's", i)
            .isBetween(minGapMs - CLOCK_SLACK_MS, maxGapMs + CLOCK_SLACK_MS);
      }
    }
    assertThat(other).hasSameSizeAs(deno);
    assertThat(deno).as("rows left at the end").hasSizeGreaterThan(10)
        .as("versionstamped keys").anyMatch(row -> row.text().contains("<commit"))
        .as("rows that expire").anyMatch(row -> row.expireAtMs() >= 0);
  }

  /** The same row but for integers that Deno's V8 wrote as doubles (docs/values.md §6). */
  private static boolean integralDoublesOnly(Row deno, Row other) {
    return deno.encoding() == ValueEncoding.V8.code() && other.sameButValue(deno)
        && IntegralDoubles.onlyIntegralDoubles(deno.value(), other.value());
  }
}
