/**
 * The KV/DAG engine ({@code Kv.open("dag:./dir")}): every commit a new pail root in an
 * append-only block log, with time travel and fingerprints.
 */
module dev.kvasir.dag.engine {
  exports dev.kvasir.dag.engine;

  requires transitive dev.kvasir.core;
  requires transitive dev.kvasir.dag;
  requires org.slf4j;

  provides dev.kvasir.spi.EngineProvider with dev.kvasir.dag.engine.DagEngineProvider;
}
