package dev.kvasir.sqlite;

import dev.kvasir.Kv;
import dev.kvasir.KvEntry;
import dev.kvasir.KvKey;
import dev.kvasir.value.KvU64;

/**
 * A child process for the multi-process tests: {@code CasWorker <file> <counter> <n>} adds 1 to
 * the u64 at {@code ["counter", counter]} n times by check-and-set (read, check, write, retry on
 * conflict), then prints {@code done}.
 */
public final class CasWorker {
  private CasWorker() {}

  public static void main(String[] args) {
    KvKey key = KvKey.of("counter", args[1]);
    int n = Integer.parseInt(args[2]);
    try (Kv kv = Kv.open(args[0])) {
      increment(kv, key, n);
    }
    System.out.println("done");
  }

  static void increment(Kv kv, KvKey key, int n) {
    for (int i = 0; i < n; i++) {
      while (true) {
        KvEntry e = kv.get(key);
        long current = e.exists() ? ((KvU64) e.value()).unsignedBits() : 0;
        if (kv.atomic().check(e).set(key, KvU64.of(current + 1)).commit().ok()) {
          break;
        }
      }
    }
  }
}
