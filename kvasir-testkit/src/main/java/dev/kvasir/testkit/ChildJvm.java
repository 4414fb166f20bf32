package dev.kvasir.testkit;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Another JVM running a test's own class: the {@code java} of this JVM with its class path, so
 * that a test can put a second process on a database, or kill one, with nothing to build first.
 */
public final class ChildJvm {
  private ChildJvm() {}

  /** The process {@code main} with {@code args} would run as, for redirections of its own. */
  public static ProcessBuilder builder(Class<?> main, String... args) {
    List<String> command = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", System.getProperty("java.class.path"), main.getName()));
    command.addAll(List.of(args));
    return new ProcessBuilder(command);
  }

  /** Starts {@code main} with {@code args}; its standard error goes to its standard output. */
  public static Process start(Class<?> main, String... args) throws IOException {
    return builder(main, args).redirectErrorStream(true).start();
  }
}
