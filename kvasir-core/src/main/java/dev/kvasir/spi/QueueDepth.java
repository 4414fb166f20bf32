package dev.kvasir.spi;

import java.time.Duration;

/**
 * A queue's size at one moment, as {@code kvasir info} shows it (docs/operations.md §5).
 *
 * @param ready messages due now, waiting for a listener
 * @param delayed messages due later
 * @param running messages being delivered: taken by a listener that has not reported back
 * @param oldestReadyWait how long the oldest due message has waited; zero when none is due
 */
public record QueueDepth(long ready, long delayed, long running, Duration oldestReadyWait) {}
