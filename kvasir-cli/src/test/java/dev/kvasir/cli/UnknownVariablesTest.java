package dev.kvasir.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** serve's warnings about KVASIR_* variables that no option reads (docs/operations.md §2). */
class UnknownVariablesTest {
  @Test
  void aMisspeltVariable_isNamed_withTheOneMeant() {
    assertThat(UnknownVariables.warnings(Map.of("KVASIR_READONLY", "true",
        "KVASIR_PROT", "80", "KVASIR_PORT", "4512")))
        .containsExactly(
            "KVASIR_PROT is set but names no option of kvasir, so it is not read; did you mean"
                + " KVASIR_PORT?",
            "KVASIR_READONLY is set but names no option of kvasir, so it is not read; did you"
                + " mean KVASIR_READ_ONLY?");
    assertThat(UnknownVariables.warnings(Map.of("KVASIR_ANOTHER_PROGRAM", "x")))
        .containsExactly("KVASIR_ANOTHER_PROGRAM is set but names no option of kvasir, so it"
            + " is not read");
  }

  @Test
  void everyVariableTheDocumentsName_andOtherPrograms_areLeftAlone() {
    // serve's (KVASIR_TLS_CERT), the client commands' (KVASIR_CA_FILE, KVASIR_TIMEOUT), and
    // variables without the prefix.
    assertThat(UnknownVariables.warnings(Map.of("KVASIR_DB", "a", "KVASIR_CONFIG", "b",
        "KVASIR_TLS_CERT", "c", "KVASIR_CA_FILE", "d", "KVASIR_TIMEOUT", "5s",
        "KVASIR_DB_OPTION", "x=y", "KVASIR_ACCESS_TOKEN_FILE", "f", "DENO_KV_ACCESS_TOKEN", "g",
        "KVASIRX", "h"))).isEmpty();
  }

  @Test
  void distance_countsASwapOfNeighboursAsOneEdit() {
    assertThat(UnknownVariables.distance("KVASIR_PROT", "KVASIR_PORT")).isEqualTo(1);
    assertThat(UnknownVariables.distance("KVASIR_HOS", "KVASIR_HOST")).isEqualTo(1);
    assertThat(UnknownVariables.distance("abc", "xyz")).isEqualTo(3);
  }
}
