package dev.kvasir.base;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
}
