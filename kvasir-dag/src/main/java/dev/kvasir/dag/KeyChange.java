package dev.kvasir.dag;

import dev.kvasir.dag.cid.Cid;

/** A key whose value differs between two roots; {@code null} means absent on that side. */
public record KeyChange(String key, Cid before, Cid after) {}
