package dev.kvasir.cli;

import dev.kvasir.CommitResult;
import dev.kvasir.EnqueueOptions;
import dev.kvasir.Kv;
import dev.kvasir.KvKey;
import dev.kvasir.Limits;
import dev.kvasir.base.KvLimitException;
import dev.kvasir.mapping.ValueMapper;
import dev.kvasir.value.EncodedValue;
import dev.kvasir.value.V8;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;

/** {@code kvasir enqueue VALUE}. */
@Command(name = "enqueue", mixinStandardHelpOptions = true,
    description = "Put a message on the database's queue (for listenQueue in Deno or"
        + " 'kvasir listen') and print the commit's versionstamp.",
    footer = {"", "Examples:",
        "  kvasir enqueue '{\"task\": \"email\", \"to\": \"alice\"}'",
        "  kvasir enqueue '\"reminder\"' --delay 10m",
        "  kvasir enqueue '{\"job\": 7}' --keys-if-undelivered '[\"failed\", 7]' \\",
        "      --backoff-schedule 1000,5000",
        "  kvasir enqueue '{\"job\": 8}' --backoff-schedule none   # one attempt only"})
final class EnqueueCommand extends DbCommand {
  @Parameters(paramLabel = "VALUE", description = "The message: JSON unless --type says"
      + " otherwise.")
  String value;

  @Option(names = "--type", paramLabel = "TYPE", defaultValue = "json",
      description = "How VALUE is read: ${COMPLETION-CANDIDATES}. Default: ${DEFAULT-VALUE}")
  ValueType type;

  @Option(names = "--delay", paramLabel = "DURATION",
      description = "Deliver after this long: 1500 (ms), 30s, 5m, 1h30m, 1d.")
  Duration delay;

  @Option(names = "--keys-if-undelivered", paramLabel = "KEY",
      description = "Where to store the message if every attempt fails (repeatable).")
  List<KvKey> keysIfUndelivered = List.of();

  @Option(names = "--backoff-schedule", paramLabel = "MS[,MS...]|none",
      description = "Milliseconds before each retry, e.g. 1000,5000,10000, or none for one"
          + " attempt only. Default: Deno's, 100,1000,5000,30000,60000.")
  String backoffSchedule;

  @Option(names = "--json", description = "Print {\"ok\":true,\"versionstamp\":\"…\"} (as Deno's"
      + " commit result) instead of the bare versionstamp.")
  boolean json;

  /** The message and how it is delivered, made before the database is opened. */
  private Object message;
  private EnqueueOptions options;

  @Override
  boolean writes() {
    return true;
  }

  @Override
  void checkArguments() {
    try {
      message = type.parse(value);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage());
    }
    if (message instanceof EncodedValue v8) {
      message = v8.decode(); // a queue message is always V8
    }
    // Deno's limits, checked as the commit would check them but before a missing database is
    // created: a payload or key too large left a new, empty database file behind.
    Limits.checkPayload(V8.serialize(message, ValueMapper.defaults()).length);
    keysIfUndelivered.forEach(k -> Limits.checkDeadLetterKey(k.encodedLength()));
    options = EnqueueOptions.defaults().keysIfUndelivered(keysIfUndelivered);
    // Out of Deno's range, a usage error naming the option, as a negative --delay is; the
    // library's message names its own parameters (delay, backoffSchedule) in milliseconds.
    try {
      if (delay != null) {
        options = options.delay(delay);
      }
    } catch (KvLimitException e) {
      throw new ParameterException(spec.commandLine(), "--delay is at most 30 days, the longest"
          + " Deno lets a message wait; got " + typed("--delay"));
    }
    if (backoffSchedule != null) {
      try {
        options = options.backoffSchedule(intervals());
      } catch (KvLimitException e) {
        throw new ParameterException(spec.commandLine(), "--backoff-schedule takes at most "
            + Limits.MAX_BACKOFF_INTERVALS + " intervals of 0 to "
            + Limits.MAX_BACKOFF_INTERVAL.toMillis() + " ms, as Deno does; got "
            + backoffSchedule);
      }
    }
  }

  @Override
  int run(Kv kv) {
    CommitResult r = kv.enqueue(message, options);
    out().println(json ? Render.commitJson(r) : r.versionstamp().toString());
    return 0;
  }

  /** What the command line gave {@code option}, the last time it was given. */
  private String typed(String option) {
    List<String> given = spec.commandLine().getParseResult().matchedOption(option)
        .originalStringValues();
    return given.get(given.size() - 1);
  }

  /** The --backoff-schedule list; {@code none} is Deno's {@code backoffSchedule: []}. */
  private List<Integer> intervals() {
    if (backoffSchedule.strip().equals("none")) {
      return List.of();
    }
    List<Integer> intervals = new ArrayList<>();
    for (String part : backoffSchedule.split(",", -1)) {
      try {
        intervals.add(Integer.parseInt(part.strip()));
      } catch (NumberFormatException e) {
        throw new ParameterException(spec.commandLine(), "--backoff-schedule takes milliseconds"
            + " separated by commas, or none; got '" + backoffSchedule + "'");
      }
    }
    return intervals;
  }
}
