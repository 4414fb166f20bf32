package dev.kvasir.testkit.mapping;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The README's table "what Deno sees" is {@link MappedTypes}, the table the round-trip contract
 * and the Deno test check: this test fails when the two differ. {@code
 * -Dkvasir.updateReadme=true} writes the table into the README instead.
 */
class ReadmeTableTest {
  private static final Path README = Path.of("..", "README.md");
  private static final String START = "<!-- mapped-types:";
  private static final String END = "<!-- /mapped-types -->";

  static String table() {
    StringBuilder out = new StringBuilder("| Java | Deno sees |\n|---|---|\n");
    for (MappedTypes.Sample s : MappedTypes.samples()) {
      out.append("| ").append(s.name()).append(" | `").append(s.denoSees()).append("` |\n");
    }
    return out.toString();
  }

  @Test
  void readmeShowsWhatDenoSeesOfEveryMappedType() throws IOException {
    String readme = Files.readString(README, StandardCharsets.UTF_8);
    int start = readme.indexOf('\n', readme.indexOf(START)) + 1;
    int end = readme.indexOf(END);
    assertThat(start).as("the README's markers").isPositive();
    assertThat(end).as("the README's markers").isGreaterThan(start);
    String expected = table();
    if (Boolean.getBoolean("kvasir.updateReadme")) {
      Files.writeString(README, readme.substring(0, start) + expected + readme.substring(end),
          StandardCharsets.UTF_8);
      return;
    }
    assertThat(readme.substring(start, end))
        .as("the README's table; -Dkvasir.updateReadme=true rewrites it").isEqualTo(expected);
  }
}
