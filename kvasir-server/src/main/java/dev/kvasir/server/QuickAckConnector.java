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
 * A connector whose connections acknowledge a TCP segment at once when the client may be waiting
 * for that (docs/kv-connect.md §12). A client that writes without TCP_NODELAY (Deno's KV client)
 * holds a small write until what it sent before is acknowledged: the second segment of a commit
 * body of more than about a kilobyte, or its next request after a window update. Linux delays an
 * acknowledgement up to 40 ms while it waits for data to send with it, and a KV Connect server has
 * none until a whole request is in. After each read whose bytes are not only whole requests
 * ({@link AckTracker}), the connection asks for quick-ack mode, which also sends the
 * acknowledgement Linux was holding. A whole request is acknowledged with its answer, without a
 * call or a segment of its own. Elsewhere than on Linux the option does not exist and nothing
 * changes.
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
    AckTracker acks = new AckTracker();
    SocketChannelEndPoint endPoint = new SocketChannelEndPoint(channel, selector, key,
        getScheduler()) {
      @Override
      public int fill(ByteBuffer buffer) throws IOException {
        int filled = super.fill(buffer);
        if (supported && filled > 0 && acks.needsAckNow(buffer, filled)) {
          try {
            channel.setOption(QUICK_ACK, true);
          } catch (IOException e) {
            // closing under us: the next read reports it
          }
        }
        return filled;
      }
    };
    endPoint.setIdleTimeout(getIdleTimeout());
    return endPoint;
  }
}
