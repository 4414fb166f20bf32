package dev.kvasir.server;

import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.RequestLog;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.NanoTime;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The access log (docs/operations.md §6): one INFO event per answered request to the logger
 * {@link KvServer#ACCESS_LOGGER}. Its message is NCSA's common log format with the time taken;
 * the same facts go with it as SLF4J key-value pairs ({@code client}, {@code method}, {@code
 * path}, {@code protocol}, {@code status}, {@code bytes}, {@code ms}, {@code userAgent}), which
 * JSON log lines write as fields of their own, for log collectors to query without parsing the
 * message. The {@code Authorization} header is never read. Behind a proxy the client is the
 * one its {@code X-Forwarded-For} names, if the proxy is trusted ({@link ClientAddress}).
 */
final class AccessLog implements RequestLog {
  private static final Logger LOG = LoggerFactory.getLogger(KvServer.ACCESS_LOGGER);
  private static final DateTimeFormatter NCSA_TIME =
      DateTimeFormatter.ofPattern("dd/MMM/yyyy:HH:mm:ss Z", Locale.US)
          .withZone(ZoneId.systemDefault());

  private final ClientAddress clients;

  AccessLog(ClientAddress clients) {
    this.clients = clients;
  }

  @Override
  public void log(Request request, Response response) {
    if (!LOG.isInfoEnabled()) {
      return;
    }
    String client = clients.of(request);
    String method = request.getMethod();
    String path = request.getHttpURI().getPathQuery();
    String protocol = request.getConnectionMetaData().getProtocol();
    int status = response.getStatus();
    long bytes = Response.getContentBytesWritten(response);
    long ms = TimeUnit.NANOSECONDS.toMillis(NanoTime.since(request.getBeginNanoTime()));
    String agent = request.getHeaders().get(HttpHeader.USER_AGENT);
    String time = NCSA_TIME.format(Instant.ofEpochMilli(Request.getTimeStamp(request)));
    LOG.atInfo()
        .addKeyValue("client", client)
        .addKeyValue("method", method)
        .addKeyValue("path", path)
        .addKeyValue("protocol", protocol)
        .addKeyValue("status", status)
        .addKeyValue("bytes", bytes)
        .addKeyValue("ms", ms)
        .addKeyValue("userAgent", agent)
        .log(client + " - - [" + time + "] \"" + method + " " + path + " " + protocol + "\" "
            + status + " " + bytes + " " + ms + "ms \"" + (agent == null ? "-" : agent) + "\"");
  }
}
