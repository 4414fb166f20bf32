package dev.kvasir.spi;

import dev.kvasir.base.Versionstamp;
import dev.kvasir.value.EncodedValue;
import java.time.Instant;
import java.util.Arrays;
import java.util.Objects;

/**
 * One change of an atomic write (docs/atomic.md). Mutations apply in order, and a later
 * mutation of a key sees the earlier ones. {@code expireAt} is {@code null} for "never".
 *
 * <p>Code that treats mutations differently switches over {@link #kind()} in a {@code switch}
 * expression without a {@code default}: a new kind is then a compile error at every such place
 * (docs/architecture.md, "Adding a mutation kind").
 */
public sealed interface Mutation {
  /** Every kind of mutation, one per record below. */
  enum Kind {
    SET, SET_VERSIONSTAMPED_KEY, DELETE, SUM, MIN, MAX
  }

  /** Which record this is. */
  Kind kind();

  /** The key the mutation writes; for {@link SetVersionstampedKey}, the prefix. */
  RawKey key();

  /** The key the mutation writes in a commit with {@code versionstamp}. */
  default RawKey keyIn(Versionstamp versionstamp) {
    return key();
  }

  /** The value a set writes, or the operand of a sum, min or max; {@code null} for a delete. */
  EncodedValue value();

  /** When a set's entry expires; {@code null} for never and for every other kind. */
  default Instant expireAt() {
    return null;
  }

  /** Upserts a value. */
  record Set(RawKey key, EncodedValue value, Instant expireAt) implements Mutation {
    public Set {
      Objects.requireNonNull(key, "key");
      Objects.requireNonNull(value, "value");
    }

    @Override
    public Kind kind() {
      return Kind.SET;
    }
  }

  /** Removes a key; a missing key is fine. */
  record Delete(RawKey key) implements Mutation {
    public Delete {
      Objects.requireNonNull(key, "key");
    }

    @Override
    public Kind kind() {
      return Kind.DELETE;
    }

    @Override
    public EncodedValue value() {
      return null;
    }
  }

  /**
   * Adds the operand: a u64 ({@code LE64}) wraps modulo 2^64; a V8 number or bigint adds as JS
   * does (docs/atomic.md).
   */
  record Sum(RawKey key, EncodedValue value) implements Mutation {
    public Sum {
      Objects.requireNonNull(key, "key");
      Objects.requireNonNull(value, "operand");
    }

    @Override
    public Kind kind() {
      return Kind.SUM;
    }
  }

  /** Keeps the unsigned minimum of the stored u64 and the operand. */
  record Min(RawKey key, EncodedValue value) implements Mutation {
    public Min {
      Objects.requireNonNull(key, "key");
      Objects.requireNonNull(value, "operand");
    }

    @Override
    public Kind kind() {
      return Kind.MIN;
    }
  }

  /** Keeps the unsigned maximum of the stored u64 and the operand. */
  record Max(RawKey key, EncodedValue value) implements Mutation {
    public Max {
      Objects.requireNonNull(key, "key");
      Objects.requireNonNull(value, "operand");
    }

    @Override
    public Kind kind() {
      return Kind.MAX;
    }
  }

  /**
   * Sets {@code prefix ‖ 02 ‖ hex(commit versionstamp) ‖ 00}: the prefix followed by a string
   * part holding the commit's versionstamp, so such keys sort in commit order (Deno's {@code
   * commitVersionstamp()}).
   */
  record SetVersionstampedKey(RawKey key, EncodedValue value, Instant expireAt)
      implements Mutation {
    public SetVersionstampedKey {
      Objects.requireNonNull(key, "key");
      Objects.requireNonNull(value, "value");
    }

    @Override
    public Kind kind() {
      return Kind.SET_VERSIONSTAMPED_KEY;
    }

    /** The prefix followed by the commit's versionstamp. */
    @Override
    public RawKey keyIn(Versionstamp versionstamp) {
      String hex = versionstamp.toString();
      byte[] prefix = key.bytes();
      byte[] out = Arrays.copyOf(prefix, prefix.length + 2 + hex.length());
      out[prefix.length] = 0x02;
      for (int i = 0; i < hex.length(); i++) {
        out[prefix.length + 1 + i] = (byte) hex.charAt(i);
      }
      out[out.length - 1] = 0x00;
      return RawKey.wrap(out);
    }
  }
}
