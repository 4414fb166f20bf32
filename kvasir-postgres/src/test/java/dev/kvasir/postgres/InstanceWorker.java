package dev.kvasir.postgres;

import dev.kvasir.Kv;
import dev.kvasir.KvEntry;
import dev.kvasir.KvKey;
import dev.kvasir.QueueListener;
import dev.kvasir.WatchStream;
import dev.kvasir.value.KvU64;
import java.util.List;

/**
 * One Kvasir instance in a JVM of its own, for {@link PostgresMultiInstanceIT}. The first
 * argument is the database URL (with its schema), the second the instance's name, then:
 *
 * <ul>
 *   <li>{@code cas <n> <peers…>}: adds 1 to the u64 at {@code ["counter"]} n times by
 *       check-and-set, sets {@code ["done", name]}, then watches until every peer's done key
 *       exists and prints {@code saw <peers>};
 *   <li>{@code queue}: handles queue messages until killed; each message {@code i} sets {@code
 *       ["handled", i]} to the instance's name.
 * </ul>
 */
public final class InstanceWorker {
  private InstanceWorker() {}

  public static void main(String[] args) throws Exception {
    String url = args[0];
    String name = args[1];
    try (Kv kv = Kv.open(url)) {
      if (args[2].equals("cas")) {
        casThenWatch(kv, name, Integer.parseInt(args[3]), List.of(args).subList(4, args.length));
      } else {
        handleQueue(kv, name);
      }
    }
  }

  private static void casThenWatch(Kv kv, String name, int n, List<String> peers)
      throws Exception {
    KvKey counter = KvKey.of("counter");
    for (int i = 0; i < n; i++) {
      while (true) {
        KvEntry e = kv.get(counter);
        long current = e.exists() ? ((KvU64) e.value()).unsignedBits() : 0;
        if (kv.atomic().check(e).set(counter, KvU64.of(current + 1)).commit().ok()) {
          break;
        }
      }
    }
    kv.set(KvKey.of("done", name), true);
    System.out.println("counted");
    List<KvKey> keys = peers.stream().map(p -> KvKey.of("done", p)).toList();
    try (WatchStream watch = kv.watch(keys)) {
      for (List<KvEntry> state : watch) {
        if (state.stream().allMatch(KvEntry::exists)) {
          System.out.println("saw " + String.join(" ", peers));
          return;
        }
      }
    }
  }

  private static void handleQueue(Kv kv, String name) throws Exception {
    try (QueueListener listener = kv.listenQueue(message -> {
      Thread.sleep(20); // a handler that takes a while, so a kill catches one mid-way
      kv.set(KvKey.of("handled", ((Number) message).longValue()), name);
    })) {
      System.out.println("listening");
      Thread.sleep(Long.MAX_VALUE);
    }
  }
}
