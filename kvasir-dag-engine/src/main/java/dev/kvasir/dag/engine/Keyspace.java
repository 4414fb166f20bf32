package dev.kvasir.dag.engine;

import dev.kvasir.base.Hex;
import dev.kvasir.base.KvArgumentException;
import dev.kvasir.base.KvCorruptEntryException;
import dev.kvasir.base.KvException;
import dev.kvasir.base.Versionstamp;
import dev.kvasir.dag.cbor.DagCbor;
import dev.kvasir.dag.cid.Cid;
import dev.kvasir.dag.store.Block;
import dev.kvasir.engine.Expiry;
import dev.kvasir.engine.Storage;
import dev.kvasir.spi.RawKey;
import dev.kvasir.value.EncodedValue;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * How a Deno keyspace is a pail (docs/dag-keyspace.md §1-§2): the pail key is the lowercase hex
 * of the key's bytes, so pail order is Deno key order and a key prefix is a text prefix; the
 * value is the CID of a DAG-CBOR entry block holding the value's encoding and bytes, the
 * versionstamp and the expiry.
 */
public final class Keyspace {
  private Keyspace() {}

  /** The pail key of {@code key}. */
  public static String pailKey(RawKey key) {
    return Hex.encode(key.sharedBytes());
  }

  /** The key whose pail key is {@code pailKey}. */
  public static RawKey rawKey(String pailKey) {
    try {
      return RawKey.wrap(Hex.decode(pailKey));
    } catch (KvArgumentException e) {
      throw new KvException("the keyspace pail holds \"" + pailKey + "\", which is not the"
          + " hex of a key: " + e.getMessage());
    }
  }

  /** The entry block of a row. */
  public static Block entryBlock(EncodedValue value, long version, long expireAtMs) {
    Map<String, Object> map = new LinkedHashMap<>();
    map.put("encoding", (long) value.code());
    map.put("value", value.sharedBytes());
    map.put("versionstamp", Versionstamp.ofVersion(version).toBytes());
    if (expireAtMs != Expiry.NEVER) {
      map.put("expiresAt", expireAtMs);
    }
    return Block.of(Cid.DAG_CBOR, DagCbor.encode(map));
  }

  /** The row a keyspace entry block holds. */
  public static Storage.Row row(RawKey key, Block block) {
    try {
      Map<?, ?> map = (Map<?, ?>) DagCbor.decode(block.bytes());
      long code = (Long) map.get("encoding");
      byte[] value = (byte[]) map.get("value");
      byte[] stamp = (byte[]) map.get("versionstamp");
      Object expires = map.get("expiresAt");
      return new Storage.Row(key, EncodedValue.stored((int) code, value),
          Versionstamp.of(stamp).version(), expires == null ? Expiry.NEVER : (Long) expires);
    } catch (RuntimeException e) {
      throw new KvCorruptEntryException(key.bytes(), null, "entry block " + block.cid()
          + " is not {encoding, value, versionstamp, expiresAt?}: " + e);
    }
  }
}
