package dev.kvasir.server;

import dev.kvasir.base.KvOptions;
import dev.kvasir.connect.RemoteConfig;
import dev.kvasir.connect.RemoteEngine;
import dev.kvasir.spi.KvEngine;
import dev.kvasir.testkit.ForwardingEngine;

/**
 * A test fixture: an engine served by a {@link KvServer} on a free loopback port, reached through
 * a {@link RemoteEngine}. Closing it closes all three.
 */
final class Served extends ForwardingEngine {
  static final String TOKEN = "test-token-0123456789";

  final KvEngine backing;
  final KvServer server;
  final RemoteEngine remote;

  Served(KvEngine backing) {
    this(backing, KvServer.builder(backing).accessToken(TOKEN).port(0).start());
  }

  private Served(KvEngine backing, KvServer server) {
    this(backing, server, RemoteEngine.open(RemoteConfig.from(server.url(),
        KvOptions.defaults().with("accessToken", TOKEN))));
  }

  private Served(KvEngine backing, KvServer server, RemoteEngine remote) {
    super(remote);
    this.backing = backing;
    this.server = server;
    this.remote = remote;
  }

  @Override
  public void close() {
    super.close(); // the client
    server.close();
    backing.close();
  }
}
