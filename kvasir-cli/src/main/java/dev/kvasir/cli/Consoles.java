package dev.kvasir.cli;

import java.io.Console;
import java.lang.reflect.Method;

/** Whether the command runs at a terminal, on every Java it supports. */
final class Consoles {
  private Consoles() {}

  /**
   * Whether standard input and output are a terminal, a person at a keyboard. Java 17's and
   * Java 25's console exists only for a terminal; Java 22 to 24 give one even when the streams
   * are redirected (a script piped into {@code kvasir shell}, a service's output going to its
   * journal), and say which through {@code isTerminal()}, which Java 17 lacks.
   */
  static boolean interactive() {
    Console console = System.console();
    if (console == null) {
      return false;
    }
    try {
      Method isTerminal = Console.class.getMethod("isTerminal");
      return (boolean) isTerminal.invoke(console);
    } catch (NoSuchMethodException beforeJava22) {
      return true;
    } catch (ReflectiveOperationException e) {
      return false;
    }
  }
}
