package dev.kvasir.cli;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.PatternLayout;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.Layout;
import ch.qos.logback.core.encoder.LayoutWrappingEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.bridge.SLF4JBridgeHandler;

/**
 * How the command and the server log (docs/operations.md §6): every library logs through SLF4J
 * (or {@code java.util.logging}, bridged into it) to logback, which writes lines of text or
 * JSON objects to standard error, at a level from {@code KVASIR_LOG_LEVEL} (default {@code
 * warn}) in a format from {@code KVASIR_LOG_FORMAT} (default {@code text}); {@code serve
 * --log-level}/{@code --log-format} change both once the options are read. An operator's own
 * logback file ({@code -Dlogback.configurationFile=…}) replaces all of this.
 */
final class Logging {
  static final List<String> LEVELS = List.of("error", "warn", "info", "debug", "trace");
  static final List<String> FORMATS = List.of("text", "json");
  static final String LEVEL_VARIABLE = "KVASIR_LOG_LEVEL";
  static final String FORMAT_VARIABLE = "KVASIR_LOG_FORMAT";

  private Logging() {}

  /** Whether the operator's logback configuration file is in charge. */
  static boolean operatorConfigured() {
    return System.getProperty("logback.configurationFile") != null;
  }

  /**
   * What is wrong with the logging variables of the environment, or null: a command refuses to
   * run with a level or format it does not know rather than log other than asked.
   */
  static String environmentProblem() {
    String level = environment(LEVEL_VARIABLE, "warn");
    String format = environment(FORMAT_VARIABLE, "text");
    if (!LEVELS.contains(level)) {
      return LEVEL_VARIABLE + " is one of " + String.join(", ", LEVELS) + ", not '" + level + "'";
    }
    if (!FORMATS.contains(format)) {
      return FORMAT_VARIABLE + " is one of " + String.join(", ", FORMATS) + ", not '" + format
          + "'";
    }
    return null;
  }

  /** Sets up {@code context} as the environment says (a value it does not know: the default). */
  static void configureFromEnvironment(LoggerContext context) {
    String level = environment(LEVEL_VARIABLE, "warn");
    String format = environment(FORMAT_VARIABLE, "text");
    configure(context, LEVELS.contains(level) ? level : "warn",
        FORMATS.contains(format) ? format : "text");
  }

  /** Logs at {@code level} in {@code format} from now on, unless the operator's file rules. */
  static void configure(String level, String format) {
    if (!operatorConfigured()) {
      configure((LoggerContext) LoggerFactory.getILoggerFactory(), level, format);
    }
  }

  /** Lets {@code logger} log at {@code level} ({@code off}: not at all), whatever the others. */
  static void setLevel(String logger, String level) {
    ((ch.qos.logback.classic.Logger) LoggerFactory.getLogger(logger))
        .setLevel(Level.toLevel(level));
  }

  private static void configure(LoggerContext context, String level, String format) {
    context.reset();
    Layout<ILoggingEvent> layout;
    if (format.equals("json")) {
      layout = new JsonLines();
    } else {
      PatternLayout pattern = new PatternLayout();
      pattern.setPattern("%d{yyyy-MM-dd'T'HH:mm:ss.SSSXXX} %-5level [%thread] %logger - %msg%n");
      layout = pattern;
    }
    layout.setContext(context);
    layout.start();
    LayoutWrappingEncoder<ILoggingEvent> encoder = new LayoutWrappingEncoder<>();
    encoder.setContext(context);
    encoder.setLayout(layout);
    encoder.setCharset(StandardCharsets.UTF_8);
    encoder.start();
    ConsoleAppender<ILoggingEvent> stderr = new ConsoleAppender<>();
    stderr.setContext(context);
    stderr.setName("stderr");
    stderr.setTarget("System.err");
    stderr.setEncoder(encoder);
    stderr.start();
    ch.qos.logback.classic.Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
    root.addAppender(stderr);
    root.setLevel(Level.toLevel(level));
    routeJavaUtilLogging(level);
  }

  /**
   * Sends what libraries log through {@code java.util.logging} (the PostgreSQL driver, JLine)
   * to SLF4J, at the same level: their own handler printed two lines of its own format on
   * standard error, in the middle of JSON lines. JUL drops finer records before the bridge, so
   * the driver's many debug calls cost what they cost before.
   */
  private static void routeJavaUtilLogging(String level) {
    if (!SLF4JBridgeHandler.isInstalled()) {
      SLF4JBridgeHandler.removeHandlersForRootLogger();
      SLF4JBridgeHandler.install();
    }
    java.util.logging.Logger.getLogger("").setLevel(switch (level) {
      case "error" -> java.util.logging.Level.SEVERE;
      case "warn" -> java.util.logging.Level.WARNING;
      case "info" -> java.util.logging.Level.INFO;
      case "debug" -> java.util.logging.Level.FINE;
      default -> java.util.logging.Level.FINEST;
    });
  }

  private static String environment(String name, String fallback) {
    String value = System.getenv(name);
    return value == null || value.isBlank() ? fallback : value.strip().toLowerCase(Locale.ROOT);
  }
}
