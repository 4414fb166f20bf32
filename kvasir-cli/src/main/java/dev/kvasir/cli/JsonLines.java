package dev.kvasir.cli;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.classic.spi.ThrowableProxyUtil;
import ch.qos.logback.core.LayoutBase;
import dev.kvasir.value.JsFormat;
import java.time.Instant;
import org.slf4j.event.KeyValuePair;

/**
 * One JSON object per log event and line, for log collectors (docs/operations.md §6): {@code
 * time} (ISO 8601, UTC), {@code level}, {@code logger}, {@code thread}, {@code message}, the
 * event's SLF4J key-value pairs (the access log's) and, with an exception, {@code exception}
 * (its stack trace as text).
 */
final class JsonLines extends LayoutBase<ILoggingEvent> {
  @Override
  public String doLayout(ILoggingEvent event) {
    StringBuilder b = new StringBuilder(200);
    b.append("{\"time\":\"").append(Instant.ofEpochMilli(event.getTimeStamp()))
        .append("\",\"level\":\"").append(event.getLevel()).append('"');
    field(b, "logger", event.getLoggerName());
    field(b, "thread", event.getThreadName());
    field(b, "message", event.getFormattedMessage());
    // The event's key-value pairs (the access log's status, path, …) as fields of their own.
    if (event.getKeyValuePairs() != null) {
      for (KeyValuePair pair : event.getKeyValuePairs()) {
        if (pair.value instanceof Number n) {
          b.append(',');
          JsFormat.appendQuoted(b, pair.key);
          b.append(':').append(n);
        } else {
          field(b, pair.key, pair.value == null ? null : pair.value.toString());
        }
      }
    }
    IThrowableProxy thrown = event.getThrowableProxy();
    if (thrown != null) {
      field(b, "exception", ThrowableProxyUtil.asString(thrown));
    }
    return b.append("}\n").toString();
  }

  private static void field(StringBuilder b, String name, String value) {
    b.append(',');
    JsFormat.appendQuoted(b, name);
    b.append(':');
    if (value == null) {
      b.append("null");
    } else {
      JsFormat.appendQuoted(b, value);
    }
  }
}
