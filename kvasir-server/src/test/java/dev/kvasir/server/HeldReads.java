package dev.kvasir.server;

import dev.kvasir.base.Consistency;
import dev.kvasir.memory.MemoryEngine;
import dev.kvasir.spi.RawEntry;
import dev.kvasir.spi.ReadRange;
import dev.kvasir.testkit.ForwardingEngine;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A test engine: a memory engine whose reads wait until {@link #release()}, so that a test can
 * be sure a client's callback is attached before the answer it waits for arrives. Its reads
 * may wait, so the server runs them on its worker threads.
 */
final class HeldReads extends ForwardingEngine {
  private final CountDownLatch released = new CountDownLatch(1);

  HeldReads() {
    super(MemoryEngine.open());
  }

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
    return super.snapshotRead(ranges, consistency);
  }

  @Override
  public void close() {
    release();
    super.close();
  }
}
