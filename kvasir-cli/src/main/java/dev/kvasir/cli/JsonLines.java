package dev.kvasir.cli;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.classic.spi.ThrowableProxyUtil;
import ch.qos.logback.core.LayoutBase;
import dev.kvasir.value.JsFormat;
import java.time.Instant;

/**
 * One JSON object per log event and line, for log collectors (docs/operations.md §6): {@code
 * time} (ISO 8601, UTC), {@code level}, {@code logger}, {@code thread}, {@code message} and, with
 * an exception, {@code exception} (its stack trace as text).
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
    IThrowableProxy thrown = event.getThrowableProxy();
    if (thrown != null) {
      field(b, "exception", ThrowableProxyUtil.asString(thrown));
    }
    return b.append("}\n").toString();
  }

  private static void field(StringBuilder b, String name, String value) {
    b.append(",\"").append(name).append("\":");
    if (value == null) {
      b.append("null");
    } else {
      JsFormat.appendQuoted(b, value);
    }
  }
}
