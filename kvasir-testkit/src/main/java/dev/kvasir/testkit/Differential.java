package dev.kvasir.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kvasir.AtomicOperation;
import dev.kvasir.CommitResult;
import dev.kvasir.Kv;
import dev.kvasir.KvEntry;
import dev.kvasir.KvKey;
import dev.kvasir.KvListIterator;
import dev.kvasir.ListOptions;
import dev.kvasir.ListSelector;
import dev.kvasir.base.KvException;
import dev.kvasir.base.Versionstamp;
import dev.kvasir.value.KvU64;
import java.math.BigInteger;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Function;

/**
 * Runs one seeded random sequence of operations (sets, deletes, atomics with checks, sums,
 * min/max, gets, getMany, lists with random selectors, options and cursors) against two
 * databases and asserts that every result agrees: values byte for byte, keys, ok flags, error
 * messages. Versionstamps differ between engines (random increments), so they are compared
 * through the bijection that commit results establish: both sides must stamp the same entries
 * with corresponding commits.
 */
public final class Differential {
  private final Kv tested;
  private final Kv reference;
  private final Random random;
  private final List<KvKey> keyPool = new ArrayList<>();
  private final Map<Versionstamp, Versionstamp> testedToReference = new HashMap<>();
  private int step;
  private String operation = "";

  private Differential(Kv tested, Kv reference, long seed) {
    this.tested = tested;
    this.reference = reference;
    this.random = new Random(seed);
    Object[] firsts = {"a", "b", "users", new byte[] {0}, new byte[] {1, 2}, 1.0, -2.5,
        BigInteger.TEN, true, false};
    for (Object first : firsts) {
      keyPool.add(KvKey.of(first));
      for (Object second : new Object[] {"x", "y", 0.0, 7.0, BigInteger.ONE, new byte[] {9}}) {
        keyPool.add(KvKey.of(first, second));
      }
    }
  }

  /**
   * Runs {@code operations} random operations.
   *
   * @throws AssertionError at the first disagreement, naming the step and operation
   */
  public static void run(Kv tested, Kv reference, long seed, int operations) {
    Differential d = new Differential(tested, reference, seed);
    for (d.step = 0; d.step < operations; d.step++) {
      d.one();
    }
  }

  private void one() {
    int dice = random.nextInt(100);
    if (dice < 25) {
      KvKey k = anyKey();
      Object v = anyValue();
      operation = "set " + k + " = " + v;
      compareCommits(both(kv -> kv.set(k, v)));
    } else if (dice < 32) {
      KvKey k = anyKey();
      operation = "delete " + k;
      both(kv -> {
        kv.delete(k);
        return null;
      });
    } else if (dice < 55) {
      atomic();
    } else if (dice < 70) {
      KvKey k = anyKey();
      operation = "get " + k;
      List<Outcome<KvEntry>> r = both(kv -> kv.get(k));
      compareEntries(List.of(r.get(0).value), List.of(r.get(1).value));
    } else if (dice < 78) {
      List<KvKey> ks = new ArrayList<>();
      for (int i = random.nextInt(10) + 1; i > 0; i--) {
        ks.add(anyKey());
      }
      operation = "getMany " + ks;
      List<Outcome<List<KvEntry>>> r = both(kv -> kv.getMany(ks));
      compareEntries(r.get(0).value, r.get(1).value);
    } else {
      list();
    }
  }

  private void atomic() {
    List<PlannedCheck> checks = new ArrayList<>();
    List<Function<AtomicOperation, AtomicOperation>> steps = new ArrayList<>();
    StringBuilder desc = new StringBuilder("atomic");
    for (int i = random.nextInt(3); i > 0; i--) {
      KvKey k = anyKey();
      int kind = random.nextInt(3);
      desc.append(" check(").append(k).append(kind == 0 ? ", current)" : kind == 1 ? ", null)"
          : ", stale)");
      checks.add(new PlannedCheck(k, kind));
    }
    // Now and then a long run, mostly sets, so that engines batching sets see repeated keys.
    boolean bulk = random.nextInt(8) == 0;
    for (int i = bulk ? 17 + random.nextInt(120) : random.nextInt(4) + 1; i > 0; i--) {
      KvKey k = anyKey();
      int kind = bulk && random.nextInt(10) < 7 ? 0 : random.nextInt(6);
      switch (kind) {
        case 0 -> {
          Object v = anyValue();
          boolean expires = random.nextInt(10) == 0;
          desc.append(" set(").append(k).append(')');
          steps.add(op -> expires ? op.set(k, v, Duration.ofHours(1)) : op.set(k, v));
        }
        case 1 -> {
          desc.append(" delete(").append(k).append(')');
          steps.add(op -> op.delete(k));
        }
        case 2 -> {
          long n = random.nextInt(3) == 0 ? -1L >>> 1 : random.nextInt(100);
          desc.append(" sum(").append(k).append(", ").append(n).append(')');
          steps.add(op -> op.sum(k, n));
        }
        case 3 -> {
          KvU64 n = KvU64.ofUnsignedBits(random.nextLong());
          desc.append(" min(").append(k).append(", ").append(n).append(')');
          steps.add(op -> op.min(k, n));
        }
        case 4 -> {
          KvU64 n = KvU64.ofUnsignedBits(random.nextLong());
          desc.append(" max(").append(k).append(", ").append(n).append(')');
          steps.add(op -> op.max(k, n));
        }
        default -> {
          Number n = random.nextBoolean() ? (Number) random.nextInt(50)
              : BigInteger.valueOf(random.nextInt(50));
          desc.append(" sumNumber(").append(k).append(", ").append(n).append(')');
          steps.add(op -> op.sumNumber(k, n));
        }
      }
    }
    operation = desc.toString();
    compareCommits(both(kv -> {
      AtomicOperation op = kv.atomic();
      // Each side checks against its own versionstamps: "current" is what it reads now.
      for (PlannedCheck c : checks) {
        Versionstamp vs = switch (c.kind) {
          case 0 -> kv.get(c.key).versionstamp();
          case 1 -> null;
          // No entry has version 0: versions start there and every commit adds 1 to 9
          // (docs/sqlite.md §4). Version 1 would be the current one of a key that the first
          // commit wrote, on the side that happened to draw a step of 1.
          default -> Versionstamp.ofVersion(0);
        };
        op.check(c.key, vs);
      }
      for (Function<AtomicOperation, AtomicOperation> s : steps) {
        s.apply(op);
      }
      return op.commit();
    }));
  }

  /** kind 0: the key's current versionstamp, 1: must not exist, 2: one that no entry has. */
  private record PlannedCheck(KvKey key, int kind) {}

  private void list() {
    KvKey first = keyPool.get(random.nextInt(keyPool.size()));
    KvKey prefix = random.nextInt(4) == 0 ? KvKey.of() : KvKey.of(first.get(0));
    ListSelector selector;
    int shape = random.nextInt(4);
    List<KvKey> children = keyPool.stream()
        .filter(k -> k.size() > prefix.size() && k.startsWith(prefix)).toList();
    if (shape == 1 && !children.isEmpty()) {
      selector = ListSelector.prefix(prefix).withStart(children.get(random.nextInt(children.size())));
    } else if (shape == 2 && !children.isEmpty()) {
      selector = ListSelector.prefix(prefix).withEnd(children.get(random.nextInt(children.size())));
    } else if (shape == 3) {
      KvKey a = anyKey();
      KvKey b = anyKey();
      selector = a.compareTo(b) <= 0 ? ListSelector.range(a, b) : ListSelector.range(b, a);
    } else {
      selector = ListSelector.prefix(prefix);
    }
    ListOptions options = ListOptions.defaults().reverse(random.nextBoolean());
    if (random.nextBoolean()) {
      options = options.limit(random.nextInt(20) + 1);
    }
    if (random.nextBoolean()) {
      options = options.batchSize(random.nextInt(10) + 1);
    }
    int stopAfter = random.nextInt(5);
    ListOptions o = options;
    operation = "list " + selector + " " + options + " resuming after " + stopAfter;
    List<Outcome<List<KvEntry>>> r = both(kv -> {
      KvListIterator it = kv.list(selector, o);
      List<KvEntry> out = new ArrayList<>();
      while (out.size() < stopAfter && it.hasNext()) {
        out.add(it.next());
      }
      if (out.isEmpty()) {
        it.forEachRemaining(out::add);
        return out;
      }
      kv.list(selector, o.cursor(it.cursor())).forEach(out::add);
      return out;
    });
    compareEntries(r.get(0).value, r.get(1).value);
  }

  private record Outcome<T>(T value, String error) {}

  /** Runs {@code action} on both databases; both must succeed, or fail with the same message. */
  private <T> List<Outcome<T>> both(Function<Kv, T> action) {
    Outcome<T> a = attempt(tested, action);
    Outcome<T> b = attempt(reference, action);
    assertThat(a.error).as(where("error")).isEqualTo(b.error);
    return List.of(a, b);
  }

  private static <T> Outcome<T> attempt(Kv kv, Function<Kv, T> action) {
    try {
      return new Outcome<>(action.apply(kv), null);
    } catch (KvException | IllegalArgumentException e) {
      return new Outcome<>(null, e.getClass().getSimpleName() + ": " + e.getMessage());
    }
  }

  private void compareCommits(List<Outcome<CommitResult>> r) {
    CommitResult a = r.get(0).value;
    CommitResult b = r.get(1).value;
    if (a == null || b == null) {
      return; // both failed alike
    }
    assertThat(a.ok()).as(where("ok")).isEqualTo(b.ok());
    if (a.ok()) {
      Versionstamp previous = testedToReference.putIfAbsent(a.versionstamp(), b.versionstamp());
      assertThat(previous).as(where("a fresh versionstamp per commit")).isNull();
    }
  }

  private void compareEntries(List<KvEntry> a, List<KvEntry> b) {
    if (a == null || b == null) {
      return;
    }
    assertThat(a.size()).as(where("entry count")).isEqualTo(b.size());
    for (int i = 0; i < a.size(); i++) {
      KvEntry x = a.get(i);
      KvEntry y = b.get(i);
      assertThat(x.key()).as(where("key " + i)).isEqualTo(y.key());
      assertThat(x.encodedValue()).as(where("value of " + x.key())).isEqualTo(y.encodedValue());
      Versionstamp mapped = x.versionstamp() == null ? null
          : testedToReference.get(x.versionstamp());
      assertThat(mapped).as(where("versionstamp of " + x.key())).isEqualTo(y.versionstamp());
    }
  }

  private String where(String what) {
    return "step " + step + " (" + operation + "): " + what;
  }

  private KvKey anyKey() {
    return keyPool.get(random.nextInt(keyPool.size()));
  }

  private Object anyValue() {
    return switch (random.nextInt(7)) {
      case 0 -> random.nextInt(1000);
      case 1 -> "s" + random.nextInt(100);
      case 2 -> KvU64.ofUnsignedBits(random.nextLong());
      case 3 -> new byte[] {(byte) random.nextInt(), 2};
      case 4 -> Map.of("n", random.nextInt(5), "list", List.of(true, "x"));
      case 5 -> BigInteger.valueOf(random.nextLong());
      default -> random.nextDouble();
    };
  }
}
