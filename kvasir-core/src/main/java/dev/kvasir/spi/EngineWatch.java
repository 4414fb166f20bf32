package dev.kvasir.spi;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;

/**
 * A watch of exact keys. The first {@link #next()} returns the current state at once; each later
 * call blocks until some watched key may have changed and returns the state then. Spurious
 * returns are allowed ({@code Kv} drops emissions in which no versionstamp changed);
 * missing the final state of a key is not.
 */
public interface EngineWatch extends AutoCloseable {
  /** What {@link #poll()} returns when nothing changed since the last state. */
  List<Optional<RawEntry>> NO_CHANGE = Collections.unmodifiableList(new ArrayList<>());

  /**
   * @return one element per watched key, in order, empty where the key does not exist; or
   *     {@code null} once the watch or the engine is closed
   */
  List<Optional<RawEntry>> next() throws InterruptedException;

  /**
   * Asks the watch to call {@code listener} whenever a watched key may have changed and when
   * the watch ends, so that a caller can {@link #poll()} instead of holding a thread in {@link
   * #next()}. The listener runs on an engine thread (a committing one, say): it must return
   * quickly and must not read. Returns {@code false} if this watch cannot call back; then
   * callers block in {@link #next()}.
   */
  default boolean listen(Runnable listener) {
    return false;
  }

  /**
   * {@link #next()} without waiting: the state if it would return at once (the first call, or a
   * change pending), {@link #NO_CHANGE} (by identity) if it would wait, {@code null} once
   * closed. Only for watches whose {@link #listen} returned {@code true}.
   */
  default List<Optional<RawEntry>> poll() {
    throw new UnsupportedOperationException("this watch only blocks: use next()");
  }

  /** Ends the watch; a blocked {@link #next()} returns {@code null}. Idempotent. */
  @Override
  void close();
}
