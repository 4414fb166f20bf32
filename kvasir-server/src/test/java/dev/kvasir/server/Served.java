package dev.kvasir.server;

import dev.kvasir.base.Consistency;
import dev.kvasir.base.KvOptions;
import dev.kvasir.base.Versionstamp;
import dev.kvasir.connect.RemoteConfig;
import dev.kvasir.connect.RemoteEngine;
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
 * A test fixture: an engine served by a {@link KvServer} on a free loopback port, reached through
 * a {@link RemoteEngine}. Closing it closes all three.
 */
final class Served implements KvEngine {
  static final String TOKEN = "test-token-0123456789";

  final KvEngine backing;
  final KvServer server;
  final RemoteEngine remote;

  Served(KvEngine backing) {
    this.backing = backing;
    this.server = KvServer.builder(backing).accessToken(TOKEN).port(0).start();
    this.remote = RemoteEngine.open(RemoteConfig.from(server.url(),
        KvOptions.defaults().with("accessToken", TOKEN)));
  }

  @Override
  public List<List<RawEntry>> snapshotRead(List<ReadRange> ranges, Consistency consistency) {
    return remote.snapshotRead(ranges, consistency);
  }

  @Override
  public Optional<Versionstamp> atomicWrite(AtomicWrite write) {
    return remote.atomicWrite(write);
  }

  @Override
  public DequeuedMessage dequeueNext(Duration timeout) throws InterruptedException {
    return remote.dequeueNext(timeout);
  }

  @Override
  public EngineWatch watch(List<RawKey> keys) {
    return remote.watch(keys);
  }

  @Override
  public void close() {
    remote.close();
    server.close();
    backing.close();
  }
}
