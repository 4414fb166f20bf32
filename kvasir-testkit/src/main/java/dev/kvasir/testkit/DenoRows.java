package dev.kvasir.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kvasir.Kv;
import dev.kvasir.spi.StoredEntry;
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
   * A row as hex key, encoding, hex value, whether it expires, and the number of the commit
   * (among the successful ones) that wrote it; in a versionstamped key, the versionstamp's text
   * shows as that number too. The expiry itself is apart: each side computed it from its own
   * clock.
   */
  record Row(String text, long expireAtMs) {}

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
      rows.add(new Row(key + " " + e.value().code() + " " + hex.formatHex(e.value().sharedBytes())
          + (e.expireAtMs() < 0 ? " no expiry" : " expires") + " commit " + commit,
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
      assertThat(other.get(i).text()).as("row %d (key, encoding, value, expiry, commit)", i)
          .isEqualTo(deno.get(i).text());
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
}
