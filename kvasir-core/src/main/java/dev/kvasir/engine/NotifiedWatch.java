package dev.kvasir.engine;

import dev.kvasir.base.Consistency;
import dev.kvasir.spi.EngineWatch;
import dev.kvasir.spi.KvEngine;
import dev.kvasir.spi.RawEntry;
import dev.kvasir.spi.RawKey;
import dev.kvasir.spi.ReadRange;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * An {@link EngineWatch} for engines that learn of changes through a {@link KeyNotifier}: each
 * {@link #next()} waits for a signal (except the first) and then reads every key afresh.
 */
public final class NotifiedWatch implements EngineWatch {
  private final KvEngine engine;
  private final List<ReadRange> ranges;
  private final KeyNotifier.Subscription subscription;
  private boolean first = true;

  public NotifiedWatch(KvEngine engine, KeyNotifier notifier, List<RawKey> keys) {
    this.engine = engine;
    this.ranges = keys.stream().map(ReadRange::single).toList();
    // Subscribe before the first read so no change after it is missed.
    this.subscription = notifier.subscribe(keys);
  }

  @Override
  public List<Optional<RawEntry>> next() throws InterruptedException {
    if (!first && !subscription.awaitChange()) {
      return null;
    }
    first = false;
    return read();
  }

  @Override
  public boolean listen(Runnable listener) {
    subscription.listen(listener);
    return true;
  }

  @Override
  public List<Optional<RawEntry>> poll() {
    if (subscription.isEnded()) {
      return null;
    }
    if (!first && !subscription.takeChange()) {
      return NO_CHANGE;
    }
    first = false;
    return read();
  }

  /** Every key afresh; null once the engine closed. */
  private List<Optional<RawEntry>> read() {
    List<List<RawEntry>> read;
    try {
      read = engine.snapshotRead(ranges, Consistency.STRONG);
    } catch (dev.kvasir.base.KvClosedException e) {
      return null;
    }
    List<Optional<RawEntry>> out = new ArrayList<>(read.size());
    for (List<RawEntry> one : read) {
      out.add(one.isEmpty() ? Optional.empty() : Optional.of(one.get(0)));
    }
    return out;
  }

  @Override
  public void close() {
    subscription.close();
  }
}
