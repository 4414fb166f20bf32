/**
 * Kvasir's public API ({@code Kv}, keys, values, atomic operations), the key and V8 codecs,
 * the engine SPI (the contract), the engine toolkit (Deno's rules written once, for engines to
 * build on) and the in-memory engine. Engines in other modules are found through
 * {@link dev.kvasir.spi.EngineProvider} services, so an application that requires only this
 * module opens any engine on its module path.
 */
module dev.kvasir.core {
  requires org.slf4j;
  requires static transitive org.jspecify;

  exports dev.kvasir;
  exports dev.kvasir.base;
  exports dev.kvasir.key;
  exports dev.kvasir.mapping;
  exports dev.kvasir.value;
  exports dev.kvasir.spi;
  exports dev.kvasir.engine;
  exports dev.kvasir.memory;

  uses dev.kvasir.spi.EngineProvider;

  provides dev.kvasir.spi.EngineProvider with dev.kvasir.memory.MemoryEngineProvider;
}
