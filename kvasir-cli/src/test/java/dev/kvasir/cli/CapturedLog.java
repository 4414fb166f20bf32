package dev.kvasir.cli;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.util.List;
import org.slf4j.LoggerFactory;

/** What one class logs while a test runs, as logback hands it to an appender. */
final class CapturedLog implements AutoCloseable {
  private final Logger logger;
  private final ListAppender<ILoggingEvent> events = new ListAppender<>();

  CapturedLog(Class<?> owner) {
    logger = (Logger) LoggerFactory.getLogger(owner);
    events.start();
    logger.addAppender(events);
  }

  /** Each event as "LEVEL message". */
  List<String> lines() {
    return events.list.stream().map(e -> e.getLevel() + " " + e.getFormattedMessage()).toList();
  }

  @Override
  public void close() {
    logger.detachAppender(events);
  }
}
