/**
 * The API: open a database with {@link dev.kvasir.Kv#open(String)}, then read, write, list,
 * watch and queue with typed keys ({@link dev.kvasir.KvKey}) and Java values. The types shared
 * with the engine contract (versionstamps, consistency, options, the exception family) are in
 * {@link dev.kvasir.base}; key parts in {@link dev.kvasir.key}; {@code KvU64} and the JS value
 * model in {@link dev.kvasir.value}. This package sits on top of core's layers
 * (docs/architecture.md, "Which package may import which").
 */
@NullMarked
package dev.kvasir;

import org.jspecify.annotations.NullMarked;
