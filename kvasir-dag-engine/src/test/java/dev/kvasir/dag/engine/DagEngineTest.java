package dev.kvasir.dag.engine;

import dev.kvasir.base.KvOptions;
import dev.kvasir.spi.Engines;
import dev.kvasir.spi.KvEngine;
import dev.kvasir.testkit.contract.KvEngineContract;
import java.nio.file.Path;
import java.time.Duration;

/** The KV/DAG engine, opened as users open it, against the whole contract. */
class DagEngineTest extends KvEngineContract {
  @Override
  public KvEngine openEngine(Path dir) {
    return Engines.open("dag:" + dir.resolve("db"), KvOptions.defaults());
  }

  /** Through the option, as {@code kvasir serve --db-option dag.queuePollMs=…} passes it. */
  @Override
  public KvEngine openEngine(Path dir, Duration queuePoll) {
    return Engines.open("dag:" + dir.resolve("db"),
        KvOptions.defaults().with("dag.queuePollMs", Long.toString(queuePoll.toMillis())));
  }

  @Override
  public boolean persistent() {
    return true;
  }
}
