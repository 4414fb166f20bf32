package dev.kvasir.dag.engine;

import dev.kvasir.base.FileErrorReason;
import dev.kvasir.base.KvException;
import dev.kvasir.base.KvUnavailableException;
import dev.kvasir.dag.cid.Cid;
import dev.kvasir.dag.store.Block;
import dev.kvasir.dag.store.Blockstore;
import dev.kvasir.dag.store.CorruptBlockException;
import dev.kvasir.engine.OpenedFile;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The blocks of a {@code dag:} database in one append-only file (docs/dag-engine.md §2):
 * blocks are staged by {@link #put} and written, followed by a commit marker, by one {@link
 * #commit} with one sync. On open, anything after the last complete marker (a torn write, a
 * commit that failed) is cut off, so the file always ends at a commit. Every block read is
 * checked against its CID.
 *
 * <p>Reads are thread-safe; {@code put}, {@code commit} and {@code discard} are called by one
 * writer at a time.
 */
final class BlockLog implements Blockstore, AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(BlockLog.class);

  static final String FILE_NAME = "blocks.kvdag";
  private static final byte[] MAGIC = "KVDAG01\n".getBytes(StandardCharsets.US_ASCII);
  private static final byte BLOCK = 'B';
  private static final byte COMMIT = 'C';
  /** Larger sections are refused as damage: far above any shard or Deno value. */
  private static final int MAX_SECTION = 64 << 20;

  /** Where a block's bytes are in the file. */
  private record Location(long offset, int length) {}

  private final Path file;
  /** The file as opened, to refuse commits once its path no longer names it. */
  private final Optional<OpenedFile> opened;
  /** The first damaged block read, reported until the log is opened again. */
  private volatile String damage;
  /** Replaced when an interrupted thread closed it (docs/dag-engine.md §2). */
  private volatile FileChannel channel;
  private final WriterLock lock; // null for a reader
  private volatile boolean closed;
  private final boolean readOnly;
  private final Map<Cid, Location> index = new HashMap<>();
  private final List<Cid> commits = new ArrayList<>();
  private final Map<Cid, Block> staged = new LinkedHashMap<>();
  private long end;

  private BlockLog(Path file, FileChannel channel, WriterLock lock) {
    this.file = file;
    this.opened = OpenedFile.at(file);
    this.channel = channel;
    this.lock = lock;
    this.readOnly = lock == null;
  }

  /** Opens (creating unless {@code readOnly}) the log in {@code dir}. */
  static BlockLog open(Path dir, boolean readOnly) {
    Path file = dir.resolve(FILE_NAME);
    try {
      if (readOnly) {
        if (!Files.exists(file)) {
          throw new KvException("no KV/DAG database at " + dir + " (no " + FILE_NAME + ")");
        }
        return load(file, FileChannel.open(file, StandardOpenOption.READ), null);
      }
      Files.createDirectories(dir);
      // One writer per log: a second would append over the first's end. Readers take no
      // lock, so a read-only server can follow a log that a replication writes.
      WriterLock lock = WriterLock.take(dir);
      try {
        boolean created = !Files.exists(file);
        FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE,
            StandardOpenOption.READ, StandardOpenOption.WRITE);
        if (created || channel.size() == 0) {
          channel.write(ByteBuffer.wrap(MAGIC), 0);
          channel.force(true);
        }
        return load(file, channel, lock);
      } catch (IOException | RuntimeException e) {
        lock.close();
        throw e;
      }
    } catch (IOException e) {
      throw new KvException("cannot open KV/DAG database " + dir + ": " + why(e, dir), e);
    }
  }

  /**
   * Why {@code e} failed, naming its file unless it is {@code dir}: Java's own message named the
   * directory twice ("… database ro/b: ro/b: Read-only file system"), and a missing file not at
   * all.
   */
  private static String why(IOException e, Path dir) {
    if (!(e instanceof FileSystemException f)) {
      return e.getMessage();
    }
    String reason = FileErrorReason.of(f);
    return f.getFile() == null
        || Path.of(f.getFile()).toAbsolutePath().equals(dir.toAbsolutePath()) ? reason
        : f.getFile() + ": " + reason;
  }

  private static BlockLog load(Path file, FileChannel channel, WriterLock lock)
      throws IOException {
    BlockLog blockLog = new BlockLog(file, channel, lock);
    try {
      blockLog.scan();
    } catch (IOException | RuntimeException e) {
      channel.close();
      throw e;
    }
    return blockLog;
  }

  /** Channel work, re-run on a fresh channel if another thread's interrupt closed this one. */
  private interface Io<T> {
    T run(FileChannel channel) throws IOException;
  }

  /**
   * Runs {@code io} on the channel without letting an interrupt of this thread close it (a
   * {@code FileChannel} closes itself when a thread blocked in it is interrupted, which would
   * end every reader's access): the interrupt status is set aside for the call and put back
   * after. An interrupt that arrives during the call still closes the channel; then a new one
   * is opened and the work runs again (docs/dag-engine.md §2).
   */
  private <T> T io(Io<T> io) throws IOException {
    boolean interrupted = Thread.interrupted();
    try {
      while (true) {
        FileChannel c = channel;
        try {
          return io.run(c);
        } catch (ClosedChannelException e) {
          if (closed) {
            throw e;
          }
          // A ClosedByInterruptException leaves this thread's interrupt set: keep it for later.
          interrupted |= Thread.interrupted();
          reopen(c);
        }
      }
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  private synchronized void reopen(FileChannel broken) throws IOException {
    if (closed || channel != broken) {
      return; // closed on purpose, or another thread reopened it already
    }
    channel = readOnly ? FileChannel.open(file, StandardOpenOption.READ)
        : FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
    log.debug("{}: reopened after an interrupt closed it", file);
  }

  /**
   * Empty while the path still names the file opened; else what became of it, and commits
   * must not be made (docs/dag-engine.md §2).
   */
  Optional<String> fileChange() {
    return opened.flatMap(OpenedFile::change);
  }

  /** A damaged block read since the log was opened, else {@link #fileChange()}. */
  Optional<String> problem() {
    return Optional.ofNullable(damage).or(this::fileChange);
  }

  /** Indexes every committed block and cuts off what follows the last commit. */
  private void scan() throws IOException {
    byte[] magic = new byte[MAGIC.length];
    if (channel.read(ByteBuffer.wrap(magic), 0) != MAGIC.length || !Arrays.equals(magic,
        MAGIC)) {
      throw new KvException(file + " is not a KV/DAG block log (bad magic)");
    }
    end = MAGIC.length;
    long size = channel.size();
    long committedEnd = indexFrom(size);
    if (committedEnd < size) {
      if (readOnly) {
        log.warn("{}: ignoring {} bytes after the last commit", file, size - committedEnd);
      } else {
        log.warn("{}: cutting off {} bytes after the last commit (an interrupted write)", file,
            size - committedEnd);
        channel.truncate(committedEnd);
        channel.force(true);
      }
    }
  }

  /**
   * For a read-only log: indexes the commits another process appended since the last look
   * (docs/dag-engine.md §2). A commit still being written is left for the next look.
   *
   * @return whether there were new commits
   */
  synchronized boolean refresh() {
    try {
      int before = commits.size();
      indexFrom(io(FileChannel::size));
      return commits.size() > before;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file, e);
    }
  }

  /** Indexes the complete commits between {@link #end} and {@code size}; moves {@code end}. */
  private long indexFrom(long size) throws IOException {
    long pos = end;
    long committedEnd = pos;
    Map<Cid, Location> pending = new HashMap<>();
    ByteBuffer head = ByteBuffer.allocate(5);
    while (pos + 5 <= size) {
      head.clear();
      readFully(head, pos);
      byte type = head.get(0);
      int length = head.getInt(1);
      if ((type != BLOCK && type != COMMIT) || length < 0 || length > MAX_SECTION
          || pos + 5 + length > size) {
        break; // a torn or damaged tail
      }
      byte[] section = new byte[length];
      readFully(ByteBuffer.wrap(section), pos + 5);
      ByteArrayInputStream in = new ByteArrayInputStream(section);
      Cid cid;
      try {
        cid = Cid.read(in);
      } catch (RuntimeException | EOFException e) {
        break;
      }
      int cidLength = length - in.available();
      if (type == BLOCK) {
        pending.put(cid, new Location(pos + 5 + cidLength, length - cidLength));
      } else {
        index.putAll(pending);
        pending.clear();
        commits.add(cid);
        committedEnd = pos + 5 + length;
      }
      pos += 5 + length;
    }
    end = committedEnd;
    return committedEnd;
  }

  private void readFully(ByteBuffer buffer, long position) throws IOException {
    int start = buffer.position();
    io(c -> {
      buffer.position(start);
      long at = position;
      while (buffer.hasRemaining()) {
        int n = c.read(buffer, at);
        if (n < 0) {
          throw new EOFException(file + " ends at " + at);
        }
        at += n;
      }
      return null;
    });
  }

  /** The commit markers' CIDs, oldest first. */
  synchronized List<Cid> commits() {
    return List.copyOf(commits);
  }

  /** The bytes of the file up to its last commit. */
  synchronized long committedBytes() {
    return end;
  }

  /** The newest commit's CID, or null for a new database. */
  synchronized Cid lastCommit() {
    return commits.isEmpty() ? null : commits.get(commits.size() - 1);
  }

  @Override
  public Block get(Cid cid) {
    Location at;
    synchronized (this) {
      Block block = staged.get(cid);
      if (block != null) {
        return block;
      }
      at = index.get(cid);
    }
    if (at == null) {
      return null;
    }
    byte[] bytes = new byte[at.length()];
    try {
      readFully(ByteBuffer.wrap(bytes), at.offset());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read block " + cid + " from " + file, e);
    }
    try {
      return Block.verified(cid, bytes);
    } catch (CorruptBlockException e) {
      CorruptBlockException named = new CorruptBlockException(cid, "damaged in " + file
          + " at byte " + at.offset() + ": " + e.getMessage());
      if (damage == null) {
        damage = named.getMessage() + "; restore the database from a backup or replica";
      }
      throw named;
    }
  }

  @Override
  public synchronized boolean has(Cid cid) {
    return staged.containsKey(cid) || index.containsKey(cid);
  }

  /** Stages {@code block} for the next {@link #commit}. */
  @Override
  public synchronized void put(Block block) {
    if (!index.containsKey(block.cid())) {
      staged.putIfAbsent(block.cid(), block);
    }
  }

  /** Blocks are never deleted from a log. */
  @Override
  public void delete(Cid cid) {
    throw new UnsupportedOperationException("a KV/DAG block log only grows");
  }

  /**
   * Writes the staged blocks and a marker naming {@code commit} (a staged or stored block),
   * then syncs. If the write fails, the file is cut back to where it was and nothing is kept.
   */
  synchronized void commit(Cid commit) {
    if (readOnly) {
      throw new KvException(file + " is open for reading only");
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    Map<Cid, Location> added = new HashMap<>();
    for (Block block : staged.values()) {
      byte[] cid = block.cid().bytes();
      byte[] bytes = block.bytes();
      section(out, BLOCK, cid, bytes);
      added.put(block.cid(), new Location(end + out.size() - bytes.length, bytes.length));
    }
    section(out, COMMIT, commit.bytes(), new byte[0]);
    byte[] bytes = out.toByteArray();
    try {
      io(c -> {
        ByteBuffer buffer = ByteBuffer.wrap(bytes); // again from the start if re-run
        long at = end;
        while (buffer.hasRemaining()) {
          at += c.write(buffer, at);
        }
        c.force(false);
        return null;
      });
    } catch (IOException e) {
      boolean cutBack = true;
      try {
        io(c -> c.truncate(end));
      } catch (IOException again) {
        e.addSuppressed(again);
        cutBack = false; // the marker may be on disk: the next open would find the commit
      }
      staged.clear();
      // A full disk or a failing device: the same commit succeeds once the cause is gone.
      throw new KvUnavailableException("cannot write to " + file + " (" + e.getMessage()
          + "); the commit was " + (cutBack ? "not" : "perhaps") + " applied. Retry once the"
          + " cause is gone.", !cutBack, e);
    }
    end += out.size();
    index.putAll(added);
    commits.add(commit);
    staged.clear();
  }

  /** Drops the staged blocks (a transaction that did not commit). */
  synchronized void discard() {
    staged.clear();
  }

  private static void section(ByteArrayOutputStream out, byte type, byte[] cid, byte[] bytes) {
    int length = cid.length + bytes.length;
    out.write(type);
    out.write(length >>> 24);
    out.write(length >>> 16);
    out.write(length >>> 8);
    out.write(length);
    out.writeBytes(cid);
    out.writeBytes(bytes);
  }

  /** Synchronized with {@link #reopen}, so that no channel opened after it is left open. */
  @Override
  public synchronized void close() {
    closed = true;
    try {
      channel.close();
    } catch (IOException e) {
      log.warn("closing {}: {}", file, e.getMessage());
    } finally {
      if (lock != null) {
        lock.close();
      }
    }
  }
}
