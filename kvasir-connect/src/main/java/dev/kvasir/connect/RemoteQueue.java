package dev.kvasir.connect;

import com.google.protobuf.InvalidProtocolBufferException;
import dev.kvasir.base.KvException;
import dev.kvasir.connect.proto.QueueCancel;
import dev.kvasir.connect.proto.QueueFinish;
import dev.kvasir.connect.proto.QueueMessage;
import dev.kvasir.connect.proto.QueueNext;
import dev.kvasir.connect.proto.QueueRenew;
import dev.kvasir.connect.proto.QueueRenewOutput;
import dev.kvasir.spi.DequeuedMessage;
import dev.kvasir.value.EncodedValue;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Queue delivery through Kvasir's extension of KV Connect, the client's side (docs/kv-connect.md
 * §10): a long poll takes a message under a lease, the leases of messages being handled are
 * renewed a few times per lease, and the delivery's end is reported. A client that dies stops
 * renewing, and the server counts its deliveries as failed once their leases run out.
 */
final class RemoteQueue implements AutoCloseable {
  /** The metadata answer's header by which a Kvasir server offers the extension. */
  static final String OFFERED = "x-kvasir-queues";
  private static final Logger LOG = LoggerFactory.getLogger(RemoteQueue.class);
  /** The longest one poll waits; the server holds a poll at most 25 s. */
  private static final Duration LONGEST_POLL = Duration.ofSeconds(20);

  private final RemoteEngine engine;
  private final Set<String> held = ConcurrentHashMap.newKeySet();
  private final AtomicBoolean renewing = new AtomicBoolean();
  private final ScheduledExecutorService renewer = Executors.newSingleThreadScheduledExecutor(
      r -> {
        Thread t = new Thread(r, "kvasir-remote-queue-leases");
        t.setDaemon(true);
        return t;
      });

  RemoteQueue(RemoteEngine engine) {
    this.engine = engine;
  }

  /** Waits up to {@code timeout} for a message; null if none became due in time. */
  DequeuedMessage next(Duration timeout) throws InterruptedException {
    Duration wait = timeout.compareTo(LONGEST_POLL) > 0 ? LONGEST_POLL : timeout;
    String pollId = UUID.randomUUID().toString();
    Transport.Answer r;
    try {
      r = engine.post("kvasir/queue/next",
          QueueNext.newBuilder().setWaitMs(wait.toMillis()).setPollId(pollId).build(), wait);
    } catch (KvException e) {
      boolean interrupted = e.getCause() instanceof InterruptedException;
      if (interrupted) {
        Thread.interrupted(); // cleared for the cancellation's request; thrown below
      }
      cancel(pollId);
      if (interrupted) {
        throw new InterruptedException("interrupted while waiting for a queue message");
      }
      throw e;
    }
    if (r.status() == 204) {
      return null;
    }
    QueueMessage m;
    try {
      m = QueueMessage.parseFrom(r.body());
    } catch (InvalidProtocolBufferException e) {
      throw new RemoteException("KV Connect failed to decode a queue message: "
          + e.getMessage(), e);
    }
    held.add(m.getLeaseId());
    renewEvery(Duration.ofMillis(Math.max(300, m.getLeaseMs() / 3)));
    EncodedValue payload = EncodedValue.stored(m.getEncoding(), m.getPayload().toByteArray());
    return new Delivery(m.getLeaseId(), payload);
  }

  /**
   * Tells the server this client handles nothing the poll brings, so that a message it took
   * goes to the next poll instead of waiting for a lease to run out. Best effort: a server out
   * of reach fails the delivery when the lease runs out instead.
   */
  private void cancel(String pollId) {
    try {
      engine.post("kvasir/queue/cancel", QueueCancel.newBuilder().setPollId(pollId).build(),
          Duration.ZERO);
    } catch (KvException e) {
      LOG.debug("cannot cancel a queue poll: {}", e.getMessage());
    }
  }

  private void renewEvery(Duration interval) {
    if (renewing.compareAndSet(false, true)) {
      renewer.scheduleWithFixedDelay(this::renew, interval.toMillis(), interval.toMillis(),
          TimeUnit.MILLISECONDS);
    }
  }

  private void renew() {
    List<String> ids = List.copyOf(held);
    if (ids.isEmpty() || engine.isClosed()) {
      return;
    }
    try {
      Transport.Answer r = engine.post("kvasir/queue/renew",
          QueueRenew.newBuilder().addAllLeaseIds(ids).build(), Duration.ZERO);
      List<String> lost = QueueRenewOutput.parseFrom(r.body()).getLostLeaseIdsList();
      if (!lost.isEmpty()) {
        held.removeAll(lost);
        LOG.warn("The server no longer holds {} queue messages this client is handling; they"
            + " are delivered again", lost.size());
      }
    } catch (RuntimeException | InvalidProtocolBufferException e) {
      // Any exception thrown out of this scheduled task would end the renewals for good.
      LOG.warn("Cannot renew the leases of {} queue messages; a lease that runs out lets its"
          + " message be delivered again: {}", ids.size(), e.getMessage());
    }
  }

  @Override
  public void close() {
    renewer.shutdownNow();
  }

  private final class Delivery implements DequeuedMessage {
    private final String leaseId;
    private final EncodedValue payload;
    private final AtomicBoolean finished = new AtomicBoolean();

    Delivery(String leaseId, EncodedValue payload) {
      this.leaseId = leaseId;
      this.payload = payload;
    }

    @Override
    public EncodedValue payload() {
      return payload;
    }

    @Override
    public void finish(boolean success) {
      end(QueueFinish.newBuilder().setLeaseId(leaseId).setSuccess(success).build(),
          success ? "handled" : "failed");
    }

    @Override
    public void release() {
      end(QueueFinish.newBuilder().setLeaseId(leaseId).setReleased(true).build(), "given back");
    }

    private void end(QueueFinish report, String outcome) {
      if (!finished.compareAndSet(false, true)) {
        throw new IllegalStateException("queue message already finished");
      }
      try {
        Transport.Answer r = engine.post("kvasir/queue/finish", report, Duration.ZERO);
        if (r.status() == 204) {
          LOG.warn("The server no longer held a queue message when its delivery ended ({}):"
              + " its lease ran out or the server restarted, so it is delivered again (or"
              + " dead-lettered, if its lease ran out on its last attempt)", outcome);
        }
      } finally {
        held.remove(leaseId);
      }
    }
  }
}
