package dev.kvasir.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.reflect.Field;
import org.junit.jupiter.api.Test;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;

/** Every option of {@code serve} comes from the environment variable named after it. */
class ServeOptionsTest {
  @Test
  void eachOption_defaultsToItsEnvironmentVariable() {
    var serve = Kvasir.commandLine(new Kvasir(), new PrintWriter(new StringWriter()),
        new PrintWriter(new StringWriter())).getSubcommands().get("serve").getCommandSpec();
    int checked = 0;
    for (Field field : ServeCommand.class.getDeclaredFields()) {
      Option declared = field.getAnnotation(Option.class);
      if (declared == null) {
        continue;
      }
      OptionSpec option = serve.findOption(declared.names()[0]);
      String env = "${env:" + ConfigFile.variable(option);
      assertThat(declared.defaultValue()).as(declared.names()[0]).satisfiesAnyOf(
          d -> assertThat(d).isEqualTo(env + "}"), d -> assertThat(d).startsWith(env + ":-"));
      checked++;
    }
    assertThat(checked).isEqualTo(serve.options().size() - 2); // all but --help and --version
  }
}
