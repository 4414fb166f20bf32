/**
 * The engine toolkit: Deno's rules written once (the rulebook: {@link dev.kvasir.engine.Commit},
 * {@link dev.kvasir.engine.QueueRules}, {@link dev.kvasir.engine.LeasedQueue}, {@link
 * dev.kvasir.engine.Expiry}) over storage primitives an engine supplies, {@link
 * dev.kvasir.engine.RulebookEngine} which builds a whole engine from a {@link
 * dev.kvasir.engine.Storage}, and what engines share (group commit, watch notification, the
 * timer thread). Users never need it; engine modules do (docs/architecture.md, "The rulebook").
 */
package dev.kvasir.engine;
