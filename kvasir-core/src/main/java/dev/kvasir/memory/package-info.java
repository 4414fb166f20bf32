/**
 * The in-memory engine ({@code ":memory:"}): the rulebook on sorted maps, in process, gone when
 * closed.
 */
package dev.kvasir.memory;
