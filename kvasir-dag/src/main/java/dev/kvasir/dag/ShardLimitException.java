package dev.kvasir.dag;

/**
 * A put would leave a shard above {@code maxShardSize} and no two of its keys share a prefix
 * to split it on. Nothing was written.
 */
public final class ShardLimitException extends DagException {
  private static final long serialVersionUID = 1L;

  ShardLimitException(int size, int max) {
    super("shard limit reached: the shard would be " + size + " bytes (max " + max
        + ") and no two of its keys share a prefix to split it on; use a larger maxShardSize");
  }
}
