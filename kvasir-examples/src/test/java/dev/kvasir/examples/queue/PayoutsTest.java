package dev.kvasir.examples.queue;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kvasir.Kv;
import dev.kvasir.QueueListener;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(60)
class PayoutsTest {
  @TempDir
  Path dir;

  @Test
  void twoWorkers_makeEveryPayoutOnce() throws Exception {
    try (Kv kv = Kv.open(dir.resolve("app.sqlite3").toString())) {
      Payouts payouts = new Payouts(kv);
      List<String> ids = new ArrayList<>();
      for (int i = 0; i < 20; i++) {
        ids.add(payouts.submit(i % 2 == 0 ? "alice" : "bob", 100));
      }
      try (QueueListener a = kv.listenQueue(payouts::handle);
          QueueListener b = kv.listenQueue(payouts::handle)) {
        await(() -> ids.stream().allMatch(payouts::isDone));
      }
      assertThat(payouts.balance("alice")).isEqualTo(1_000);
      assertThat(payouts.balance("bob")).isEqualTo(1_000);
    }
  }

  @Test
  void aPayoutDeliveredAgain_isNotMadeTwice() throws Exception {
    try (Kv kv = Kv.open(dir.resolve("app.sqlite3").toString())) {
      Payouts payouts = new Payouts(kv);
      Map<String, Object> message = Map.of("id", "p1", "account", "alice", "cents", 250);
      payouts.handle(message);
      payouts.handle(message); // as after a worker died before reporting the delivery
      assertThat(payouts.balance("alice")).isEqualTo(250);
    }
  }

  @Test
  void aPayoutThatFailsEveryAttempt_isKeptForAPerson() throws Exception {
    try (Kv kv = Kv.open(dir.resolve("app.sqlite3").toString())) {
      Payouts payouts = new Payouts(kv);
      String id = payouts.submit("", 100); // no account: every attempt throws
      try (QueueListener worker = kv.listenQueue(payouts::handle)) {
        await(() -> payouts.failure(id) != null);
      }
      assertThat(payouts.failure(id)).isEqualTo(Map.of("id", id, "account", "", "cents", 100.0));
      assertThat(payouts.isDone(id)).isFalse();
    }
  }

  @Test
  void theWorkersWait_endsWhenTheDatabaseCloses() throws Exception {
    Kv kv = Kv.open(dir.resolve("app.sqlite3").toString());
    QueueListener worker = kv.listenQueue(new Payouts(kv)::handle);
    Thread main = new Thread(() -> {
      try {
        worker.awaitTermination();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    });
    main.start();
    main.join(200);
    assertThat(main.isAlive()).as("waiting while the worker runs").isTrue();
    kv.close(); // what PayoutWorker's shutdown hook does on SIGTERM
    main.join(10_000);
    assertThat(main.isAlive()).isFalse();
  }

  private static void await(BooleanSupplier condition) throws InterruptedException {
    while (!condition.getAsBoolean()) {
      Thread.sleep(20);
    }
  }
}
