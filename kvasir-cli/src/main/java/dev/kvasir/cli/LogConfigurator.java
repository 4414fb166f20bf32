package dev.kvasir.cli;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.classic.spi.ConfiguratorRank;
import ch.qos.logback.core.spi.ContextAwareBase;

/**
 * Logback's set-up when the first logger is made ({@code META-INF/services}): Kvasir's own
 * ({@link Logging}), unless the operator named a logback configuration file, which logback's
 * next configurator then reads. Public for logback's service loader only.
 */
@ConfiguratorRank(ConfiguratorRank.CUSTOM_NORMAL_PRIORITY)
public final class LogConfigurator extends ContextAwareBase implements Configurator {
  /** For the service loader. */
  public LogConfigurator() {}

  @Override
  public ExecutionStatus configure(LoggerContext context) {
    if (Logging.operatorConfigured()) {
      return ExecutionStatus.INVOKE_NEXT_IF_ANY;
    }
    Logging.configureFromEnvironment(context);
    return ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY;
  }
}
