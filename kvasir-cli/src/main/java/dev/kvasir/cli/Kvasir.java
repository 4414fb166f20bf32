package dev.kvasir.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code kvasir} command. Exit codes: 0 ok, 1 operation failed, 2 usage, 3 database. */
@Command(name = "kvasir", mixinStandardHelpOptions = true,
    versionProvider = Kvasir.Version.class,
    description = "Kvasir: Deno KV for the JVM.",
    subcommands = {ServeCommand.class, CommandLine.HelpCommand.class})
public final class Kvasir {
  static final int DATABASE_ERROR = 3;

  public static void main(String[] args) {
    // Quiet libraries (Jetty) unless asked otherwise; set before any logger exists.
    if (System.getProperty("org.slf4j.simpleLogger.defaultLogLevel") == null) {
      System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
    }
    System.exit(new CommandLine(new Kvasir()).execute(args));
  }

  /** The version from the jar's manifest, or "dev" when run from classes. */
  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      String v = Kvasir.class.getPackage().getImplementationVersion();
      return new String[] {"kvasir " + (v == null ? "dev" : v)};
    }
  }
}
