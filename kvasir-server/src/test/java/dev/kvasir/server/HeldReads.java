package dev.kvasir.server;

import dev.kvasir.base.Consistency;
import dev.kvasir.base.Versionstamp;
import dev.kvasir.memory.MemoryEngine;
import dev.kvasir.spi.AtomicWrite;
import dev.kvasir.spi.DequeuedMessage;
import dev.kvasir.spi.EngineWatch;
import dev.kvasir.spi.KvEngine;
import dev.kvasir.spi.RawEntry;
import dev.kvasir.spi.RawKey;
import dev.kvasir.spi.ReadRange;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A test engine: a memory engine whose reads wait until {@link #release()}, so that a test can
 * be sure a client's callback is attached before the answer it waits for arrives. It reports
 * reads that wait, so the server runs them on its worker threads.
 */
final class HeldReads implements KvEngine {
  private final MemoryEngine inner = MemoryEngine.open();
  private final CountDownLatch released = new CountDownLatch(1);

  /** Lets every read waiting now, and every later one, go on. */
  void release() {
    released.countDown();
  }

  @Override
  public List<List<RawEntry>> snapshotRead(List<ReadRange> ranges, Consistency consistency) {
    try {
      if (!released.await(60, TimeUnit.SECONDS)) {
        throw new IllegalStateException("the test never released the reads");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while the reads were held", e);
    }
    return inner.snapshotRead(ranges, consistency);
  }

  @Override
  public Optional<Versionstamp> atomicWrite(AtomicWrite write) {
    return inner.atomicWrite(write);
  }

  @Override
  public DequeuedMessage dequeueNext(Duration timeout) throws InterruptedException {
    return inner.dequeueNext(timeout);
  }

  @Override
  public EngineWatch watch(List<RawKey> keys) {
    return inner.watch(keys);
  }

  @Override
  public void close() {
    release();
    inner.close();
  }
}
