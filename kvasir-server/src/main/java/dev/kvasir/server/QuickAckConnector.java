package dev.kvasir.server;

import java.io.IOException;
import java.net.SocketOption;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import jdk.net.ExtendedSocketOptions;
import org.eclipse.jetty.server.ConnectionFactory;
import org.eclipse.jetty.io.ManagedSelector;
import org.eclipse.jetty.io.SocketChannelEndPoint;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;

/**
 * A connector whose connections acknowledge every TCP segment at once (docs/kv-connect.md §12).
 * A client that writes a request in two segments without TCP_NODELAY (Deno's KV client, for a
 * commit body of more than about a kilobyte) holds the second until the first is acknowledged;
 * Linux delays that acknowledgement up to 40 ms while it waits for data to send with it, and a
 * KV Connect server has none until the whole request is in. Linux's quick-ack mode is not
 * sticky, so it is asked for again before every read; elsewhere the option does not exist and
 * nothing changes.
 */
final class QuickAckConnector extends ServerConnector {
  private static final SocketOption<Boolean> QUICK_ACK = ExtendedSocketOptions.TCP_QUICKACK;

  QuickAckConnector(Server server, ConnectionFactory... factories) {
    super(server, factories);
  }

  @Override
  protected SocketChannelEndPoint newEndPoint(SocketChannel channel, ManagedSelector selector,
      SelectionKey key) {
    boolean supported = channel.supportedOptions().contains(QUICK_ACK);
    SocketChannelEndPoint endPoint = new SocketChannelEndPoint(channel, selector, key,
        getScheduler()) {
      @Override
      public int fill(ByteBuffer buffer) throws IOException {
        if (supported && channel.isOpen()) {
          try {
            channel.setOption(QUICK_ACK, true);
          } catch (IOException e) {
            // closing under us: the read reports it
          }
        }
        return super.fill(buffer);
      }
    };
    endPoint.setIdleTimeout(getIdleTimeout());
    return endPoint;
  }
}
