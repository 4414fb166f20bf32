package dev.kvasir.testkit;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * An HTTP proxy that serves {@code CONNECT} only, as companies' outbound proxies (Squid and the
 * like) tunnel HTTPS: it reads the request, connects to the named host and port, answers 200, and
 * then copies bytes both ways until either side closes. Other methods get 405; with credentials
 * set, a request without them gets 407. Records the targets it tunnelled to.
 */
public final class ConnectProxy implements AutoCloseable {
  private final ServerSocket listener;
  private final String credentials;
  private final List<String> tunnels = new CopyOnWriteArrayList<>();
  private final List<Socket> open = new CopyOnWriteArrayList<>();

  private ConnectProxy(String user, String password) throws IOException {
    listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    credentials = user == null ? null : Base64.getEncoder().encodeToString(
        (user + ":" + password).getBytes(StandardCharsets.UTF_8));
    Thread accepting = new Thread(this::accept, "connect-proxy");
    accepting.setDaemon(true);
    accepting.start();
  }

  /** A proxy open to anyone, on a free loopback port. */
  public static ConnectProxy start() throws IOException {
    return new ConnectProxy(null, null);
  }

  /** A proxy that wants basic authentication as {@code user}. */
  public static ConnectProxy requiring(String user, String password) throws IOException {
    return new ConnectProxy(user, password);
  }

  public int port() {
    return listener.getLocalPort();
  }

  /** The {@code host:port} of every tunnel opened, in order. */
  public List<String> tunnels() {
    return List.copyOf(tunnels);
  }

  private void accept() {
    while (!listener.isClosed()) {
      try {
        Socket client = listener.accept();
        open.add(client);
        Thread serving = new Thread(() -> serve(client), "connect-proxy-client");
        serving.setDaemon(true);
        serving.start();
      } catch (IOException closed) {
        return;
      }
    }
  }

  private void serve(Socket client) {
    try {
      InputStream in = client.getInputStream();
      OutputStream out = client.getOutputStream();
      String[] head = readHead(in).split("\r\n");
      String[] requestLine = head[0].split(" ");
      if (!requestLine[0].equals("CONNECT")) {
        answer(out, "405 Method Not Allowed");
        client.close();
        return;
      }
      if (credentials != null && !hasCredentials(head)) {
        answer(out, "407 Proxy Authentication Required\r\nProxy-Authenticate: Basic"
            + " realm=\"test\"");
        client.close();
        return;
      }
      String target = requestLine[1];
      int colon = target.lastIndexOf(':');
      Socket upstream = new Socket(target.substring(0, colon),
          Integer.parseInt(target.substring(colon + 1)));
      open.add(upstream);
      tunnels.add(target);
      answer(out, "200 Connection Established");
      Thread back = new Thread(() -> copy(upstream, client), "connect-proxy-back");
      back.setDaemon(true);
      back.start();
      copy(client, upstream);
    } catch (IOException | RuntimeException e) {
      close(client);
    }
  }

  private boolean hasCredentials(String[] head) {
    for (String line : head) {
      int colon = line.indexOf(':');
      if (colon > 0 && line.substring(0, colon).equalsIgnoreCase("Proxy-Authorization")
          && line.substring(colon + 1).strip().equals("Basic " + credentials)) {
        return true;
      }
    }
    return false;
  }

  private static String readHead(InputStream in) throws IOException {
    ByteArrayOutputStream head = new ByteArrayOutputStream();
    int matched = 0;
    byte[] end = {'\r', '\n', '\r', '\n'};
    while (matched < 4) {
      int b = in.read();
      if (b < 0) {
        throw new IOException("the client closed before its request ended");
      }
      head.write(b);
      matched = b == end[matched] ? matched + 1 : b == '\r' ? 1 : 0;
    }
    return head.toString(StandardCharsets.ISO_8859_1);
  }

  private static void answer(OutputStream out, String status) throws IOException {
    out.write(("HTTP/1.1 " + status + "\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
    out.flush();
  }

  private static void copy(Socket from, Socket to) {
    try {
      from.getInputStream().transferTo(to.getOutputStream());
    } catch (IOException ended) {
      // one side went away
    } finally {
      close(from);
      close(to);
    }
  }

  private static void close(Socket s) {
    try {
      s.close();
    } catch (IOException ignored) {
      // closing
    }
  }

  @Override
  public void close() throws IOException {
    listener.close();
    open.forEach(ConnectProxy::close);
  }
}
