package dev.kvasir.sqlite;

import dev.kvasir.Kv;
import dev.kvasir.KvKey;
import java.time.Duration;
import java.util.Map;

/**
 * A child process for the cross-process tests: writes, then exits.
 *
 * <ul>
 *   <li>{@code ChildWriter <file> sets <n> <pauseMs>}: sets {@code ["w"]} to {@code {i,
 *       sentAt}} n times (sentAt in epoch ms, so the watcher can tell the delay);
 *   <li>{@code ChildWriter <file> expiring <ms>}: sets {@code ["e"]} to expire in ms;
 *   <li>{@code ChildWriter <file> enqueue <text>}: enqueues the text.
 * </ul>
 */
public final class ChildWriter {
  private ChildWriter() {}

  public static void main(String[] args) throws Exception {
    try (Kv kv = Kv.open(args[0])) {
      if (args[1].equals("enqueue")) {
        kv.enqueue(args[2]);
        return;
      }
      if (args[1].equals("expiring")) {
        kv.set(KvKey.of("e"), "soon gone", Duration.ofMillis(Long.parseLong(args[2])));
        return;
      }
      int n = Integer.parseInt(args[2]);
      long pause = Long.parseLong(args[3]);
      for (int i = 0; i < n; i++) {
        Thread.sleep(pause);
        kv.set(KvKey.of("w"), Map.of("i", (double) i, "sentAt", (double) System.currentTimeMillis()));
      }
    }
  }
}
