package dev.kvasir.spi;

import java.util.List;
import java.util.Optional;

/**
 * A watch of exact keys. The first {@link #next()} returns the current state at once; each later
 * call blocks until some watched key may have changed and returns the state then. Spurious
 * returns are allowed ({@link dev.kvasir.Kv} drops emissions in which no versionstamp changed);
 * missing the final state of a key is not.
 */
public interface EngineWatch extends AutoCloseable {
  /**
   * @return one element per watched key, in order, empty where the key does not exist; or
   *     {@code null} once the watch or the engine is closed
   */
  List<Optional<RawEntry>> next() throws InterruptedException;

  /** Ends the watch; a blocked {@link #next()} returns {@code null}. Idempotent. */
  @Override
  void close();
}
