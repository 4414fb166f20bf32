package dev.kvasir.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Arguments that the JVM decoded in a character set that could not hold them are refused. */
class ArgumentsTest {
  private static final String[] LOST = {"set", "[\"\uFFFD\uFFFD\"]", "1"};

  @Test
  void aReplacementCharacter_fromAnAsciiLocale_isRefusedNamingTheArgumentAndTheLocale() {
    assertThat(Arguments.undecodable(LOST, "ANSI_X3.4-1968"))
        .startsWith("the argument '[\"\uFFFD\uFFFD\"]' lost characters: Java read the command"
            + " line in ANSI_X3.4-1968")
        .contains("LC_ALL=C.UTF-8");
  }

  @Test
  void inUtf8_orWithoutReplacementCharacters_theArgumentsStand() {
    assertThat(Arguments.undecodable(LOST, "UTF-8")).isNull(); // typed on purpose
    assertThat(Arguments.undecodable(new String[] {"set", "[\"a\"]", "1"}, "ANSI_X3.4-1968"))
        .isNull();
    assertThat(Arguments.undecodable(LOST, null)).isNull();
  }
}
