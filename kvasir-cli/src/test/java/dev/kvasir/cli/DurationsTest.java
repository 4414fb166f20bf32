package dev.kvasir.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import picocli.CommandLine.TypeConversionException;

/** The durations of --timeout, --expire-in, --delay, --db-wait and --queue-lease. */
class DurationsTest {
  private final Durations durations = new Durations();

  @Test
  void millisecondsAlone_orANumberWithAUnit() {
    assertThat(durations.convert("1500")).isEqualTo(Duration.ofMillis(1500));
    assertThat(durations.convert("0")).isEqualTo(Duration.ZERO);
    assertThat(durations.convert("500ms")).isEqualTo(Duration.ofMillis(500));
    assertThat(durations.convert("30s")).isEqualTo(Duration.ofSeconds(30));
    assertThat(durations.convert(" 5m ")).isEqualTo(Duration.ofMinutes(5));
    assertThat(durations.convert("2H")).isEqualTo(Duration.ofHours(2));
    assertThat(durations.convert("1d")).isEqualTo(Duration.ofDays(1));
  }

  /** As Go, Prometheus and Kubernetes write them, and as Java prints a Duration. */
  @Test
  void severalPartsAndFractions_orIso8601() {
    assertThat(durations.convert("1h30m")).isEqualTo(Duration.ofMinutes(90));
    assertThat(durations.convert("1m30s500ms")).isEqualTo(Duration.ofMillis(90_500));
    assertThat(durations.convert("1.5s")).isEqualTo(Duration.ofMillis(1500));
    assertThat(durations.convert("0.25ms")).isEqualTo(Duration.ofNanos(250_000));
    assertThat(durations.convert("PT1H30M")).isEqualTo(Duration.ofMinutes(90));
    assertThat(durations.convert("p2d")).isEqualTo(Duration.ofDays(2));
  }

  @Test
  void aNegativeOrTooLongOrUnknownDuration_isRefusedSayingWhy() {
    assertThatThrownBy(() -> durations.convert("-1s")).isInstanceOf(TypeConversionException.class)
        .hasMessage("'-1s' is negative; a duration is 0 or more");
    assertThatThrownBy(() -> durations.convert("PT-5S"))
        .hasMessage("'PT-5S' is negative; a duration is 0 or more");
    assertThatThrownBy(() -> durations.convert("99999999999999999999s"))
        .hasMessage("'99999999999999999999s' is too long a duration");
    assertThatThrownBy(() -> durations.convert("99999999999999999999"))
        .hasMessage("'99999999999999999999' is too long a duration");
    for (String text : new String[] {"1w", "5sec", "1.s", "s", "", "PTx", "1h 30m"}) {
      assertThatThrownBy(() -> durations.convert(text)).as(text)
          .hasMessageStartingWith("'" + text + "' is not a duration; write milliseconds (1500)");
    }
  }
}
