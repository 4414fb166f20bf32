package dev.kvasir.cli;

import dev.kvasir.AtomicOperation;
import dev.kvasir.CommitResult;
import dev.kvasir.Kv;
import dev.kvasir.KvKey;
import dev.kvasir.Limits;
import dev.kvasir.base.KvLimitException;
import dev.kvasir.mapping.ValueMapper;
import dev.kvasir.value.EncodedValue;
import java.io.IOException;
import java.time.Duration;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;

/** {@code kvasir set KEY VALUE}. */
@Command(name = "set", mixinStandardHelpOptions = true,
    description = {"Store VALUE at KEY and print the commit's versionstamp.",
        "VALUE is JSON unless --type says otherwise; quote JSON strings: '\"text\"'. A VALUE"
            + " of - is read from standard input: a file's exact bytes with --type bytes, its"
            + " exact text with --type string."},
    footer = {"", "Examples:",
        "  kvasir set '[\"users\", \"alice\"]' '{\"name\": \"Alice\", \"age\": 30}'",
        "  kvasir set '[\"greeting\"]' hello --type string --json",
        "  kvasir set '[\"visits\"]' 0 --type u64",
        "  kvasir set '[\"session\", 7n]' '\"token\"' --expire-in 30m",
        "  kvasir set '[\"tags\"]' '{\"$set\": [\"a\", \"b\"]}'",
        "  kvasir set '[\"users\", \"alice\"]' '{\"age\": 31}' --check 000000000000000a0000",
        "  jq .settings app.json | kvasir set '[\"config\"]' -",
        "  kvasir set '[\"logo\"]' - --type bytes < logo.png"})
final class SetCommand extends DbCommand {
  /**
   * The most of standard input read for a value: more than any value's text (64 KiB stored,
   * several times that as escaped JSON). Read whole, a 4 GB file was held in memory before it
   * was refused.
   */
  private static final int INPUT_LIMIT = 16 << 20;

  @Parameters(index = "0", paramLabel = "KEY", description = "e.g. '[\"users\", \"alice\"]'")
  KvKey key;

  @Parameters(index = "1", paramLabel = "VALUE",
      description = "JSON unless --type says otherwise; - reads it from standard input.")
  String value;

  @Option(names = "--type", paramLabel = "TYPE", defaultValue = "json",
      description = "How VALUE is read: ${COMPLETION-CANDIDATES}. Default: ${DEFAULT-VALUE}")
  ValueType type;

  @Option(names = "--expire-in", paramLabel = "DURATION",
      description = "Delete the entry after this long: 1500 (ms), 30s, 5m, 1h30m, 1d.")
  Duration expireIn;

  @Mixin CheckOption check;

  @Option(names = "--json", description = "Print {\"ok\":true,\"versionstamp\":\"…\"} (as Deno's"
      + " commit result) instead of the bare versionstamp.")
  boolean json;

  /** VALUE as it is stored, parsed before the database is opened. */
  private Object parsed;

  @Override
  boolean writes() {
    return true;
  }

  @Override
  void checkArguments() throws IOException {
    check.validate();
    try {
      parsed = value.equals("-") ? type.parseInput(standardInput()) : type.parse(value);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage());
    }
    // Deno's limits, checked as the commit would check them but before a missing database is
    // created: a key or value too large left a new, empty database file behind.
    Limits.checkWriteKey(key);
    EncodedValue encoded = parsed instanceof EncodedValue e ? e
        : EncodedValue.of(parsed, ValueMapper.defaults());
    Limits.checkValue(encoded.size());
    parsed = encoded;
  }

  @Override
  int run(Kv kv) {
    AtomicOperation op = kv.atomic();
    if (check.present()) {
      op.check(key, check.versionstamp());
    }
    CommitResult r = (expireIn == null ? op.set(key, parsed) : op.set(key, parsed, expireIn))
        .commit();
    if (!r.ok()) {
      throw new Failure("the check failed: " + KeySyntax.format(key) + " "
          + check.describe() + "; nothing was written");
    }
    out().println(json ? Render.commitJson(r) : r.versionstamp().toString());
    return 0;
  }

  private byte[] standardInput() throws IOException {
    if (inShell()) {
      // The shell reads its commands from there.
      throw new IllegalArgumentException("in the shell, give the value itself; - (standard"
          + " input) is for 'kvasir set' run on its own");
    }
    byte[] input = System.in.readNBytes(INPUT_LIMIT + 1);
    if (input.length > INPUT_LIMIT) {
      throw new KvLimitException("value too large: standard input holds more than "
          + (INPUT_LIMIT >> 20) + " MiB, and a value is at most " + Limits.MAX_VALUE_BYTES
          + " bytes");
    }
    return input;
  }
}
