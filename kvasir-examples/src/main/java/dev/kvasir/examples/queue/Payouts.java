package dev.kvasir.examples.queue;

import dev.kvasir.EnqueueOptions;
import dev.kvasir.Kv;
import dev.kvasir.KvEntry;
import dev.kvasir.KvKey;
import dev.kvasir.value.KvU64;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Payouts done by queue workers. A queue delivers each message at least once: a worker that
 * dies after its change is committed but before the delivery is reported gets the message
 * again. So each payout carries an id, and its handler commits the change together with a
 * "done" marker, checking in the same atomic write that the marker is absent: a second
 * delivery finds it and changes nothing. A payout that fails every attempt is written under
 * {@code ["payouts", "failed", id]} for a person to look at.
 */
public final class Payouts {
  /** Retries after 0.1 s, 1 s and 5 s, then the payout counts as failed. */
  private static final List<Integer> RETRIES_MS = List.of(100, 1_000, 5_000);

  private final Kv kv;

  public Payouts(Kv kv) {
    this.kv = kv;
  }

  /** Queues paying {@code cents} to {@code account}; returns the payout's id. */
  public String submit(String account, long cents) {
    String id = UUID.randomUUID().toString();
    kv.enqueue(Map.of("id", id, "account", account, "cents", cents), EnqueueOptions.defaults()
        .backoffSchedule(RETRIES_MS).keysIfUndelivered(List.of(failed(id))));
    return id;
  }

  /**
   * Handles one delivered payout: {@code kv.listenQueue(payouts::handle)}. Throwing makes the
   * queue retry it.
   */
  public void handle(Object message) {
    Map<?, ?> payout = (Map<?, ?>) message;
    String id = (String) payout.get("id");
    String account = (String) payout.get("account");
    long cents = ((Number) payout.get("cents")).longValue(); // a JS number: a Double here
    if (account.isBlank() || cents <= 0) {
      throw new IllegalArgumentException("payout " + id + " cannot be made: " + payout);
    }
    KvEntry marker = kv.get(done(id));
    if (marker.versionstamp() != null) {
      return; // delivered again after it was made
    }
    // If another worker makes it meanwhile, the check fails and nothing is paid twice.
    kv.atomic().check(marker).sum(balanceKey(account), cents).set(done(id), true).commit();
  }

  /** The cents paid to {@code account} so far. */
  public long balance(String account) {
    KvU64 cents = kv.get(balanceKey(account)).value(KvU64.class);
    return cents == null ? 0 : cents.unsignedBits();
  }

  /** Whether the payout {@code id} was made. */
  public boolean isDone(String id) {
    return kv.get(done(id)).versionstamp() != null;
  }

  /** The payout {@code id} as it was queued, if it failed every attempt; else null. */
  public Object failure(String id) {
    return kv.get(failed(id)).value();
  }

  static KvKey done(String id) {
    return KvKey.of("payouts", "done", id);
  }

  static KvKey failed(String id) {
    return KvKey.of("payouts", "failed", id);
  }

  private static KvKey balanceKey(String account) {
    return KvKey.of("balances", account);
  }

}
