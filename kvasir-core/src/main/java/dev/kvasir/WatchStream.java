package dev.kvasir;

import dev.kvasir.base.KvException;
import dev.kvasir.base.Versionstamp;
import dev.kvasir.spi.EngineWatch;
import dev.kvasir.spi.RawEntry;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Optional;

/**
 * The states of watched keys, as a blocking iterator (docs/watch.md). The first
 * emission is the current state of every key; each later one follows a change of at least one
 * key's versionstamp (rapid changes may coalesce, the final state is never missed). Each
 * emission has one entry per key, in the order given; a missing key has a {@code null} value
 * and versionstamp.
 *
 * <pre>{@code
 * try (WatchStream watch = kv.watch(List.of(KvKey.of("config")))) {
 *   for (List<KvEntry> state : watch) { apply(state.get(0).value()); }
 * }
 * }</pre>
 *
 * {@link #hasNext()} blocks until the next emission and returns {@code false} once the stream
 * or its {@link Kv} is closed. {@link #close()} may be called from any thread. Iterate from one
 * thread.
 */
public final class WatchStream implements Iterator<List<KvEntry>>, Iterable<List<KvEntry>>,
    AutoCloseable {
  private final Kv kv;
  private final List<KvKey> keys;
  private final EngineWatch watch;
  private List<KvEntry> pending;
  private List<Versionstamp> lastEmitted;
  private volatile boolean closed;

  WatchStream(Kv kv, List<KvKey> keys, EngineWatch watch) {
    this.kv = kv;
    this.keys = keys;
    this.watch = watch;
  }

  @Override
  public boolean hasNext() {
    while (pending == null) {
      if (closed) {
        return false;
      }
      List<Optional<RawEntry>> state;
      try {
        state = watch.next();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new KvException("interrupted while waiting for a watch emission", e);
      }
      if (state == null) {
        close();
        return false;
      }
      List<Versionstamp> stamps = new ArrayList<>(state.size());
      state.forEach(o -> stamps.add(o.map(RawEntry::versionstamp).orElse(null)));
      // Deno emits only when some versionstamp differs from the last emission.
      if (!Objects.equals(stamps, lastEmitted)) {
        lastEmitted = stamps;
        pending = toEntries(state);
      }
    }
    return true;
  }

  @Override
  public List<KvEntry> next() {
    if (!hasNext()) {
      throw new NoSuchElementException("the watch is closed");
    }
    List<KvEntry> out = pending;
    pending = null;
    return out;
  }

  /** This stream itself, for a for-each loop. */
  @Override
  public Iterator<List<KvEntry>> iterator() {
    return this;
  }

  /** Ends the stream; a blocked {@link #hasNext()} returns {@code false}. Idempotent. */
  @Override
  public void close() {
    closed = true;
    watch.close();
    kv.forget(this);
  }

  private List<KvEntry> toEntries(List<Optional<RawEntry>> state) {
    List<KvEntry> out = new ArrayList<>(state.size());
    for (int i = 0; i < state.size(); i++) {
      KvKey key = keys.get(i);
      out.add(state.get(i)
          .map(e -> new KvEntry(key, e.value(), e.versionstamp(), kv.mapper()))
          .orElseGet(() -> KvEntry.missing(key, kv.mapper())));
    }
    return List.copyOf(out);
  }
}
