package dev.kvasir.cli;

import dev.kvasir.Kv;
import dev.kvasir.KvKey;
import dev.kvasir.ListSelector;

/**
 * Databases for the tests that kill a command half-way: many entries, written in batches and
 * counted.
 */
final class Entries {
  private Entries() {}

  /**
   * Writes {@code count} entries {@code ["k", i]} with the value {@code prefix + i} to the
   * database at {@code location}, a thousand to a commit.
   */
  static void write(String location, int count, String prefix) {
    try (Kv kv = Kv.open(location)) {
      for (int c = 0; c < count / 1_000; c++) {
        var op = kv.atomic();
        for (int i = 0; i < 1_000; i++) {
          op.set(KvKey.of("k", c * 1_000 + i), prefix + (c * 1_000 + i));
        }
        op.commit();
      }
    }
  }

  /** How many entries {@code ["k", i]} the database at {@code location} holds. */
  static long count(String location) {
    try (Kv kv = Kv.open(location)) {
      return count(kv);
    }
  }

  /** How many entries {@code ["k", i]} {@code kv} holds. */
  static long count(Kv kv) {
    long n = 0;
    for (var ignored : kv.list(ListSelector.prefix(KvKey.of("k")))) {
      n++;
    }
    return n;
  }
}
