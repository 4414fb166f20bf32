package dev.kvasir.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The day-by-day record of docs/performance.md §5 reads as written, and draws every value. */
class HarnessDaysTest {
  private static final Pattern POINT = Pattern.compile("<title>(W\\d), (\\d+): ([0-9.]+)</title>");

  @Test
  void draws_onePointPerMeasuredValue_withItsDayAndRatio() {
    HarnessDays.Record record = HarnessDays.parse(List.of(
        "# a comment", "day,W1,W2", "target,0.95,", "1,0.98,1.27", "", "2,,0.84"));
    String svg = record.chart().svg();
    Matcher m = POINT.matcher(svg);
    StringBuilder points = new StringBuilder();
    while (m.find()) {
      points.append(m.group(1)).append('@').append(m.group(2)).append('=').append(m.group(3))
          .append(' ');
    }
    assertThat(points.toString().strip()).isEqualTo("W1@1=0.98 W2@1=1.27 W2@2=0.84");
    assertThat(svg).startsWith("<svg").endsWith("</svg>\n");
    assertThat(dashedLines(svg)).as("the legend's and W1's target").isEqualTo(2);
  }

  @Test
  void targets_areOptional_andAnEmptyCellMeansNone() {
    HarnessDays.Record record = HarnessDays.parse(List.of("day,W1,W2", "1,1,2"));
    assertThat(record.targets()).containsExactly(Double.NaN, Double.NaN);
    assertThat(dashedLines(record.chart().svg())).as("the legend's only").isEqualTo(1);
    assertThat(HarnessDays.parse(List.of("day,W1,W2", "target,,0.9", "1,1,2")).targets())
        .containsExactly(Double.NaN, 0.9);
  }

  @Test
  void malformedLines_areErrorsNamingTheLine() {
    assertThatThrownBy(() -> HarnessDays.parse(List.of("day,W1", "1,0.9,1.0")))
        .hasMessage("line 2: 3 cells where the header has 2");
    assertThatThrownBy(() -> HarnessDays.parse(List.of("day,W1", "1,fast")))
        .hasMessage("line 2: not a ratio: fast");
    assertThatThrownBy(() -> HarnessDays.parse(List.of("day,W1", "1,-1")))
        .hasMessage("line 2: not a ratio: -1");
    assertThatThrownBy(() -> HarnessDays.parse(List.of("day,W1", "1,1", "3,1")))
        .hasMessage("line 3: expected day 2, found 3");
    assertThatThrownBy(() -> HarnessDays.parse(List.of("day,W1", "1,1", "target,1")))
        .hasMessage("line 3: one target row, before the days");
    assertThatThrownBy(() -> HarnessDays.parse(List.of("W1,W2", "1,1")))
        .hasMessage("line 1: expected the header day,W1,…");
    assertThatThrownBy(() -> HarnessDays.parse(List.of("# only", "day,W1")))
        .hasMessage("no header or no days");
  }

  private static int dashedLines(String svg) {
    return svg.split("stroke-dasharray", -1).length - 1;
  }

  @Test
  void theRecordInDocs_reads() throws Exception {
    Path csv = Path.of("..", "docs", "data", "harness-days.csv");
    HarnessDays.Record record = HarnessDays.parse(Files.readAllLines(csv));
    assertThat(record.columns())
        .containsExactly("W1", "W2", "W3", "W4", "W5", "W6", "W3 against Deno");
    assertThat(record.days()).hasSizeGreaterThanOrEqualTo(18);
  }
}
