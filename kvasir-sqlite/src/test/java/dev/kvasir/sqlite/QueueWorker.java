package dev.kvasir.sqlite;

import dev.kvasir.Kv;
import dev.kvasir.KvKey;
import dev.kvasir.QueueListener;

/**
 * A child process for the cross-process queue tests: {@code QueueWorker <file> <name> <mode>}
 * listens to the file's queue until killed. Each message is a number {@code id}.
 *
 * <ul>
 *   <li>{@code handle}: adds 1 to {@code ["handled", id]} and records {@code ["by", id] = name}
 *       in one commit, after a short pause so that several workers overlap;
 *   <li>{@code hang}: records {@code ["started", id] = name}, then never returns (the test kills
 *       the process mid-handler).
 * </ul>
 *
 * Prints {@code listening} once the listener runs.
 */
public final class QueueWorker {
  private QueueWorker() {}

  public static void main(String[] args) throws Exception {
    String name = args[1];
    boolean hang = args[2].equals("hang");
    try (Kv kv = Kv.open(args[0]);
        QueueListener listener = kv.listenQueue(message -> {
          double id = (Double) message;
          if (hang) {
            kv.set(KvKey.of("started", id), name);
            Thread.sleep(Long.MAX_VALUE);
          }
          Thread.sleep(5);
          kv.atomic().sum(KvKey.of("handled", id), 1).set(KvKey.of("by", id), name).commit();
        })) {
      System.out.println("listening");
      System.out.flush();
      Thread.sleep(Long.MAX_VALUE);
    }
  }
}
