package dev.kvasir.dag;

import dev.kvasir.dag.cid.Cid;

/** A key of the pail and the CID stored under it. */
public record PailEntry(String key, Cid value) {}
