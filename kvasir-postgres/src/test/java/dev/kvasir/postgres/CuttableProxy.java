package dev.kvasir.postgres;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A TCP forwarder between the engine and the server that a test can break on purpose: stop
 * passing the server's replies on ({@link #swallowReplies}), and cut the client side of every
 * connection while the server side stays open ({@link #cutClients}), as a network failure would.
 */
final class CuttableProxy implements AutoCloseable {
  private final ServerSocket listener;
  private final int target;
  private final List<Socket> clients = new CopyOnWriteArrayList<>();
  private volatile boolean swallowReplies;

  CuttableProxy(int targetPort) throws IOException {
    this.target = targetPort;
    this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    Thread accept = new Thread(this::accept, "proxy-accept");
    accept.setDaemon(true);
    accept.start();
  }

  int port() {
    return listener.getLocalPort();
  }

  void swallowReplies(boolean on) {
    swallowReplies = on;
  }

  /** Closes the client side of every connection; the server sees nothing. */
  void cutClients() throws IOException {
    for (Socket s : clients) {
      s.close();
    }
    clients.clear();
  }

  private void accept() {
    while (!listener.isClosed()) {
      Socket client;
      try {
        client = listener.accept();
      } catch (IOException e) {
        return; // closed
      }
      try {
        Socket server = new Socket(InetAddress.getLoopbackAddress(), target);
        clients.add(client);
        pump(client.getInputStream(), server.getOutputStream(), false);
        pump(server.getInputStream(), client.getOutputStream(), true);
      } catch (IOException e) {
        // This one connection failed: cutClients closed it before its pumps started. Going on
        // to the next matters; a proxy that stopped accepting would hang every later connect.
        closeQuietly(client);
      }
    }
  }

  private static void closeQuietly(Socket s) {
    try {
      s.close();
    } catch (IOException e) {
      // already closed
    }
  }

  private void pump(InputStream in, OutputStream out, boolean replies) {
    Thread t = new Thread(() -> {
      byte[] buffer = new byte[8192];
      try {
        for (int n; (n = in.read(buffer)) >= 0; ) {
          if (!(replies && swallowReplies)) {
            out.write(buffer, 0, n);
            out.flush();
          }
        }
      } catch (IOException e) {
        // one side went away; the other is left as it is
      }
    }, "proxy-pump");
    t.setDaemon(true);
    t.start();
  }

  @Override
  public void close() throws IOException {
    listener.close();
    cutClients();
  }
}
