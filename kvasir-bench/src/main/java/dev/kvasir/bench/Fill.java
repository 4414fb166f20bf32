package dev.kvasir.bench;

import dev.kvasir.AtomicOperation;
import dev.kvasir.Kv;
import dev.kvasir.KvKey;
import java.util.function.IntFunction;

/** Loading a database for a benchmark: many sets, committed in atomic batches. */
final class Fill {
  /** Sets per commit: large enough that the fsync per commit does not dominate. */
  static final int BATCH = 500;

  private Fill() {}

  /** Sets {@code key(i)} to {@code value(i)} for i in 0..n-1, in order, {@link #BATCH} a commit. */
  static void inBatches(Kv kv, int n, IntFunction<KvKey> key, IntFunction<Object> value) {
    AtomicOperation op = kv.atomic();
    for (int i = 0; i < n; i++) {
      op.set(key.apply(i), value.apply(i));
      if (i % BATCH == BATCH - 1) {
        op.commit();
        op = kv.atomic();
      }
    }
    op.commit();
  }
}
