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

  synchronized void lost(RemoteWatch watch, IOException why) {
    if (broken.add(watch) && broken.size() == 1) {
      brokenSince = System.nanoTime();
      LOG.warn("The watch streams from {} broke ({}); they reconnect until the server answers,"
          + " and hear of no change until then", url, why.toString());
    }
  }

  synchronized void reconnected(RemoteWatch watch) {
    if (broken.remove(watch) && broken.isEmpty()) {
      LOG.warn("The watch streams from {} are connected again, after {} ms", url,
          TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - brokenSince));
    }
  }

  synchronized void closed(RemoteWatch watch) {
    broken.remove(watch);
  }
}
