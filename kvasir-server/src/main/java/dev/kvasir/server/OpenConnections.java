package dev.kvasir.server;

import com.sun.management.UnixOperatingSystemMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.NetworkConnectionLimit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The server's limit on open client connections (docs/operations.md §9). At the limit the
 * connector stops accepting: new clients wait in the listen queue until a connection closes,
 * instead of the server running out of file descriptors, after which it could accept nothing
 * at all and would log a failure every second. While at the limit, connections silent for
 * {@link #SHED_AFTER} are closed, so that idle ones make room sooner.
 */
final class OpenConnections extends NetworkConnectionLimit {
  private static final Logger LOG = LoggerFactory.getLogger(KvServer.class);
  /**
   * How long a connection may stay silent while the server is at its limit: twice the
   * interval at which watch streams ping, so that a live watch is not closed.
   */
  private static final Duration SHED_AFTER = Duration.ofSeconds(2L * WatchStreams.PING_SECONDS);
  /** File descriptors left to the database, the logs and the JVM by the default limit. */
  private static final int RESERVED_DESCRIPTORS = 256;
  /** The default limit where the process may open files enough. */
  private static final int DEFAULT_MAX = 10_000;

  private final AtomicLong timesReached = new AtomicLong();
  /**
   * At the limit every close lets one more in and the next accept reaches it again: warn once
   * a minute, not at each of those.
   */
  private final ThrottledWarning atLimit = new ThrottledWarning(LOG, Duration.ofMinutes(1));

  OpenConnections(int max, Duration idleTimeout, Connector connector) {
    super(max, connector);
    setEndPointIdleTimeout(Math.min(idleTimeout.toMillis(), SHED_AFTER.toMillis()));
  }

  /**
   * {@link #DEFAULT_MAX}, or fewer when the process may not open that many files: its limit on
   * file descriptors less what the rest of the process needs (at most half of them).
   */
  static int defaultMax() {
    OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
    if (!(os instanceof UnixOperatingSystemMXBean unix)) {
      return DEFAULT_MAX;
    }
    long descriptors = unix.getMaxFileDescriptorCount();
    long free = descriptors - Math.min(RESERVED_DESCRIPTORS, descriptors / 2);
    return (int) Math.max(1, Math.min(DEFAULT_MAX, free));
  }

  /** Connections open now. */
  int open() {
    return getNetworkConnectionCount();
  }

  int max() {
    return getMaxNetworkConnectionCount();
  }

  /** How often the server reached its limit since it started. */
  long timesReached() {
    return timesReached.get();
  }

  @Override
  protected void limit() {
    super.limit();
    timesReached.incrementAndGet();
    atLimit.warn("{} connections are open, the limit (--max-connections): new clients wait"
        + " until one closes, and connections silent for {} s are closed", max(),
        SHED_AFTER.toSeconds());
  }
}
