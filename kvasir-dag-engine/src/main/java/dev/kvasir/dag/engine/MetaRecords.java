package dev.kvasir.dag.engine;

import dev.kvasir.dag.cbor.DagCbor;
import dev.kvasir.dag.cid.Cid;
import dev.kvasir.dag.store.Block;
import dev.kvasir.engine.QueuedMessage;
import dev.kvasir.engine.Storage;
import dev.kvasir.spi.RawKey;
import dev.kvasir.value.EncodedValue;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The blocks of a database's second pail, beside the keyspace (docs/dag-engine.md §3): queue
 * messages, running leases and idempotency records, each a small DAG-CBOR map, and the pail
 * keys they are filed under.
 */
final class MetaRecords {
  /** Expiry index: {@code x} + 16 hex digits of the expiry + the keyspace pail key. */
  static final String EXPIRY = "x";
  /** Idempotency record by id: {@code c} + id. */
  static final String COMMIT = "c";
  /** Idempotency record by time: {@code t} + 16 hex digits of the time + id. */
  static final String COMMIT_TIME = "t";
  /** Waiting message by id: {@code w} + id. */
  static final String WAITING = "w";
  /** Waiting message by due time: {@code d} + 16 hex digits due + 16 of its sequence number. */
  static final String DUE = "d";
  /** Running message by id: {@code r} + id. */
  static final String RUNNING = "r";

  private MetaRecords() {}

  static String hex16(long n) {
    return String.format("%016x", n);
  }

  static long parseHex16(String s, int from) {
    return Long.parseUnsignedLong(s.substring(from, from + 16), 16);
  }

  static Block commitRecord(long version, long atMs) {
    Map<String, Object> map = new LinkedHashMap<>();
    map.put("version", version);
    map.put("at", atMs);
    return Block.of(Cid.DAG_CBOR, DagCbor.encode(map));
  }

  /** {version, at} of an idempotency record. */
  static long[] commitRecord(Block block) {
    Map<?, ?> map = (Map<?, ?>) DagCbor.decode(block.bytes());
    return new long[] {(Long) map.get("version"), (Long) map.get("at")};
  }

  static Block waiting(QueuedMessage message, long sequence) {
    Map<String, Object> map = message(message);
    map.put("sequence", sequence);
    return Block.of(Cid.DAG_CBOR, DagCbor.encode(map));
  }

  /** The sequence number of a waiting message's block. */
  static long sequence(Block block) {
    return (Long) ((Map<?, ?>) DagCbor.decode(block.bytes())).get("sequence");
  }

  static Block lease(Storage.Lease lease) {
    Map<String, Object> map = message(lease.message());
    map.put("leaseUntil", lease.untilMs());
    return Block.of(Cid.DAG_CBOR, DagCbor.encode(map));
  }

  static Storage.Lease lease(Block block) {
    Map<?, ?> map = (Map<?, ?>) DagCbor.decode(block.bytes());
    return new Storage.Lease(message(map), (Long) map.get("leaseUntil"));
  }

  static QueuedMessage message(Block block) {
    return message((Map<?, ?>) DagCbor.decode(block.bytes()));
  }

  private static Map<String, Object> message(QueuedMessage m) {
    Map<String, Object> map = new LinkedHashMap<>();
    map.put("id", m.id());
    map.put("due", m.dueMs());
    map.put("encoding", (long) m.payload().code());
    map.put("payload", m.payload().sharedBytes());
    map.put("backoff", m.backoff().stream().map(Integer::longValue).toList());
    map.put("keysIfUndelivered", m.keysIfUndelivered().stream().map(RawKey::bytes).toList());
    return map;
  }

  private static QueuedMessage message(Map<?, ?> map) {
    List<Integer> backoff = new ArrayList<>();
    for (Object b : (List<?>) map.get("backoff")) {
      backoff.add(((Long) b).intValue());
    }
    List<RawKey> keys = new ArrayList<>();
    for (Object k : (List<?>) map.get("keysIfUndelivered")) {
      keys.add(RawKey.wrap((byte[]) k));
    }
    return new QueuedMessage((String) map.get("id"), (Long) map.get("due"),
        EncodedValue.stored(((Long) map.get("encoding")).intValue(),
            (byte[]) map.get("payload")), backoff, keys);
  }
}
