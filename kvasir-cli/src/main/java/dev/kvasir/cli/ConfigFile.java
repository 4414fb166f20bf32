package dev.kvasir.cli;

import dev.kvasir.base.FileErrorReason;
import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.TypeConversionException;

/**
 * {@code kvasir serve --config FILE}: options from a properties file (docs/operations.md §2),
 * one per line as {@code name = value}, the name being the option's without its dashes
 * ({@code db}, {@code port}, {@code tls-cert}, …). The command line wins over the environment
 * ({@code KVASIR_DB}, …), which wins over the file, which wins over the defaults. A name the
 * command does not have is refused, so that a misspelt setting does not pass unnoticed.
 */
final class ConfigFile {
  private ConfigFile() {}

  /**
   * The environment variable of an option: {@code --max-watches} → {@code KVASIR_MAX_WATCHES};
   * the rule of every command's variables (docs/operations.md §2).
   */
  static String variable(OptionSpec option) {
    return "KVASIR_" + name(option).toUpperCase(Locale.ROOT).replace('-', '_');
  }

  /**
   * Sets the options of {@code command} that neither its command line nor the environment gave
   * from {@code file}.
   *
   * @return the options it set, so that an error about a value can say where it came from
   * @throws IllegalArgumentException naming the file and the setting that is wrong
   */
  static Set<OptionSpec> apply(CommandSpec command, Path file) {
    Properties settings = read(file);
    Set<OptionSpec> set = new HashSet<>();
    for (String key : new TreeSet<>(settings.stringPropertyNames())) {
      OptionSpec option = command.findOption("--" + key);
      if (option == null || option.usageHelp() || option.versionHelp() || key.equals("config")) {
        throw new IllegalArgumentException(file + ": '" + key + "' is no setting of kvasir "
            + command.name() + " (the names are its options without the dashes, e.g. db, port)");
      }
      String env = System.getenv(variable(option));
      if (command.commandLine().getParseResult().hasMatchedOption(option)
          || env != null && !env.isEmpty()) {
        continue;
      }
      String value = settings.getProperty(key).strip();
      try {
        option.setValue(convert(option, value));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(file + ": " + key + " = " + value + ": "
            + e.getMessage(), e);
      }
      set.add(option);
    }
    return set;
  }

  private static Properties read(Path file) {
    Properties p = new Properties();
    try (Reader in = new StringReader(TextFiles.read(file))) {
      p.load(in);
      return p;
    } catch (IOException e) {
      throw new IllegalArgumentException("cannot read the configuration file " + file + ": "
          + FileErrorReason.of(e), e);
    }
  }

  /**
   * The option's value from text: by the option's own converter where it names one (a size),
   * else for the types {@code serve}'s options have.
   */
  private static Object convert(OptionSpec option, String text) {
    Class<?> type = option.type();
    if (option.converters().length > 0) {
      try {
        return option.converters()[0].convert(text);
      } catch (TypeConversionException e) {
        throw new IllegalArgumentException(e.getMessage());
      } catch (Exception e) {
        throw new IllegalStateException("--" + name(option) + ": " + e, e);
      }
    }
    if (type == String.class) {
      return text;
    } else if (type == int.class || type == Integer.class) {
      try {
        return Integer.parseInt(text);
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("not a whole number");
      }
    } else if (type == boolean.class || type == Boolean.class) {
      if (!text.equals("true") && !text.equals("false")) {
        throw new IllegalArgumentException("true or false");
      }
      return Boolean.parseBoolean(text);
    } else if (type == Path.class) {
      return Path.of(text);
    } else if (type == List.class) { // values separated by commas, as the variable takes them
      List<String> list = new ArrayList<>();
      for (String item : text.split(",")) {
        list.add(item.strip());
      }
      return list;
    } else if (type == Map.class) { // NAME=VALUE, comma-separated
      Map<String, String> map = new LinkedHashMap<>();
      for (String pair : text.split(",")) {
        int eq = pair.indexOf('=');
        if (eq <= 0) {
          throw new IllegalArgumentException("NAME=VALUE pairs, separated by commas");
        }
        map.put(pair.substring(0, eq).strip(), pair.substring(eq + 1).strip());
      }
      return map;
    } else if (type == Duration.class) {
      try {
        return new Durations().convert(text);
      } catch (TypeConversionException e) {
        throw new IllegalArgumentException(e.getMessage());
      }
    }
    throw new IllegalStateException("no conversion to " + type + " for --" + name(option));
  }

  /**
   * The option's shortest long name without its dashes: {@code db} for {@code --db}/{@code
   * --path}, {@code output} for {@code -o}/{@code --output}.
   */
  static String name(OptionSpec option) {
    String shortest = null;
    for (String name : option.names()) {
      if (name.startsWith("--") && (shortest == null || name.length() < shortest.length())) {
        shortest = name;
      }
    }
    return shortest == null ? option.shortestName().substring(1) : shortest.substring(2);
  }
}
