package dev.kvasir.connect;

import dev.kvasir.base.KvException;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.channels.AsynchronousCloseException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.eclipse.jetty.client.BasicAuthentication;
import org.eclipse.jetty.client.BytesRequestContent;
import org.eclipse.jetty.client.CompletableResponseListener;
import org.eclipse.jetty.client.ContentResponse;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.client.HttpClientTransport;
import org.eclipse.jetty.client.HttpProxy;
import org.eclipse.jetty.client.HttpResponseException;
import org.eclipse.jetty.client.InputStreamResponseListener;
import org.eclipse.jetty.client.ProxyAuthenticationProtocolHandler;
import org.eclipse.jetty.client.Request;
import org.eclipse.jetty.client.Response;
import org.eclipse.jetty.client.RetryableRequestException;
import org.eclipse.jetty.client.WWWAuthenticationProtocolHandler;
import org.eclipse.jetty.client.transport.HttpClientConnectionFactory;
import org.eclipse.jetty.client.transport.HttpClientTransportDynamic;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.http2.client.HTTP2Client;
import org.eclipse.jetty.http2.client.transport.ClientConnectionFactoryOverHTTP2;
import org.eclipse.jetty.http2.client.transport.HttpClientTransportOverHTTP2;
import org.eclipse.jetty.io.ClientConnector;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.eclipse.jetty.util.thread.Invocable.InvocationType;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.eclipse.jetty.util.thread.ScheduledExecutorScheduler;

/**
 * HTTP/2 to a KV Connect server, as Deno speaks it (docs/kv-connect.md §1): cleartext with prior
 * knowledge on {@code http://}, negotiated by ALPN on {@code https://}, every request a POST,
 * all on one connection. Jetty's client, not the JDK's: on Java 17 with one or two processors
 * the JDK's completes every asynchronous request on a thread started for it (§11).
 */
final class Transport implements AutoCloseable {
  /** The largest answer read: a snapshot read of 1000 entries of 64 KiB fits with room. */
  private static final int MAX_ANSWER_BYTES = 128 * 1024 * 1024;

  /** The most threads the client runs, for I/O and completions; a waiting caller holds none. */
  private static final int MAX_THREADS = 32;

  /** A POST to send: where, its headers and body, and how long it may take in all. */
  record Call(URI uri, Map<String, String> headers, String contentType, byte[] body,
      Duration timeout) {}

  /** A complete answer. */
  record Answer(int status, byte[] body, URI uri, Map<String, String> headers) {
    String text() {
      return new String(body, StandardCharsets.UTF_8);
    }

    String header(String name) {
      return headers.getOrDefault(name, "");
    }
  }

  /** The transport whose pool started the current thread, if one did. */
  private static final ThreadLocal<Transport> OWNER = new ThreadLocal<>();

  private final HttpClient client;
  private final Optional<RemoteProxy> proxy;

  Transport(RemoteConfig config) {
    proxy = config.proxy();
    ClientConnector connector = new ClientConnector();
    SslContextFactory.Client tls = new SslContextFactory.Client();
    tls.setSslContext(config.sslContext());
    connector.setSslContextFactory(tls);
    connector.setConnectTimeout(config.timeout());
    QueuedThreadPool threads = new QueuedThreadPool(MAX_THREADS, 2) {
      @Override
      public Thread newThread(Runnable runnable) {
        return super.newThread(() -> {
          OWNER.set(Transport.this);
          runnable.run();
        });
      }
    };
    threads.setName("kvasir-remote");
    threads.setDaemon(true);
    // No reserved threads: handing the selector to a parked spare on every response costs
    // more than it saves (docs/kv-connect.md §11).
    threads.setReservedThreads(0);
    connector.setExecutor(threads);
    connector.setScheduler(new ScheduledExecutorScheduler("kvasir-remote-timer", true));
    HTTP2Client http2 = new HTTP2Client(connector);
    HttpClientTransport transport;
    if (config.proxy().isEmpty()) {
      HttpClientTransportOverHTTP2 direct = new HttpClientTransportOverHTTP2(http2);
      // Answers complete on the thread that read them, with no hand-over to another (§11): what
      // runs there never blocks (collecting a body, completing a future, queueing a watch's
      // bytes).
      direct.setInvocationType(InvocationType.NON_BLOCKING);
      transport = direct;
    } else {
      // A proxy's CONNECT is HTTP/1.1; inside the tunnel ALPN still picks h2 (§14).
      transport = new HttpClientTransportDynamic(connector,
          new ClientConnectionFactoryOverHTTP2.HTTP2(http2), HttpClientConnectionFactory.HTTP11);
    }
    client = new HttpClient(transport);
    config.proxy().ifPresent(proxy -> {
      client.getProxyConfiguration().addProxy(new HttpProxy(proxy.host(), proxy.port()));
      if (proxy.user() != null) {
        client.getAuthenticationStore().addAuthenticationResult(new BasicAuthentication
            .BasicResult(URI.create("http://" + proxy.host() + ":" + proxy.port()),
            HttpHeader.PROXY_AUTHORIZATION, proxy.user(), proxy.password()));
      }
    });
    client.setUserAgentField(new HttpField(HttpHeader.USER_AGENT, userAgent()));
    client.setConnectTimeout(config.timeout().toMillis());
    try {
      client.start();
    } catch (Exception e) {
      throw new KvException("cannot start the HTTP client: " + e.getMessage(), e);
    }
    // A 401 is the server's answer to a bad token, for the caller to see, not a challenge to
    // answer. (Starting the client installs the handlers.)
    client.getProtocolHandlers().remove(WWWAuthenticationProtocolHandler.NAME);
    client.getProtocolHandlers().remove(ProxyAuthenticationProtocolHandler.NAME);
  }

  /**
   * {@code kvasir/VERSION Java/VERSION}, as Deno sends {@code Deno/2.9.6}: a server's access log
   * then tells which clients (and which releases of them) call it.
   */
  static String userAgent() {
    String version = Transport.class.getPackage().getImplementationVersion();
    return "kvasir/" + (version == null ? "dev" : version) + " Java/"
        + Runtime.version().feature();
  }

  /**
   * Whether the current thread is one of this transport's, which read answers and complete them
   * (§11): a call that waited there for an answer would wait for itself.
   */
  boolean isOwnThread() {
    return OWNER.get() == this;
  }

  /**
   * Sends {@code call}; the future fails with what broke (an {@link IOException}, a {@link
   * java.util.concurrent.TimeoutException}, …) and completes on the client's threads.
   * Cancelling it aborts the request.
   */
  CompletableFuture<Answer> send(Call call) {
    CompletableFuture<ContentResponse> response;
    try {
      response = new CompletableResponseListener(request(call)
          .timeout(call.timeout().toMillis(), TimeUnit.MILLISECONDS), MAX_ANSWER_BYTES).send();
    } catch (IllegalStateException | RetryableRequestException e) {
      return CompletableFuture.failedFuture(closedAsSent(call, e));
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
    CompletableFuture<Answer> answer = response.handle((r, error) -> {
      Throwable cause = error instanceof CompletionException c && c.getCause() != null
          ? c.getCause() : error;
      if (cause instanceof IllegalStateException || cause instanceof RetryableRequestException) {
        throw new CompletionException(closedAsSent(call, (RuntimeException) cause));
      }
      if (cause instanceof HttpResponseException refused) {
        throw new CompletionException(proxyRefused(call, refused));
      }
      if (error != null) {
        throw error instanceof CompletionException c ? c : new CompletionException(error);
      }
      return new Answer(r.getStatus(), r.getContent(), r.getRequest().getURI(), headers(r));
    });
    answer.whenComplete((a, error) -> {
      if (answer.isCancelled()) {
        response.cancel(true);
      }
    });
    return answer;
  }

  /**
   * A server that stops closes its HTTP/2 sessions with GOAWAY, and Jetty then fails a request
   * with a {@link RuntimeException}: {@link RetryableRequestException} for a stream the server
   * says it never processed, {@link IllegalStateException} ("session closed") for one started
   * on a session that had just closed (docs/kv-connect.md §11). Neither reached the server, so
   * each is a network failure like a refused connection, which the caller retries on a new
   * connection.
   */
  private static IOException closedAsSent(Call call, RuntimeException e) {
    return new IOException("the connection to '" + call.uri() + "' closed as the request was"
        + " sent: " + e.getMessage(), e);
  }

  /**
   * The proxy answered its {@code CONNECT} with an error, which Jetty throws as {@link
   * HttpResponseException} (docs/kv-connect.md §14): a 5xx is the proxy failing to reach the
   * server, a network failure retried like any other; anything else is the proxy refusing,
   * which stays so, most often for want of credentials (407).
   */
  private Exception proxyRefused(Call call, HttpResponseException e) {
    if (proxy.isEmpty()) {
      return new IOException(e.getMessage(), e); // not a tunnel: nothing more to say of it
    }
    int status = e.getResponse().getStatus();
    String through = "the proxy " + proxy.get();
    String target = call.uri().getHost() + ":" + call.uri().getPort();
    if (status >= 500) {
      return new IOException(through + " could not reach " + target + " (status " + status
          + ")", e);
    }
    return new RemoteException(through + " refused the tunnel to " + target + " (status "
        + status + (status == 407 ? "): it wants a user and password, given in the proxy's URL"
        + " as http://user:password@host:port" : ")"), e);
  }

  /**
   * Sends {@code call} and returns its body as a stream once the answer's headers are in,
   * within {@code call.timeout()}; the body has no time limit (a watch). Closing the stream
   * aborts the request, so that the server ends its side at once (an HTTP/2 reset).
   *
   * @throws IOException if the stream cannot be opened now: the network, a timeout, a 5xx
   * @throws RemoteException for a 4xx: the call is wrong and will stay wrong
   * @throws InterruptedException after aborting the request
   */
  InputStream openStream(Call call) throws IOException, InterruptedException {
    InputStreamResponseListener listener = new InputStreamResponseListener();
    Request request = request(call);
    try {
      request.send(listener);
    } catch (IllegalStateException | RetryableRequestException e) {
      throw closedAsSent(call, e);
    }
    Response response;
    try {
      response = listener.get(call.timeout().toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      request.abort(e);
      throw new IOException("no answer from '" + call.uri() + "' in " + call.timeout(), e);
    } catch (InterruptedException e) {
      request.abort(e);
      throw e;
    } catch (ExecutionException e) {
      if (e.getCause() instanceof HttpResponseException refused) {
        Exception why = proxyRefused(call, refused);
        if (why instanceof IOException io) {
          throw io;
        }
        throw (RemoteException) why;
      }
      throw e.getCause() instanceof IOException io ? io : new IOException(e.getCause());
    }
    InputStream body = listener.getInputStream();
    if (response.getStatus() == 200) {
      return new FilterInputStream(body) {
        @Override
        public void close() throws IOException {
          // Closing Jetty's stream alone tells the server nothing until its next frame arrives
          // (a ping, up to 5 s later); the server keeps the watch counted until then.
          request.abort(new AsynchronousCloseException());
          super.close();
        }
      };
    }
    String text;
    try (body) {
      text = new String(body.readNBytes(4096), StandardCharsets.UTF_8);
    }
    if (response.getStatus() < 500 && !RemoteEngine.refusedBeforeWork(response.getStatus())) {
      throw new RemoteException("KV Connect failed to call '" + call.uri() + "' (status="
          + response.getStatus() + "): " + text, response.getStatus());
    }
    // 5xx, and a refusal that asks to try again (429 at the limit of watches): the caller does.
    throw new IOException("status " + response.getStatus() + ": " + text);
  }

  private Request request(Call call) {
    return client.newRequest(call.uri()).method(HttpMethod.POST)
        .headers(h -> call.headers().forEach(h::put))
        .body(new BytesRequestContent(call.contentType(), call.body()));
  }

  private static Map<String, String> headers(Response r) {
    Map<String, String> out = new HashMap<>();
    for (HttpField field : r.getHeaders()) {
      out.putIfAbsent(field.getLowerCaseName(), field.getValue());
    }
    return out;
  }

  @Override
  public void close() {
    try {
      client.stop();
    } catch (Exception e) {
      // stopping aborts what is in flight; nothing else can go wrong that matters here
    }
  }
}
