package dev.kvasir.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kvasir.Kv;
import dev.kvasir.KvEntry;
import dev.kvasir.KvKey;
import dev.kvasir.ListSelector;
import dev.kvasir.testkit.powercut.PowerCutFs;
import dev.kvasir.value.KvU64;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;

/**
 * Kills a process while it writes, the same way for every engine's test: a child JVM
 * ({@link #main}) commits from four threads at once, each its own numbered sequence
 * of {@code ["w", thread, i]} together with a sum on {@code ["count"]} in one atomic commit, and
 * prints each commit once it is acknowledged; the test kills it with SIGKILL at a random moment,
 * which is what the kernel's out-of-memory killer or {@code kill -9} does, and then checks that
 * the database opens with every acknowledged commit, no commit half-applied, and takes commits
 * again, round after round on the same database.
 *
 * <p>A killed process leaves its files as they were at that moment (the kernel keeps what was
 * written), so this finds what a crash of the process breaks (a torn record at the end of a log,
 * a lock or index file left behind, an answer given before the commit was written). What a
 * power cut breaks besides (a commit answered before its {@code fsync}, or a log whose recovery
 * cannot stand a lost or torn write) a test finds by cutting the power after each kill, on a
 * {@link dev.kvasir.testkit.powercut.PowerCutFs} (docs/power-cut.md), and at each of the first
 * changes to a new database ({@link #cutAtEachChange}). What each engine does with what a
 * killed writer left: docs/sqlite.md §2, docs/dag-engine.md §2, docs/postgres.md §2.
 */
public final class KilledWriters {
  /** Threads committing at once, so that the engine groups commits as under load. */
  private static final int THREADS = 4;
  /**
   * Kills a test makes: a kill shows a fault only if it lands in the fault's window (between an
   * answer and the write it announced, say), so one test kills many times.
   */
  private static final int ROUNDS = 10;
  /** Every so many commits of a thread carry a value this large, spanning blocks and pages. */
  private static final int LARGE_EVERY = 8;
  private static final int LARGE_BYTES = 30_000;
  /** A child left behind by a test that died ends itself after this long. */
  private static final long CHILD_LIFETIME_MS = 120_000;

  private KilledWriters() {}

  /**
   * The child: {@code KilledWriters LOCATION FIRST...}, one first index per thread. Prints
   * {@code "thread i"} for each acknowledged commit, and exits 1 if a commit fails.
   */
  public static void main(String[] args) throws InterruptedException {
    PrintStream out = System.out;
    Kv kv = Kv.open(args[0]);
    for (int t = 0; t < THREADS; t++) {
      int thread = t;
      int first = Integer.parseInt(args[1 + t]);
      Thread writer = new Thread(() -> {
        try {
          for (int i = first; ; i++) {
            kv.atomic().set(KvKey.of("w", thread, i), value(thread, i))
                .sum(KvKey.of("count"), KvU64.of(1)).commit();
            synchronized (out) {
              out.println(thread + " " + i);
              out.flush();
            }
          }
        } catch (RuntimeException e) {
          e.printStackTrace();
          Runtime.getRuntime().halt(1);
        }
      }, "writer-" + t);
      writer.start();
    }
    Thread.sleep(CHILD_LIFETIME_MS);
    Runtime.getRuntime().halt(2);
  }

  /** What thread {@code t} writes as its {@code i}-th value. */
  private static Object value(int t, int i) {
    if (i % LARGE_EVERY != LARGE_EVERY - 1) {
      return t + "-" + i;
    }
    byte[] bytes = new byte[LARGE_BYTES];
    new Random(31L * t + i).nextBytes(bytes);
    return bytes;
  }

  /** What happens between a kill and the check, such as a power cut. */
  @FunctionalInterface
  public interface AfterKill {
    /**
     * Acts with {@code random}, the test's, so that its seed replays it.
     *
     * @return what it did, for a failure to show (empty if nothing)
     */
    String act(Random random) throws Exception;
  }

  /**
   * Kills a writer on {@code location} ten times, each after it has written for a random time
   * up to about a second ({@code seed} chooses them), and checks the database after each kill.
   *
   * @return how many commits each thread's sequence holds at the end
   */
  public static int[] killRepeatedly(String location, long seed) throws Exception {
    return killRepeatedly(location, seed, random -> "");
  }

  /**
   * As {@link #killRepeatedly(String, long)}, with {@code afterKill} done after each kill and
   * before the check.
   */
  public static int[] killRepeatedly(String location, long seed, AfterKill afterKill)
      throws Exception {
    Random random = new Random(seed);
    int[] next = new int[THREADS];
    for (int round = 1; round <= ROUNDS; round++) {
      Duration writing = Duration.ofMillis(50 + random.nextInt(900));
      int[] acknowledged = kill(location, next, new Moment() {
        @Override
        public void await(CountDownLatch firstAck, StringBuilder printed)
            throws InterruptedException {
          boolean writes = firstAck.await(60, TimeUnit.SECONDS);
          assertThat(writes).as("the writer acknowledged a commit; it printed: %s", printed)
              .isTrue();
          Thread.sleep(writing.toMillis());
        }
      });
      String context = String.format("round %d (seed %d)", round, seed);
      String after = afterKill.act(random);
      if (!after.isEmpty()) {
        context += ", after the kill: " + after;
      }
      try (Kv kv = Kv.open(location)) {
        next = check(kv, context, acknowledged);
      }
    }
    try (Kv kv = Kv.open(location)) {
      assertThat(kv.set(KvKey.of("after"), "the kills").ok()).isTrue();
    }
    return next;
  }

  /**
   * The power cut at each of the first changes a writer makes to a new database, one by one:
   * for each {@code n} from 1 to {@code changes}, a writer starts on the database {@code
   * location.apply(n)} on {@code disk}, the disk stops after the writer's {@code n}-th change
   * (a write, a sync, a file created or renamed, PowerCutFs#freezeAfter), the writer is killed
   * there, the power is cut, and the database must open with every commit acknowledged before,
   * none in part, and take commits. A kill at a random moment falls between two changes by
   * chance, and late in a database's life; this falls between each two of its first ones, in
   * its creation and first commits. {@code seed} chooses what each cut keeps.
   */
  public static void cutAtEachChange(PowerCutFs disk, IntFunction<String> location,
      int changes, long seed) throws Exception {
    Random random = new Random(seed);
    for (int n = 1; n <= changes; n++) {
      int change = n;
      disk.freezeAfter(change);
      int[] acknowledged = kill(location.apply(n), new int[THREADS], new Moment() {
        @Override
        public void await(CountDownLatch firstAck, StringBuilder printed)
            throws InterruptedException {
          assertThat(disk.awaitFrozen(Duration.ofSeconds(60)))
              .as("the disk stopped after change %d; the writer printed: %s", change, printed)
              .isTrue();
        }

        @Override
        public void killed() {
          disk.releaseFrozen();
        }
      });
      String lost = disk.cutPower(random);
      String context = String.format("the cut after change %d (seed %d), which lost: %s", n,
          seed, lost);
      try (Kv kv = Kv.open(location.apply(n))) {
        int[] found = check(kv, context, acknowledged);
        assertThat(kv.set(KvKey.of("after"), "the cut").ok()).as(context).isTrue();
        System.out.printf("cut after change %d: %d commits acknowledged, %d found%n", n,
            Arrays.stream(acknowledged).sum(), Arrays.stream(found).sum());
      }
    }
  }

  /** When to kill a writer, and what to do right after. */
  private interface Moment {
    /** Waits for the moment, given the writer's first acknowledgement and what else it said. */
    void await(CountDownLatch firstAck, StringBuilder printed) throws Exception;

    /** Done after the SIGKILL, before waiting for the writer to end. */
    default void killed() {}
  }

  /**
   * Starts a writer whose threads go on from {@code first}, waits for {@code moment}, and kills
   * it.
   *
   * @return per thread, one more than the highest index acknowledged (its {@code first} if none)
   */
  private static int[] kill(String location, int[] first, Moment moment) throws Exception {
    List<String> args = new ArrayList<>(List.of(location));
    Arrays.stream(first).forEach(i -> args.add(String.valueOf(i)));
    Process child = ChildJvm.start(KilledWriters.class, args.toArray(String[]::new));
    int[] acknowledged = first.clone();
    StringBuilder other = new StringBuilder(); // what the child printed besides its acks
    CountDownLatch firstAck = new CountDownLatch(1);
    Thread reader = new Thread(() -> read(child, acknowledged, other, firstAck));
    reader.start();
    try {
      moment.await(firstAck, other);
      assertThat(child.isAlive()).as("the writer still runs; it printed: %s", other).isTrue();
    } finally {
      child.destroyForcibly(); // SIGKILL
      moment.killed();
    }
    assertThat(child.waitFor(30, TimeUnit.SECONDS)).as("killed").isTrue();
    reader.join(30_000);
    assertThat(child.exitValue()).as("died of SIGKILL; it printed: %s", other).isEqualTo(137);
    synchronized (acknowledged) {
      return acknowledged.clone();
    }
  }

  private static void read(Process child, int[] acknowledged, StringBuilder other,
      CountDownLatch firstAck) {
    try (BufferedReader lines = new BufferedReader(new InputStreamReader(
        child.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line; (line = lines.readLine()) != null; ) {
        String[] ack = line.split(" ");
        if (ack.length == 2 && ack[0].matches("\\d+") && ack[1].matches("\\d+")) {
          synchronized (acknowledged) {
            int t = Integer.parseInt(ack[0]);
            acknowledged[t] = Math.max(acknowledged[t], Integer.parseInt(ack[1]) + 1);
          }
          firstAck.countDown();
        } else if (other.length() < 10_000) {
          other.append(line).append('\n');
        }
      }
    } catch (IOException e) {
      other.append("(reading the writer's output failed: ").append(e).append(")");
    }
  }

  /**
   * Checks what the writers left: each thread's sequence without a gap and holding at least
   * the commits {@code acknowledged} before the writer was stopped, each value as written, and
   * {@code ["count"]} equal to the number of entries, since each commit wrote both.
   *
   * @return per thread, how many commits its sequence holds
   */
  private static int[] check(Kv kv, String context, int[] acknowledged) {
    int[] found = new int[THREADS];
    int total = 0;
    for (int t = 0; t < THREADS; t++) {
      for (KvEntry e : kv.list(ListSelector.prefix(KvKey.of("w", t)))) {
        int i = e.key().part(2, Integer.class);
        assertThat(i).as("%s; thread %d: the next commit of its sequence", context, t)
            .isEqualTo(found[t]);
        Object expected = value(t, i);
        if (expected instanceof byte[] bytes) {
          assertThat((byte[]) e.value()).as("%s; %s", context, e.key()).isEqualTo(bytes);
        } else {
          assertThat(e.value()).as("%s; %s", context, e.key()).isEqualTo(expected);
        }
        found[t]++;
      }
      assertThat(found[t]).as("%s; thread %d: commits in the database against those"
          + " acknowledged before it was stopped", context, t)
          .isGreaterThanOrEqualTo(acknowledged[t]);
      total += found[t];
    }
    KvEntry count = kv.get(KvKey.of("count"));
    long counted = count.exists() ? ((KvU64) count.value()).unsignedBits() : 0;
    assertThat(counted).as("%s; the sums, written in the same commits as the entries", context)
        .isEqualTo(total);
    return found;
  }
}
