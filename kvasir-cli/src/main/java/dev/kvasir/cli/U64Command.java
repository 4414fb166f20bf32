package dev.kvasir.cli;

import dev.kvasir.AtomicOperation;
import dev.kvasir.Kv;
import dev.kvasir.KvEntry;
import dev.kvasir.KvKey;
import dev.kvasir.Limits;
import dev.kvasir.base.KvException;
import dev.kvasir.value.KvU64;
import java.math.BigInteger;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.TypeConversionException;

/**
 * {@code kvasir sum|min|max KEY N}: the KvU64 mutations. Each commits atomically and prints the
 * value read right after (another writer may have moved it on since).
 */
abstract class U64Command extends DbCommand {
  private static final BigInteger TWO_TO_64 = BigInteger.ONE.shiftLeft(64);

  @Parameters(index = "0", paramLabel = "KEY", description = "Its value is a KvU64, or none.")
  KvKey key;

  @Parameters(index = "1", paramLabel = "N", converter = WholeNumber.class,
      description = "An unsigned 64-bit integer (for sum, a negative one subtracts).")
  BigInteger n;

  @Option(names = "--json", description = "Print the entry read after the commit as"
      + " {\"key\",\"value\",\"versionstamp\"}, as get --json does.")
  boolean json;

  /** N as the operand, checked before the database is opened. */
  private KvU64 operand;

  abstract void apply(AtomicOperation op, KvU64 operand);

  /**
   * Whether a negative N subtracts, as {@code Kv.sum(key, -1)} does in Java: adding 2^64 - |N|
   * wraps around to the same value.
   */
  boolean subtracts() {
    return false;
  }

  /** N as a whole number, refused with its reason rather than Java's NumberFormatException. */
  static final class WholeNumber implements ITypeConverter<BigInteger> {
    @Override
    public BigInteger convert(String value) {
      try {
        return new BigInteger(value);
      } catch (NumberFormatException e) {
        throw new TypeConversionException("'" + value + "' is not a whole number");
      }
    }
  }

  @Override
  boolean writes() {
    return true;
  }

  @Override
  void checkArguments() {
    Limits.checkWriteKey(key); // before a missing database is created, as set checks its key
    try {
      boolean wraps = subtracts() && n.signum() < 0 && n.negate().compareTo(TWO_TO_64) < 0;
      operand = KvU64.of(wraps ? n.add(TWO_TO_64) : n);
    } catch (KvException e) {
      throw new IllegalArgumentException("N must be between " + (subtracts() ? "-(2^64-1)" : "0")
          + " and 2^64-1, not " + n);
    }
  }

  @Override
  int run(Kv kv) {
    AtomicOperation op = kv.atomic();
    apply(op, operand);
    op.commit();
    KvEntry after = kv.get(key);
    out().println(json ? Render.text(Render.entryJson(after)) : Render.value(after, false));
    return 0;
  }

  @Command(name = "sum", mixinStandardHelpOptions = true,
      description = "Add N to the KvU64 at KEY (wrapping at 2^64; a missing key counts as 0).",
      footer = {"", "Examples:", "  kvasir sum '[\"visits\"]' 1",
          "  kvasir sum '[\"stock\", \"apples\"]' -3   # subtracts"})
  static final class Sum extends U64Command {
    @Override
    boolean subtracts() {
      return true;
    }

    @Override
    void apply(AtomicOperation op, KvU64 operand) {
      op.sum(key, operand);
    }
  }

  @Command(name = "min", mixinStandardHelpOptions = true,
      description = "Keep the smaller of the KvU64 at KEY and N (a missing key becomes N).",
      footer = {"", "Example:", "  kvasir min '[\"best-time\"]' 5300"})
  static final class Min extends U64Command {
    @Override
    void apply(AtomicOperation op, KvU64 operand) {
      op.min(key, operand);
    }
  }

  @Command(name = "max", mixinStandardHelpOptions = true,
      description = "Keep the larger of the KvU64 at KEY and N (a missing key becomes N).",
      footer = {"", "Example:", "  kvasir max '[\"high-score\"]' 1200"})
  static final class Max extends U64Command {
    @Override
    void apply(AtomicOperation op, KvU64 operand) {
      op.max(key, operand);
    }
  }
}
