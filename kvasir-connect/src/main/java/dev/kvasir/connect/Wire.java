package dev.kvasir.connect;

import com.google.protobuf.ByteString;
import com.google.protobuf.UnsafeByteOperations;
import dev.kvasir.KvKey;
import dev.kvasir.Limits;
import dev.kvasir.base.KvCorruptEntryException;
import dev.kvasir.base.KvDecodeException;
import dev.kvasir.base.Versionstamp;
import dev.kvasir.connect.proto.AtomicWriteOutput;
import dev.kvasir.connect.proto.AtomicWriteStatus;
import dev.kvasir.connect.proto.KvValue;
import dev.kvasir.connect.proto.MutationType;
import dev.kvasir.connect.proto.ReadRangeOutput;
import dev.kvasir.connect.proto.SnapshotRead;
import dev.kvasir.connect.proto.SnapshotReadOutput;
import dev.kvasir.connect.proto.SnapshotReadStatus;
import dev.kvasir.connect.proto.Watch;
import dev.kvasir.connect.proto.WatchKey;
import dev.kvasir.connect.proto.WatchKeyOutput;
import dev.kvasir.connect.proto.WatchOutput;
import dev.kvasir.key.KeyCodec;
import dev.kvasir.spi.AtomicWrite;
import dev.kvasir.spi.Check;
import dev.kvasir.spi.Enqueue;
import dev.kvasir.spi.Mutation;
import dev.kvasir.spi.RawEntry;
import dev.kvasir.spi.RawKey;
import dev.kvasir.spi.ReadRange;
import dev.kvasir.value.EncodedValue;
import dev.kvasir.value.V8;
import dev.kvasir.value.ValueEncoding;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Every conversion between KV Connect's protobuf messages (docs/kv-connect.md §4) and the
 * engine SPI, in both directions. Requests a server decodes are checked against the limits
 * here (§9.8, with denokv's messages), so a bad request is refused before any engine sees it.
 * Deviation: up to {@link Limits#MAX_CHECKS} (100) checks per write are accepted, as Deno's
 * local backend does, where denokv allows 10: a remote Kvasir database behaves as an embedded
 * one.
 */
// Its protobuf-typed methods are for dev.kvasir.server, the one module the generated messages
// are exported to (module-info.java).
@SuppressWarnings("exports")
public final class Wire {
  /** denokv's server allows more intervals than Deno's local backend (§5). */
  static final int MAX_SERVER_BACKOFF_INTERVALS = 10;
  static final int MAX_SERVER_DEAD_LETTER_KEYS = 10;
  /**
   * Kvasir's own request header on an atomic write: its idempotency key ({@link
   * AtomicWrite#idempotencyKey}), the same on every retry, so that a Kvasir server applies the
   * write at most once. Deno's and Node's clients do not send it.
   */
  public static final String IDEMPOTENCY_KEY_HEADER = "x-kvasir-idempotency-key";

  private Wire() {}

  // ---- snapshot reads ----

  /** The request a client sends for these ranges. */
  public static SnapshotRead snapshotRead(List<ReadRange> ranges) {
    SnapshotRead.Builder b = SnapshotRead.newBuilder();
    for (ReadRange r : ranges) {
      b.addRanges(dev.kvasir.connect.proto.ReadRange.newBuilder()
          .setStart(bytes(r.start())).setEnd(bytes(r.end())).setLimit(r.limit())
          .setReverse(r.reverse()));
    }
    return b.build();
  }

  /** The ranges of a request a server received, checked. */
  public static List<ReadRange> readRanges(SnapshotRead read) {
    if (read.getRangesCount() > Limits.MAX_READ_RANGES) {
      throw new BadRequestException("Too many read ranges requested in one read request.");
    }
    List<ReadRange> out = new ArrayList<>(read.getRangesCount());
    for (dev.kvasir.connect.proto.ReadRange r : read.getRangesList()) {
      if (r.getLimit() <= 0) {
        throw new BadRequestException(
            "The read range limit of the snapshot read request is invalid.");
      }
      out.add(new ReadRange(readKey(r.getStart()), readKey(r.getEnd()), r.getLimit(),
          r.getReverse()));
    }
    if (ReadRange.entriesAsked(out) > Limits.MAX_READ_ENTRIES) {
      throw new BadRequestException("The total number of entries requested across read ranges"
          + " in the read request is too large.");
    }
    return out;
  }

  /** The answer a server sends; always strongly consistent (§9.6). */
  public static SnapshotReadOutput snapshotReadOutput(List<List<RawEntry>> ranges) {
    SnapshotReadOutput.Builder b = SnapshotReadOutput.newBuilder()
        .setStatus(SnapshotReadStatus.SR_SUCCESS).setReadIsStronglyConsistent(true);
    for (List<RawEntry> range : ranges) {
      ReadRangeOutput.Builder r = ReadRangeOutput.newBuilder();
      range.forEach(e -> r.addValues(entry(e)));
      b.addRanges(r);
    }
    return b.build();
  }

  /** The entries of a server's answer, as a client reads them. */
  public static List<List<RawEntry>> entries(SnapshotReadOutput output, boolean strong) {
    readStatus(output.getStatus(), output.getReadDisabled());
    if (strong && !output.getReadIsStronglyConsistent()) {
      throw new RemoteException("Strong consistency reads are not available for this database");
    }
    List<List<RawEntry>> out = new ArrayList<>(output.getRangesCount());
    for (ReadRangeOutput r : output.getRangesList()) {
      List<RawEntry> range = new ArrayList<>(r.getValuesCount());
      r.getValuesList().forEach(e -> range.add(entry(e)));
      out.add(range);
    }
    return out;
  }

  private static void readStatus(SnapshotReadStatus status, boolean readDisabled) {
    if (status == SnapshotReadStatus.SR_READ_DISABLED || readDisabled) {
      throw new RemoteException("Reads are disabled for this database");
    }
    if (status != SnapshotReadStatus.SR_SUCCESS) {
      throw new RemoteException("Unspecified read error (code=" + status.getNumber() + ")");
    }
  }

  // ---- atomic writes ----

  /** The request a client sends for this write. */
  public static dev.kvasir.connect.proto.AtomicWrite atomicWrite(AtomicWrite write) {
    var b = dev.kvasir.connect.proto.AtomicWrite.newBuilder();
    for (Check c : write.checks()) {
      b.addChecks(dev.kvasir.connect.proto.Check.newBuilder().setKey(bytes(c.key()))
          .setVersionstamp(c.versionstamp() == null ? ByteString.EMPTY
              : ByteString.copyFrom(c.versionstamp().toBytes())));
    }
    for (Mutation m : write.mutations()) {
      b.addMutations(mutation(m));
    }
    for (Enqueue e : write.enqueues()) {
      var q = dev.kvasir.connect.proto.Enqueue.newBuilder()
          .setPayload(shared(e.payload()))
          .setDeadlineMs(e.deadline().toEpochMilli());
      e.keysIfUndelivered().forEach(k -> q.addKeysIfUndelivered(bytes(k)));
      e.effectiveBackoff().forEach(q::addBackoffSchedule);
      q.setKvasirNoRetries(e.effectiveBackoff().isEmpty());
      b.addEnqueues(q);
    }
    return b.build();
  }

  private static dev.kvasir.connect.proto.Mutation mutation(Mutation m) {
    var b = dev.kvasir.connect.proto.Mutation.newBuilder().setKey(bytes(m.key()))
        .setMutationType(switch (m.kind()) {
          case SET -> MutationType.M_SET;
          case SET_VERSIONSTAMPED_KEY -> MutationType.M_SET_SUFFIX_VERSIONSTAMPED_KEY;
          case DELETE -> MutationType.M_DELETE;
          case SUM -> MutationType.M_SUM;
          case MIN -> MutationType.M_MIN;
          case MAX -> MutationType.M_MAX;
        });
    if (m.value() != null) {
      b.setValue(value(m.value()));
    } else {
      // A delete, as Deno sends it (§9.3): an empty bytes value.
      b.setValue(KvValue.newBuilder().setEncoding(dev.kvasir.connect.proto.ValueEncoding.VE_BYTES));
    }
    expiry(b, m.expireAt());
    return b.build();
  }

  private static void expiry(dev.kvasir.connect.proto.Mutation.Builder b, Instant expireAt) {
    if (expireAt != null) {
      b.setExpireAtMs(Math.max(1, expireAt.toEpochMilli()));
    }
  }

  /**
   * The write of a request a server received, checked against the limits.
   *
   * @throws BadRequestException for an invalid field
   * @throws dev.kvasir.base.KvLimitException for a write beyond Deno's limits (§7)
   */
  public static AtomicWrite atomicWrite(dev.kvasir.connect.proto.AtomicWrite write) {
    if (write.getChecksCount() > Limits.MAX_CHECKS) {
      throw new BadRequestException("Too many checks included in atomic write.");
    }
    if (write.getMutationsCount() + write.getEnqueuesCount() > Limits.MAX_MUTATIONS) {
      throw new BadRequestException("Too many mutations / enqueues included in atomic write.");
    }
    List<Check> checks = new ArrayList<>();
    for (var c : write.getChecksList()) {
      checks.add(new Check(writeKey(c.getKey()), versionstamp(c.getVersionstamp())));
    }
    List<Mutation> mutations = new ArrayList<>();
    for (var m : write.getMutationsList()) {
      mutations.add(mutation(m));
    }
    List<Enqueue> enqueues = new ArrayList<>();
    for (var e : write.getEnqueuesList()) {
      enqueues.add(enqueue(e));
    }
    AtomicWrite out = new AtomicWrite(checks, mutations, enqueues);
    Limits.checkAtomicWrite(out);
    return out;
  }

  private static Versionstamp versionstamp(ByteString bytes) {
    if (bytes.isEmpty()) {
      return null;
    }
    if (bytes.size() != Versionstamp.LENGTH) {
      throw new BadRequestException("Invalid versionstamp.");
    }
    return Versionstamp.of(bytes.toByteArray());
  }

  private static Mutation mutation(dev.kvasir.connect.proto.Mutation m) {
    RawKey key = writeKey(m.getKey());
    Instant expireAt = expireAt(m.getExpireAtMs());
    if (!m.getSumMin().isEmpty() || !m.getSumMax().isEmpty() || m.getSumClamp()) {
      throw new BadRequestException("Invalid mutation kind or arguments."
          + " (sum_min, sum_max and sum_clamp are not supported)");
    }
    switch (m.getMutationType()) {
      case M_SET:
        return new Mutation.Set(key, value(m.getValue()), expireAt);
      case M_SET_SUFFIX_VERSIONSTAMPED_KEY:
        return new Mutation.SetVersionstampedKey(key, value(m.getValue()), expireAt);
      case M_DELETE:
        return new Mutation.Delete(key);
      case M_SUM:
        return new Mutation.Sum(key, value(m.getValue()));
      case M_MIN:
        return new Mutation.Min(key, value(m.getValue()));
      case M_MAX:
        return new Mutation.Max(key, value(m.getValue()));
      default:
        throw new BadRequestException("Invalid mutation kind or arguments.");
    }
  }

  private static Instant expireAt(long ms) {
    if (ms == 0 || ms == -1) {
      return null;
    }
    if (ms < 0) {
      throw new BadRequestException("Invalid mutation expire at.");
    }
    return Instant.ofEpochMilli(ms);
  }

  private static Enqueue enqueue(dev.kvasir.connect.proto.Enqueue e) {
    if (e.getPayload().size() > Limits.MAX_PAYLOAD_BYTES) {
      throw new BadRequestException("A value exceeds the value size limit.");
    }
    long now = System.currentTimeMillis();
    if (e.getDeadlineMs() < 0 || e.getDeadlineMs() - now > Limits.MAX_DELAY.toMillis()) {
      throw new BadRequestException("Invalid mutation enqueue deadline.");
    }
    if (e.getKeysIfUndeliveredCount() > MAX_SERVER_DEAD_LETTER_KEYS) {
      throw new BadRequestException("Too many dead letter keys for a single queue message.");
    }
    if (e.getBackoffScheduleCount() > MAX_SERVER_BACKOFF_INTERVALS) {
      throw new BadRequestException("Too many backoff intervals for a single queue message.");
    }
    List<Integer> backoff = new ArrayList<>();
    for (int interval : e.getBackoffScheduleList()) {
      if (Integer.toUnsignedLong(interval) > Limits.MAX_BACKOFF_INTERVAL.toMillis()) {
        throw new BadRequestException(
            "A backoff interval exceeds the maximum allowed backoff interval.");
      }
      backoff.add(interval);
    }
    List<RawKey> keys = new ArrayList<>();
    e.getKeysIfUndeliveredList().forEach(k -> keys.add(writeKey(k)));
    byte[] payloadBytes = e.getPayload().toByteArray();
    checkDecodes(ValueEncoding.V8, payloadBytes, "A queue payload");
    EncodedValue payload = EncodedValue.wrap(ValueEncoding.V8, payloadBytes);
    // An empty schedule means the default on the wire (§8), unless Kvasir's client says it
    // means no retry (§10).
    return new Enqueue(payload, Instant.ofEpochMilli(e.getDeadlineMs()), keys,
        backoff.isEmpty() && !e.getKvasirNoRetries() ? null : backoff);
  }

  /** The answer a server sends: the versionstamp, or a failed check. */
  public static AtomicWriteOutput atomicWriteOutput(Optional<Versionstamp> committed) {
    return committed
        .map(v -> AtomicWriteOutput.newBuilder().setStatus(AtomicWriteStatus.AW_SUCCESS)
            .setVersionstamp(ByteString.copyFrom(v.toBytes())).build())
        .orElseGet(() -> AtomicWriteOutput.newBuilder()
            .setStatus(AtomicWriteStatus.AW_CHECK_FAILURE).build());
  }

  /** The result of a server's answer, as a client reads it. */
  public static Optional<Versionstamp> committed(AtomicWriteOutput output) {
    switch (output.getStatus()) {
      case AW_SUCCESS:
        if (output.getVersionstamp().size() != Versionstamp.LENGTH) {
          throw new RemoteException("the server sent a versionstamp of "
              + output.getVersionstamp().size() + " bytes (expected 10)");
        }
        return Optional.of(Versionstamp.of(output.getVersionstamp().toByteArray()));
      case AW_CHECK_FAILURE:
        return Optional.empty();
      case AW_WRITE_DISABLED:
        throw new RemoteException("Writes are disabled for this database");
      default:
        throw new RemoteException("Unspecified write error");
    }
  }

  // ---- watch ----

  public static Watch watch(List<RawKey> keys) {
    Watch.Builder b = Watch.newBuilder();
    keys.forEach(k -> b.addKeys(WatchKey.newBuilder().setKey(bytes(k))));
    return b.build();
  }

  public static List<RawKey> watchKeys(Watch watch) {
    if (watch.getKeysCount() > Limits.MAX_WATCHED_KEYS) {
      throw new BadRequestException("Too many keys watched in a single watch request.");
    }
    List<RawKey> out = new ArrayList<>();
    // Watched keys have the read limit (docs/limits.md §1) but must be keys, not range bounds.
    watch.getKeysList().forEach(k -> out.add(decodable(readKey(k.getKey()))));
    return out;
  }

  /** A frame for the current entries; every key is {@code changed=true} (§6, §9.7). */
  public static WatchOutput watchOutput(List<Optional<RawEntry>> entries) {
    WatchOutput.Builder b = WatchOutput.newBuilder().setStatus(SnapshotReadStatus.SR_SUCCESS);
    for (Optional<RawEntry> e : entries) {
      WatchKeyOutput.Builder k = WatchKeyOutput.newBuilder().setChanged(true);
      e.ifPresent(entry -> k.setEntryIfChanged(entry(entry)));
      b.addKeys(k);
    }
    return b.build();
  }

  /**
   * The entries of a frame. A key sent as unchanged keeps its previous entry from {@code
   * previous} (null for the first frame, which must be complete).
   */
  public static List<Optional<RawEntry>> watchEntries(WatchOutput output,
      List<Optional<RawEntry>> previous) {
    readStatus(output.getStatus(), false);
    List<Optional<RawEntry>> out = new ArrayList<>();
    for (int i = 0; i < output.getKeysCount(); i++) {
      WatchKeyOutput k = output.getKeys(i);
      if (!k.getChanged()) {
        if (previous == null || i >= previous.size()) {
          throw new RemoteException("the first watch frame must contain every key");
        }
        out.add(previous.get(i));
      } else {
        out.add(k.hasEntryIfChanged() ? Optional.of(entry(k.getEntryIfChanged()))
            : Optional.empty());
      }
    }
    return out;
  }

  // ---- shared pieces ----

  /**
   * An entry as a server sends it: as stored, even with an encoding Deno does not know or V8
   * bytes that do not parse (the client then fails on that entry alone). Except a u64 that is
   * not 8 bytes, which Deno's client cannot survive (it panics): such a read is refused.
   *
   * @throws KvCorruptEntryException for a u64 value of the wrong size
   */
  private static dev.kvasir.connect.proto.KvEntry entry(RawEntry e) {
    if (e.value().is(ValueEncoding.LE64) && e.value().size() != 8) {
      byte[] key = e.key().sharedBytes();
      throw new KvCorruptEntryException(key, keyText(key), "its u64 value has "
          + e.value().size() + " bytes instead of 8");
    }
    return dev.kvasir.connect.proto.KvEntry.newBuilder().setKey(bytes(e.key()))
        .setValue(shared(e.value()))
        // As stored, even an encoding Deno does not know: the client fails on that entry
        // ("Unknown encoding N") instead of the server failing the whole read.
        .setEncodingValue(e.value().code())
        .setVersionstamp(ByteString.copyFrom(e.versionstamp().toBytes())).build();
  }

  /** A stored key as text, or null where it does not decode. */
  private static String keyText(byte[] key) {
    try {
      return KvKey.decode(key).toString();
    } catch (KvDecodeException notAKey) {
      return null;
    }
  }

  private static RawEntry entry(dev.kvasir.connect.proto.KvEntry e) {
    if (e.getVersionstamp().size() != Versionstamp.LENGTH) {
      throw new RemoteException("the server sent a versionstamp of "
          + e.getVersionstamp().size() + " bytes (expected 10)");
    }
    // An unknown encoding fails when that entry's value is decoded, not the whole read.
    return new RawEntry(RawKey.wrap(e.getKey().toByteArray()),
        EncodedValue.stored(e.getEncodingValue(), e.getValue().toByteArray()),
        Versionstamp.of(e.getVersionstamp().toByteArray()));
  }

  private static KvValue value(EncodedValue v) {
    return KvValue.newBuilder().setData(shared(v))
        .setEncoding(encoding(v.encoding())).build();
  }

  private static EncodedValue value(KvValue v) {
    if (v.getData().size() > Limits.MAX_VALUE_BYTES) {
      throw new BadRequestException("A value exceeds the value size limit.");
    }
    ValueEncoding encoding;
    try {
      encoding = ValueEncoding.ofCode(v.getEncodingValue());
    } catch (KvDecodeException e) {
      throw new BadRequestException("The value encoding " + v.getEncodingValue()
          + " is unknown.");
    }
    if (encoding == ValueEncoding.LE64 && v.getData().size() != 8) {
      throw new BadRequestException("Invalid mutation kind or arguments. (a u64 value has "
          + v.getData().size() + " bytes, expected 8)");
    }
    byte[] data = v.getData().toByteArray();
    checkDecodes(encoding, data, "A value");
    return EncodedValue.wrap(encoding, data);
  }

  private static dev.kvasir.connect.proto.ValueEncoding encoding(ValueEncoding e) {
    return dev.kvasir.connect.proto.ValueEncoding.forNumber(e.code());
  }

  // A message takes the bytes of keys and values themselves, not copies: they never change,
  // and the message only reads them. On the server, the answer to a read then holds each value
  // twice (as read and as sent) instead of three times (docs/operations.md §10).
  private static ByteString bytes(RawKey key) {
    return UnsafeByteOperations.unsafeWrap(key.sharedBytes());
  }

  private static ByteString shared(EncodedValue value) {
    return UnsafeByteOperations.unsafeWrap(value.sharedBytes());
  }

  private static RawKey readKey(ByteString bytes) {
    if (bytes.size() > Limits.MAX_READ_KEY_BYTES) {
      throw new BadRequestException("A key exceeds the key size limit.");
    }
    return RawKey.wrap(bytes.toByteArray());
  }

  /**
   * A key to be written, checked, watched or used as a dead-letter key: within the size limit
   * and a valid Deno KV key, so that nothing stored through the server fails to decode later
   * (read range bounds are byte strings and are not decoded).
   */
  private static RawKey writeKey(ByteString bytes) {
    if (bytes.size() > Limits.MAX_WRITE_KEY_BYTES) {
      throw new BadRequestException("A key exceeds the key size limit.");
    }
    return decodable(RawKey.wrap(bytes.toByteArray()));
  }

  private static RawKey decodable(RawKey key) {
    try {
      KeyCodec.decode(key.sharedBytes());
    } catch (KvDecodeException e) {
      throw new BadRequestException("Invalid key " + key + ": " + e.getMessage() + ".");
    }
    return key;
  }

  /**
   * A value about to be stored: a V8 value must parse, as Deno will parse it when it reads it
   * (docs/values.md §4); the other encodings are checked by their size.
   */
  private static void checkDecodes(ValueEncoding encoding, byte[] data, String what) {
    if (encoding != ValueEncoding.V8) {
      return;
    }
    try {
      V8.deserialize(data);
    } catch (KvDecodeException e) {
      throw new BadRequestException(what + " is not a valid V8 value: " + e.getMessage() + ".");
    }
  }
}
