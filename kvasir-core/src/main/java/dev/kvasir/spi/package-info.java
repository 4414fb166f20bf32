/**
 * The engine contract and nothing else: {@link dev.kvasir.spi.KvEngine} and the byte-level
 * records it takes and returns, and {@link dev.kvasir.spi.EngineProvider}, the service through
 * which {@link dev.kvasir.spi.Engines} opens a location. It knows no typed key or Java value
 * (docs/architecture.md, "Adding an engine").
 */
package dev.kvasir.spi;
