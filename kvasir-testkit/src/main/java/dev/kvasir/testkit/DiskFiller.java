package dev.kvasir.testkit;

import dev.kvasir.Kv;
import dev.kvasir.KvKey;
import dev.kvasir.ListSelector;
import dev.kvasir.base.KvUnavailableException;
import java.util.Random;

/**
 * Fills a small disk ({@link SmallTmpfs}) through the API, the same way for every engine's
 * full-disk test: one commit at a time of {@link #VALUE_BYTES} random bytes under {@code ["big",
 * i]}, until a commit fails as unavailable.
 */
public final class DiskFiller {
  /** Nearly the largest value Deno allows, so that a few commits fill a disk of 2 MiB. */
  public static final int VALUE_BYTES = 60_000;

  private DiskFiller() {}

  /**
   * What filling did: how many commits were acknowledged, and the failure that stopped it (null
   * if 100 commits all went through).
   */
  public record Filled(int acknowledged, KvUnavailableException failure) {}

  public static Filled fill(Kv kv) {
    Random random = new Random(7);
    int acknowledged = 0;
    for (int i = 0; i < 100; i++) {
      byte[] value = new byte[VALUE_BYTES];
      random.nextBytes(value);
      try {
        kv.set(KvKey.of("big", i), value);
        acknowledged++;
      } catch (KvUnavailableException e) {
        return new Filled(acknowledged, e);
      }
    }
    return new Filled(acknowledged, null);
  }

  /** How many of the {@code ["big", …]} entries {@link #fill} writes the database holds. */
  public static int entries(Kv kv) {
    int n = 0;
    for (var ignored : kv.list(ListSelector.prefix(KvKey.of("big")))) {
      n++;
    }
    return n;
  }
}
