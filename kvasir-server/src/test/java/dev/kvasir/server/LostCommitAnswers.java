package dev.kvasir.server;

import dev.kvasir.base.KvUnavailableException;
import dev.kvasir.base.Versionstamp;
import dev.kvasir.memory.MemoryEngine;
import dev.kvasir.spi.AtomicWrite;
import dev.kvasir.testkit.ForwardingEngine;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A test engine: a memory engine whose first commits are applied and then reported as failed
 * with an unknown outcome ({@link KvUnavailableException#maybeApplied()}), as the PostgreSQL
 * engine reports a connection lost while committing and the SQLite engine a failed sync.
 */
final class LostCommitAnswers extends ForwardingEngine {
  private final AtomicInteger toLose;
  private final boolean withoutWaiting;

  /**
   * @param lose how many commits to apply and then fail
   * @param withoutWaiting whether the server is to commit through {@link #atomicWriteAsync}
   *     from its request thread, as for SQLite, or on a worker thread, as for PostgreSQL
   */
  LostCommitAnswers(int lose, boolean withoutWaiting) {
    super(MemoryEngine.open());
    this.toLose = new AtomicInteger(lose);
    this.withoutWaiting = withoutWaiting;
  }

  @Override
  public Optional<Versionstamp> atomicWrite(AtomicWrite write) {
    Optional<Versionstamp> committed = super.atomicWrite(write);
    if (toLose.getAndDecrement() > 0) {
      throw new KvUnavailableException("the connection broke while committing", true, null);
    }
    return committed;
  }

  @Override
  public boolean writesWithoutWaiting() {
    return withoutWaiting;
  }

  @Override
  public CompletableFuture<Optional<Versionstamp>> atomicWriteAsync(AtomicWrite write) {
    try {
      return CompletableFuture.completedFuture(atomicWrite(write));
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
  }
}
