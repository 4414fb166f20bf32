package dev.kvasir.spi;

import dev.kvasir.Versionstamp;
import dev.kvasir.value.EncodedValue;
import java.time.Instant;
import java.util.Arrays;
import java.util.Objects;

/**
 * One change of an atomic write (docs/atomic.md). Mutations apply in order, and a later
 * mutation of a key sees the earlier ones. {@code expireAt} is {@code null} for "never".
 */
public sealed interface Mutation {
  /** The key the mutation writes; for {@link SetVersionstampedKey}, the prefix. */
  RawKey key();

  /** Upserts a value. */
  record Set(RawKey key, EncodedValue value, Instant expireAt) implements Mutation {
    public Set {
      Objects.requireNonNull(key, "key");
      Objects.requireNonNull(value, "value");
    }
  }

  /** Removes a key; a missing key is fine. */
  record Delete(RawKey key) implements Mutation {
    public Delete {
      Objects.requireNonNull(key, "key");
    }
  }

  /**
   * Adds the operand: a u64 ({@code LE64}) wraps modulo 2^64; a V8 number or bigint adds as JS
   * does. See {@link Sums}.
   */
  record Sum(RawKey key, EncodedValue operand) implements Mutation {
    public Sum {
      Objects.requireNonNull(key, "key");
      Objects.requireNonNull(operand, "operand");
    }
  }

  /** Keeps the unsigned minimum of the stored u64 and the operand. */
  record Min(RawKey key, EncodedValue operand) implements Mutation {
    public Min {
      Objects.requireNonNull(key, "key");
      Objects.requireNonNull(operand, "operand");
    }
  }

  /** Keeps the unsigned maximum of the stored u64 and the operand. */
  record Max(RawKey key, EncodedValue operand) implements Mutation {
    public Max {
      Objects.requireNonNull(key, "key");
      Objects.requireNonNull(operand, "operand");
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

    /** The key this mutation writes in a commit with {@code versionstamp}. */
    public RawKey keyFor(Versionstamp versionstamp) {
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
