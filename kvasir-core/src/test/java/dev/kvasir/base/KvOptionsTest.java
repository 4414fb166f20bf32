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
}
