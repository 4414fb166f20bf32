package dev.kvasir.dag.engine;

import dev.kvasir.base.KvException;
import dev.kvasir.base.Versionstamp;
import dev.kvasir.dag.cbor.DagCbor;
import dev.kvasir.dag.cid.Cid;
import dev.kvasir.dag.store.Block;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One entry of a database's commit log (docs/dag-engine.md §1): the database version after the
 * commit, when it was made, the keyspace root (the state's fingerprint), the root of the queue
 * and bookkeeping pail, the next queue sequence number, and the previous commit.
 *
 * @param previous the commit before, or null for the first
 */
public record CommitRecord(long version, long timeMs, Cid keyspace, Cid meta, long sequence,
    Cid previous) {
  static final String KIND = "kvasir/dag-commit/1";

  public Versionstamp versionstamp() {
    return Versionstamp.ofVersion(version);
  }

  public Instant time() {
    return Instant.ofEpochMilli(timeMs);
  }

  Block toBlock() {
    Map<String, Object> map = new LinkedHashMap<>();
    map.put("kind", KIND);
    map.put("version", version);
    map.put("versionstamp", versionstamp().toBytes());
    map.put("time", timeMs);
    map.put("keyspace", keyspace);
    map.put("meta", meta);
    map.put("sequence", sequence);
    map.put("previous", previous);
    return Block.of(Cid.DAG_CBOR, DagCbor.encode(map));
  }

  static CommitRecord of(Block block) {
    try {
      Map<?, ?> map = (Map<?, ?>) DagCbor.decode(block.bytes());
      if (!KIND.equals(map.get("kind"))) {
        throw new IllegalArgumentException("kind is " + map.get("kind"));
      }
      return new CommitRecord((Long) map.get("version"), (Long) map.get("time"),
          (Cid) map.get("keyspace"), (Cid) map.get("meta"), (Long) map.get("sequence"),
          (Cid) map.get("previous"));
    } catch (RuntimeException e) {
      throw new KvException("block " + block.cid() + " is not a KV/DAG commit record: " + e);
    }
  }
}
