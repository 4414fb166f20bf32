package dev.kvasir.dag;

import dev.kvasir.dag.cbor.Cbor;
import dev.kvasir.dag.cid.Cid;
import java.io.ByteArrayOutputStream;
import java.util.Objects;

/**
 * One {@code [key, value]} entry of a shard ({@code docs/pail.md} §1.2). The
 * value is user data (a CID), a link to a sub-shard, or both ({@code [link, data]}).
 *
 * <p>Immutable. The entry's DAG-CBOR bytes are computed once, so re-encoding a large shard
 * after one change copies bytes instead of re-encoding thousands of entries.
 */
public final class ShardEntry {
  private final String key;
  private final Cid link;
  private final Cid data;
  private volatile byte[] encoded; // computed once, published safely to other threads

  private ShardEntry(String key, Cid link, Cid data) {
    this.key = Objects.requireNonNull(key, "key");
    this.link = link;
    this.data = data;
  }

  static ShardEntry data(String key, Cid data) {
    return new ShardEntry(key, null, Objects.requireNonNull(data, "data"));
  }

  /** A link entry; {@code data} may be null. */
  static ShardEntry link(String key, Cid link, Cid data) {
    return new ShardEntry(key, Objects.requireNonNull(link, "link"), data);
  }

  /** The key within its shard (the shard's prefix is not part of it). */
  public String key() {
    return key;
  }

  /** The sub-shard this entry links to, or null for plain user data. */
  public Cid link() {
    return link;
  }

  /** The user data stored under this key, or null for a link without data. */
  public Cid data() {
    return data;
  }

  public boolean isLink() {
    return link != null;
  }

  ShardEntry withKey(String newKey) {
    return new ShardEntry(newKey, link, data);
  }

  ShardEntry withLink(Cid newLink) {
    return new ShardEntry(key, newLink, data);
  }

  ShardEntry withData(Cid newData) {
    return new ShardEntry(key, link, newData);
  }

  /** The DAG-CBOR encoding of {@code [key, value]}; the returned array must not be changed. */
  byte[] encoded() {
    byte[] e = encoded;
    if (e == null) {
      ByteArrayOutputStream out = new ByteArrayOutputStream(key.length() + 90);
      Cbor.head(out, Cbor.ARRAY, 2);
      Cbor.text(out, key);
      if (link == null) {
        Cbor.link(out, data);
      } else {
        Cbor.head(out, Cbor.ARRAY, data == null ? 1 : 2);
        Cbor.link(out, link);
        if (data != null) {
          Cbor.link(out, data);
        }
      }
      e = out.toByteArray();
      encoded = e;
    }
    return e;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ShardEntry && key.equals(((ShardEntry) o).key)
        && Objects.equals(link, ((ShardEntry) o).link)
        && Objects.equals(data, ((ShardEntry) o).data);
  }

  @Override
  public int hashCode() {
    return Objects.hash(key, link, data);
  }

  @Override
  public String toString() {
    return link == null ? key + " → " + data
        : key + " → [" + link + (data == null ? "" : ", " + data) + "]";
  }
}
