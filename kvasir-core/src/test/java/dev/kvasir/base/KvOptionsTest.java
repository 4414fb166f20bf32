package dev.kvasir.base;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class KvOptionsTest {
  @Test
  void booleanValue_takesTrueOrFalse_andNamesTheOptionOfAnythingElse() {
    KvOptions options = KvOptions.defaults().with("a", " true ").with("b", "false")
        .with("c", "yes");
    assertThat(options.booleanValue("a", false)).isTrue();
    assertThat(options.booleanValue("b", true)).isFalse();
    assertThat(options.booleanValue("unset", true)).isTrue();
    assertThatThrownBy(() -> options.booleanValue("c", false))
        .isInstanceOf(KvArgumentException.class)
        .hasMessage("c must be true or false: received yes");
  }

  @Test
  void intValue_takesIntegersInItsRange_andNamesTheOptionOfOthers() {
    KvOptions options = KvOptions.defaults().with("n", "7").with("huge", "4294967297")
        .with("low", "0");
    assertThat(options.intValue("n", 1, 1, 64)).isEqualTo(7);
    assertThat(options.intValue("unset", 4, 1, 64)).isEqualTo(4);
    assertThatThrownBy(() -> options.intValue("huge", 4, 1, 64))
        .isInstanceOf(KvArgumentException.class)
        .hasMessage("huge must be 1 to 64: received 4294967297");
    assertThatThrownBy(() -> options.intValue("low", 4, 1, 64))
        .isInstanceOf(KvArgumentException.class)
        .hasMessage("low must be 1 to 64: received 0");
  }

  @Test
  void millisValue_takesWholeMillisecondsFromZero_andNamesTheOptionOfOthers() {
    KvOptions options = KvOptions.defaults().with("wait", "1500").with("back", "-1");
    assertThat(options.millisValue("wait", Duration.ZERO)).isEqualTo(Duration.ofMillis(1500));
    assertThat(options.millisValue("unset", Duration.ofSeconds(5)))
        .isEqualTo(Duration.ofSeconds(5));
    assertThatThrownBy(() -> options.millisValue("back", Duration.ZERO))
        .isInstanceOf(KvArgumentException.class)
        .hasMessage("back must not be negative: received -1");
  }
}
