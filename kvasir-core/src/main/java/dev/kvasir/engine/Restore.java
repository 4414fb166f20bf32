package dev.kvasir.engine;

import dev.kvasir.base.KvArgumentException;
import dev.kvasir.base.Versionstamp;
import dev.kvasir.spi.StoredEntry;
import java.util.Iterator;

/**
 * {@link dev.kvasir.spi.KvEngine#load} on an engine's write transaction: entries stored with
 * their own versions and expiries, and the database version moved up to the highest of them
 * (docs/dag-keyspace.md §4).
 */
public final class Restore {
  private Restore() {}

  /** The version a stored versionstamp stands for; only the last two bytes zero are kept. */
  public static long version(StoredEntry entry) {
    Versionstamp stamp = entry.versionstamp();
    long version = stamp.version();
    if (!Versionstamp.ofVersion(version).equals(stamp)) {
      throw new KvArgumentException("cannot keep versionstamp " + stamp + ": Kvasir's engines,"
          + " as Deno's SQLite backend, keep eight-byte versions (the last two bytes zero)");
    }
    return version;
  }

  /** Stores {@code entries} in {@code tx} and moves its version to at least the highest. */
  public static <X extends Exception> void load(WriteTx<X> tx, Iterable<StoredEntry> entries)
      throws X {
    Iterator<StoredEntry> it = entries.iterator();
    if (!it.hasNext()) {
      return; // not even a version read: a storage may count that as a change
    }
    long highest = 0;
    while (it.hasNext()) {
      StoredEntry e = it.next();
      long version = version(e);
      tx.put(e.key(), e.value(), version, e.expireAtMs());
      highest = Math.max(highest, version);
    }
    long current = tx.nextVersion(0);
    while (current < highest) {
      current = tx.nextVersion((int) Math.min(Integer.MAX_VALUE, highest - current));
    }
  }
}
