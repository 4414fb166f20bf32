package dev.kvasir.dag.engine;

import dev.kvasir.base.KvException;
import dev.kvasir.dag.cbor.DagCbor;
import dev.kvasir.dag.cid.Cid;
import dev.kvasir.dag.store.Block;
import dev.kvasir.dag.store.Blockstore;
import dev.kvasir.dag.store.Car;
import dev.kvasir.dag.store.CarReader;
import dev.kvasir.dag.store.MemoryBlockstore;
import dev.kvasir.dag.store.MissingBlockException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.function.BooleanSupplier;
import java.util.function.Function;

/**
 * Verified replication of a {@code dag:} database (docs/backup.md §4): the target gets the
 * source's commits it lacks, each with only the blocks it does not have, every block checked
 * against its hash as it is read. A commit is written whole or not at all, so a damaged or
 * truncated source leaves the target at the last commit that arrived whole.
 *
 * <p>Each method has a form that gives up once a {@code BooleanSupplier} answers true, asked
 * before each block, with {@link CancellationException}: the target then keeps the commits that
 * arrived whole, as after a damaged source (docs/backup.md §4).
 */
public final class Replication {
  private Replication() {}

  /**
   * What one replication did.
   *
   * @param commits commits added to the target
   * @param blocks blocks sent
   * @param bytes their bytes
   * @param head the target's newest commit afterwards
   */
  public record Result(int commits, long blocks, long bytes, Cid head) {}

  /** Brings the {@code dag:} database {@code to} (created if needed) up to {@code from}. */
  public static Result replicate(Path from, Path to) {
    return replicate(from, to, () -> false);
  }

  /** {@link #replicate(Path, Path)} that gives up once {@code stopRequested} answers true. */
  public static Result replicate(Path from, Path to, BooleanSupplier stopRequested) {
    try (BlockLog source = BlockLog.open(from, true)) {
      return into(to, target -> copy(source.commits(), source, target, stopRequested));
    }
  }

  /**
   * Writes the whole database {@code from} as a CAR whose root is its newest commit; the
   * commits before it are reached through each record's {@code previous} link.
   */
  public static Result toCar(Path from, OutputStream out) throws IOException {
    return toCar(from, out, () -> false);
  }

  /** {@link #toCar(Path, OutputStream)} that gives up once {@code stopRequested} answers true. */
  public static Result toCar(Path from, OutputStream out, BooleanSupplier stopRequested)
      throws IOException {
    try (BlockLog source = BlockLog.open(from, true)) {
      Cid head = source.lastCommit();
      if (head == null) {
        throw new KvException("KV/DAG database " + from + " has no commit to send");
      }
      CountingOutput counting = new CountingOutput(out, stopRequested);
      long blocks = Car.export(source, head, counting);
      return new Result(source.commits().size(), blocks, counting.count, head);
    }
  }

  /**
   * Brings the {@code dag:} database {@code to} up to the CAR in {@code in}, as written by
   * {@link #toCar}. A CAR cut short is read as far as it goes; what it lacks is then named.
   */
  public static Result fromCar(InputStream in, Path to) throws IOException {
    return fromCar(in, to, () -> false);
  }

  /** {@link #fromCar(InputStream, Path)} that gives up once {@code stopRequested} answers true. */
  public static Result fromCar(InputStream in, Path to, BooleanSupplier stopRequested)
      throws IOException {
    MemoryBlockstore blocks = new MemoryBlockstore();
    List<Cid> roots;
    IOException cut = null;
    try (CarReader car = new CarReader(in)) {
      roots = car.roots();
      try {
        for (Block b = car.next(); b != null; b = car.next()) {
          StopRequests.check(stopRequested, "replication");
          blocks.put(b);
        }
      } catch (IOException e) {
        cut = e;
      }
    }
    if (roots.size() != 1) {
      throw new KvException("the CAR has " + roots.size() + " roots; a KV/DAG database's CAR"
          + " has one, its newest commit");
    }
    try {
      return into(to, target -> copy(chain(blocks, roots.get(0)), blocks, target,
          stopRequested));
    } catch (MissingBlockException e) {
      if (cut != null) {
        throw new MissingBlockException(e.cid(), "missing: the CAR is cut short ("
            + cut.getMessage() + ")");
      }
      throw e;
    }
  }

  /**
   * Runs {@code replication} on the {@code dag:} database {@code to}, created if needed. When
   * this call created it and no commit arrived whole, the files it made are removed again: a
   * refused source (a damaged first commit, a CAR cut short before it) leaves behind no empty
   * database, which every later command would open only to say that it has no commit.
   */
  private static Result into(Path to, Function<BlockLog, Result> replication) {
    boolean newDirectory = Files.notExists(to);
    boolean newLog = Files.notExists(to.resolve(BlockLog.FILE_NAME));
    RuntimeException failure;
    try (BlockLog target = BlockLog.open(to, false)) {
      try {
        return replication.apply(target);
      } catch (RuntimeException e) {
        if (!newLog || !target.commits().isEmpty()) {
          throw e;
        }
        failure = e;
      }
    } // the writer's lock is released here, so that its file can go
    try {
      Files.deleteIfExists(to.resolve(BlockLog.FILE_NAME));
      Files.deleteIfExists(to.resolve(WriterLock.FILE_NAME));
      if (newDirectory) {
        Files.deleteIfExists(to);
      }
    } catch (IOException e) {
      failure.addSuppressed(e); // what stays is harmless; the replication's error matters
    }
    throw failure;
  }

  /** The commits ending at {@code head}, oldest first. */
  private static List<Cid> chain(Blockstore blocks, Cid head) {
    List<Cid> commits = new ArrayList<>();
    for (Cid at = head; at != null; at = CommitRecord.of(blocks.require(at)).previous()) {
      commits.add(at);
    }
    Collections.reverse(commits);
    return commits;
  }

  private static Result copy(List<Cid> commits, Blockstore source, BlockLog target,
      BooleanSupplier stopRequested) {
    List<Cid> have = target.commits();
    if (have.size() > commits.size() || !commits.subList(0, have.size()).equals(have)) {
      throw new KvException("the target has commits the source does not ("
          + (have.isEmpty() ? "" : "its newest is " + have.get(have.size() - 1)) + "); it is"
          + " not a replica of this source");
    }
    long blocks = 0;
    long bytes = 0;
    List<Cid> missing = commits.subList(have.size(), commits.size());
    for (Cid commit : missing) {
      Deque<Cid> todo = new ArrayDeque<>();
      todo.push(commit);
      try {
        while (!todo.isEmpty()) {
          StopRequests.check(stopRequested, "replication");
          Cid cid = todo.pop();
          if (target.has(cid)) {
            continue; // and so has everything it links to: a log holds whole commits
          }
          Block block = source.require(cid); // checked against its hash
          target.put(block);
          blocks++;
          bytes += block.size();
          if (cid.codec() == Cid.DAG_CBOR) {
            DagCbor.links(DagCbor.decode(block.bytes())).forEach(todo::push);
          }
        }
        target.commit(commit);
      } catch (RuntimeException e) {
        target.discard();
        throw e;
      }
    }
    return new Result(missing.size(), blocks, bytes, target.lastCommit());
  }

  /** Counts what passes through to {@code out}, and stops it when asked to. */
  private static final class CountingOutput extends OutputStream {
    private final OutputStream out;
    private final BooleanSupplier stopRequested;
    long count;

    CountingOutput(OutputStream out, BooleanSupplier stopRequested) {
      this.out = out;
      this.stopRequested = stopRequested;
    }

    @Override
    public void write(int b) throws IOException {
      StopRequests.check(stopRequested, "replication");
      out.write(b);
      count++;
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      StopRequests.check(stopRequested, "replication");
      out.write(b, off, len);
      count += len;
    }

    @Override
    public void flush() throws IOException {
      out.flush();
    }
  }
}
