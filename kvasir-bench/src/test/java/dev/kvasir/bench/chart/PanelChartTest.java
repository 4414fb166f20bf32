package dev.kvasir.bench.chart;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** Which runs a panel's axis names. */
class PanelChartTest {
  @Test
  void theAxisNames_theFirstRun_everyFifth_andTheLast_noneRunningIntoAnother() {
    assertThat(labelled(4)).containsExactly(1, 4);
    assertThat(labelled(20)).containsExactly(1, 5, 10, 15, 20);
    assertThat(labelled(21)).as("20 beside 21 would read 2021").containsExactly(1, 5, 10, 15, 21);
    assertThat(labelled(23)).containsExactly(1, 5, 10, 15, 20, 23);
  }

  private static List<Integer> labelled(int runs) {
    return IntStream.rangeClosed(1, runs).filter(run -> PanelChart.labelled(run, runs)).boxed()
        .collect(Collectors.toList());
  }
}
