package dev.kvasir.connect;

import java.io.IOException;
import java.net.URI;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells the log when a client's watch streams break and when they are all back, once per outage
 * rather than once per watch: a watch reconnects on its own, and without this its caller would
 * not know that, until then, it hears of no change (docs/kv-connect.md §7).
 */
final class WatchOutage {
  private static final Logger LOG = LoggerFactory.getLogger(WatchOutage.class);

  private final URI url;
  private final Set<RemoteWatch> broken = new HashSet<>(); // guarded by this
  private long brokenSince;

  WatchOutage(URI url) {
    this.url = url;
  }

  /**
   * {@code watch} has no stream: it lost the one it had, or, when {@code opened} is false, the
   * server refused or never answered its first (a server at its limit of watches answers 429).
   */
  synchronized void lost(RemoteWatch watch, IOException why, boolean opened) {
    if (broken.add(watch) && broken.size() == 1) {
      brokenSince = System.nanoTime();
      if (opened) {
        LOG.warn("The watch streams from {} broke ({}); they reconnect until the server"
            + " answers, and hear of no change until then", url, why.toString());
      } else {
        LOG.warn("A watch stream from {} could not be opened ({}); it tries again until the"
            + " server takes it, and hears of no change until then", url, why.toString());
      }
    }
  }

  synchronized void reconnected(RemoteWatch watch) {
    if (broken.remove(watch) && broken.isEmpty()) {
      LOG.warn("The watch streams from {} are all connected, after {} ms", url,
          TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - brokenSince));
    }
  }

  synchronized void closed(RemoteWatch watch) {
    broken.remove(watch);
  }
}
