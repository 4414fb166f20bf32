package dev.kvasir.engine;

import dev.kvasir.value.EncodedValue;

/** A live entry as a write transaction reads it: its value and the version that wrote it. */
public record StoredValue(EncodedValue value, long version) {}
