package dev.kvasir.dag;

/**
 * The limits of a pail ({@code docs/pail.md} §1.1, §1.6): a shard whose
 * DAG-CBOR encoding exceeds {@code maxShardSize} bytes after a put is split; a shard key longer
 * than {@code maxKeyLength} UTF-16 code units is chained through single-entry shards.
 *
 * <p>The limits are not stored in the blocks (pail 0.3.x format), so every writer of one pail
 * should use the same values to get the same roots as the JavaScript reference.
 *
 * <p>{@code oneSplitPerPut} reproduces pail 0.3.4's sharding exactly ({@code docs/pail.md}
 * §4, E6): one split per put, and neither the split shard nor the new child is checked again, so a
 * shard may stay above the limit until a later put splits it. Off by default: then a put
 * splits until every shard it touched fits, as the spec requires. The two give the same roots
 * until a single split is not enough; use the reference mode to share roots with JavaScript
 * pails written under small limits or near-full shards.
 */
public record PailOptions(int maxShardSize, int maxKeyLength, boolean oneSplitPerPut) {
  public static final int DEFAULT_MAX_SHARD_SIZE = 512 * 1024;
  public static final int DEFAULT_MAX_KEY_LENGTH = 64;

  public PailOptions {
    if (maxShardSize < 1) {
      throw new IllegalArgumentException("maxShardSize must be positive, not " + maxShardSize);
    }
    if (maxKeyLength < 2) {
      // One unit could not hold a surrogate pair, and chunking would never make progress.
      throw new IllegalArgumentException("maxKeyLength must be at least 2, not " + maxKeyLength);
    }
  }

  public static PailOptions defaults() {
    return new PailOptions(DEFAULT_MAX_SHARD_SIZE, DEFAULT_MAX_KEY_LENGTH, false);
  }

  public PailOptions withMaxShardSize(int bytes) {
    return new PailOptions(bytes, maxKeyLength, oneSplitPerPut);
  }

  public PailOptions withMaxKeyLength(int units) {
    return new PailOptions(maxShardSize, units, oneSplitPerPut);
  }

  public PailOptions withOneSplitPerPut(boolean one) {
    return new PailOptions(maxShardSize, maxKeyLength, one);
  }
}
