package dev.kvasir.engine;

import java.util.concurrent.ThreadLocalRandom;

/**
 * How far the database version moves (docs/sqlite.md §4): a commit, and a dead letter, by a
 * random 1 to 9, as Deno's SQLite backend; an expiry sweep that deleted rows by exactly 1.
 * Every engine takes its steps from here.
 */
public final class Versions {
  /** What a sweep that deleted rows adds to the version. */
  public static final int SWEEP_STEP = 1;

  private Versions() {}

  /** The step of one commit. */
  public static int commitStep() {
    return 1 + ThreadLocalRandom.current().nextInt(9);
  }
}
