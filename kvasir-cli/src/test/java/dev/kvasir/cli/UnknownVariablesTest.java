package dev.kvasir.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.Writer;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine.Model.CommandSpec;

/** serve's warnings about KVASIR_* variables that no option reads (docs/operations.md §2). */
class UnknownVariablesTest {
  /** serve as it runs: in a command line built for its arguments, which holds serve alone. */
  private static final CommandSpec SERVE = Kvasir.commandLineFor(new String[] {"serve"},
      new Kvasir(), new PrintWriter(Writer.nullWriter()), new PrintWriter(Writer.nullWriter()))
      .getSubcommands().get("serve").getCommandSpec();

  @Test
  void aMisspeltVariable_isNamed_withTheOneMeant() {
    assertThat(UnknownVariables.warnings(SERVE, Map.of("KVASIR_READONLY", "true",
        "KVASIR_PROT", "80", "KVASIR_PORT", "4512")))
        .containsExactly(
            "KVASIR_PROT is set but no kvasir command reads it; did you mean KVASIR_PORT?",
            "KVASIR_READONLY is set but no kvasir command reads it; did you mean"
                + " KVASIR_READ_ONLY?");
    assertThat(UnknownVariables.warnings(SERVE, Map.of("KVASIR_ANOTHER_PROGRAM", "x")))
        .containsExactly("KVASIR_ANOTHER_PROGRAM is set but no kvasir command reads it");
  }

  @Test
  void everyVariableTheDocumentsName_andOtherPrograms_areLeftAlone() {
    // serve's (KVASIR_TLS_CERT), the client commands' (KVASIR_CA_FILE, KVASIR_TIMEOUT), and
    // variables without the prefix.
    assertThat(UnknownVariables.warnings(SERVE, Map.of("KVASIR_DB", "a", "KVASIR_CONFIG", "b",
        "KVASIR_TLS_CERT", "c", "KVASIR_CA_FILE", "d", "KVASIR_TIMEOUT", "5s",
        "KVASIR_DB_OPTION", "x=y", "KVASIR_ACCESS_TOKEN_FILE", "f", "DENO_KV_ACCESS_TOKEN", "g",
        "KVASIRX", "h"))).isEmpty();
    // Variables read by hand, not through an option's default value.
    assertThat(UnknownVariables.warnings(SERVE, Map.of("KVASIR_ACCESS_TOKEN", "t",
        "KVASIR_DB_PASSWORD_FILE", "p", "KVASIR_LOG_LEVEL", "info", "KVASIR_LOG_FORMAT", "json",
        "KVASIR_READ_ONLY", "true", "KVASIR_TRUSTED_PROXY", "10.0.0.0/8"))).isEmpty();
  }

  @Test
  void everyOptionOfServe_readsTheVariableNamedAfterIt() {
    // docs/operations.md §2 promises one for each; an option without it would be warned of.
    assertThat(SERVE.options()).filteredOn(o -> !o.usageHelp() && !o.versionHelp())
        .hasSizeGreaterThan(20)
        .allSatisfy(o -> assertThat(UnknownVariables.warnings(SERVE,
            Map.of(ConfigFile.variable(o), "x"))).as(o.longestName()).isEmpty());
  }

  @Test
  void anOptionThatReadsNoVariable_doesNotMakeItsNameKnown() {
    // list --limit and watch --count take no variable; before, every option's name counted.
    assertThat(UnknownVariables.warnings(SERVE, Map.of("KVASIR_LIMIT", "5", "KVASIR_COUNT", "1")))
        .containsExactly("KVASIR_COUNT is set but no kvasir command reads it",
            "KVASIR_LIMIT is set but no kvasir command reads it");
  }

  @Test
  void distance_countsASwapOfNeighboursAsOneEdit() {
    assertThat(UnknownVariables.distance("KVASIR_PROT", "KVASIR_PORT")).isEqualTo(1);
    assertThat(UnknownVariables.distance("KVASIR_HOS", "KVASIR_HOST")).isEqualTo(1);
    assertThat(UnknownVariables.distance("abc", "xyz")).isEqualTo(3);
  }
}
