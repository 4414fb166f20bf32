package dev.kvasir.testkit;

import dev.kvasir.base.Consistency;
import dev.kvasir.base.Versionstamp;
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

/**
 * An engine that hands the calls every engine must implement to another, for tests that change
 * one of them (reads distorted, reads held back). The methods with a default (asynchronous
 * calls, dump, load, …) are not handed on: they run on the required ones, so an override of
 * {@link #snapshotRead} covers asynchronous reads too, and {@link #readsWithoutWaiting()} stays
 * false, so a server runs the reads on its worker threads.
 */
public abstract class ForwardingEngine implements KvEngine {
  private final KvEngine inner;

  protected ForwardingEngine(KvEngine inner) {
    this.inner = inner;
  }

  @Override
  public List<List<RawEntry>> snapshotRead(List<ReadRange> ranges, Consistency consistency) {
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
    inner.close();
  }
}
