package dev.kvasir.dag.engine;

import dev.kvasir.base.FileErrorReason;
import dev.kvasir.base.KvException;
import dev.kvasir.base.KvUnavailableException;
import dev.kvasir.dag.cid.Cid;
import dev.kvasir.dag.store.Block;
import dev.kvasir.dag.store.Blockstore;
import dev.kvasir.dag.store.CorruptBlockException;
import dev.kvasir.engine.OpenedFile;
import dev.kvasir.engine.Outcomes;
import java.io.ByteArrayInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.ToIntFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The blocks of a {@code dag:} database in one append-only file (docs/dag-engine.md §2):
 * blocks are staged by {@link #put} and written, followed by a commit marker, by one {@link
 * #commit} with one sync. A transaction whose staged blocks outgrow {@link #SPILL_BYTES} writes
 * them past the last commit as it goes, unsynced and without a marker, so that its memory does
 * not grow with it. On open, anything after the last complete marker (a torn write, a commit
 * that failed) is cut off, so the file always ends at a commit. Where each block lies comes from
 * the index file a writer saves beside the log ({@link IndexFile}), when that file describes the
 * log, and from the sections after it. Every block read is checked against its CID.
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
  /** More than the longest binary CID (a version, codec and hash varint, 128-byte digest). */
  private static final int MAX_CID = 160;
  /**
   * Staged bytes beyond which a transaction's blocks go to the file before its commit: far
   * above one commit within Deno's limits, so only loads, restores and backup copies spill.
   */
  static final int SPILL_BYTES = 8 << 20;
  /** The buffer through which sections are written: a commit of more takes several writes. */
  private static final int WRITE_CHUNK = 1 << 20;
  /** The buffer through which opening reads the sections' heads and CIDs. */
  private static final int SCAN_WINDOW = 1 << 20;
  /** The window of sections a thread reading them in file order reads at once. */
  private static final int READ_AHEAD = 64 << 10;
  /**
   * The bytes of the log beyond the index file's end past which a writer saves a new one when
   * it opens or closes the log: reading that much on opening takes about a tenth of a second.
   */
  static final long INDEX_FILE_AFTER = 16 << 20;
  /**
   * Opening checks the index file's blocks at this many equal steps from its first to its last
   * against the log: 17 blocks.
   */
  private static final int INDEX_FILE_SAMPLES = 16;

  private final Path file;
  /** The file as opened, to refuse commits once its path no longer names it. */
  private final Optional<OpenedFile> opened;
  /** The first damaged block read, reported until the log is opened again. */
  private volatile String damage;
  /** Every read and write of the file, kept usable across interrupts (docs/dag-engine.md §2). */
  private final LogChannel channel;
  private final WriterLock lock; // null for a reader
  private boolean closed;
  private final boolean readOnly;
  /**
   * Every committed block, then those the transaction in progress wrote after {@link #end}
   * (entries from {@link #committedBlocks} on), which it forgets if that transaction does not
   * commit. Only committed roots lead a read to a block, so those are never asked for.
   */
  private final BlockIndex index = new BlockIndex();
  private final ThreadLocal<ReadAhead> readAhead = ThreadLocal.withInitial(ReadAhead::new);
  /** The hash the index files a CID under: {@link Cid#hashCode}, or one tests make collide. */
  private final ToIntFunction<Cid> hashOf;
  private final long indexFileAfter;
  /**
   * The bytes of the log that the index file covers: the magic's if there is none. Written by
   * the thread that saved the file.
   */
  private volatile long indexFileEnd = MAGIC.length;
  /** The last save of the index file started while the log stays open, or null. */
  private CompletableFuture<Void> indexFileSave;
  private int committedBlocks;
  private final List<Cid> commits = new ArrayList<>();
  private final Map<Cid, Block> staged = new LinkedHashMap<>();
  private long stagedBytes;
  private long end;
  /** Where the blocks the transaction in progress wrote end (at {@link #end} if none). */
  private long tail;
  /** Whether bytes of a discarded transaction may still follow {@link #end}. */
  private boolean dirtyTail;

  private BlockLog(Path file, FileChannel channel, WriterLock lock, ToIntFunction<Cid> hashOf,
      long indexFileAfter) {
    this.file = file;
    this.hashOf = hashOf;
    this.indexFileAfter = indexFileAfter;
    this.opened = OpenedFile.at(file);
    this.lock = lock;
    this.readOnly = lock == null;
    this.channel = new LogChannel(file, channel, readOnly);
  }

  /** Opens (creating unless {@code readOnly}) the log in {@code dir}. */
  static BlockLog open(Path dir, boolean readOnly) {
    return open(dir, readOnly, Cid::hashCode, INDEX_FILE_AFTER);
  }

  /**
   * Opens the log with the index filing CIDs under {@code hashOf}, so that a test can make
   * different CIDs share a hash, and saving the index file past {@code indexFileAfter} bytes
   * not in it, so that a test can have one saved for a small log.
   */
  static BlockLog open(Path dir, boolean readOnly, ToIntFunction<Cid> hashOf,
      long indexFileAfter) {
    Path file = dir.resolve(FILE_NAME);
    try {
      if (readOnly) {
        if (!Files.exists(file)) {
          throw new KvException("no KV/DAG database at " + dir + " (no " + FILE_NAME + ")");
        }
        return load(file, FileChannel.open(file, StandardOpenOption.READ), null, hashOf,
            indexFileAfter);
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
        return load(file, channel, lock, hashOf, indexFileAfter);
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

  private static BlockLog load(Path file, FileChannel channel, WriterLock lock,
      ToIntFunction<Cid> hashOf, long indexFileAfter) throws IOException {
    BlockLog blockLog = new BlockLog(file, channel, lock, hashOf, indexFileAfter);
    try {
      blockLog.scan();
    } catch (IOException | RuntimeException e) {
      channel.close();
      throw e;
    }
    return blockLog;
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

  /**
   * Indexes every committed block, from the index file and the sections after it, and cuts off
   * what follows the last commit.
   */
  private void scan() throws IOException {
    byte[] magic = new byte[MAGIC.length];
    if (channel.readAt(ByteBuffer.wrap(magic), 0) != MAGIC.length || !Arrays.equals(magic,
        MAGIC)) {
      throw new KvException(file + " is not a KV/DAG block log (bad magic)");
    }
    end = MAGIC.length;
    long size = channel.size();
    useIndexFile(size);
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
    saveIndexFileIfBehind();
  }

  private Path indexFile() {
    return file.resolveSibling(IndexFile.FILE_NAME);
  }

  /**
   * Takes the index of the log up to the index file's end from that file, if it describes this
   * log (docs/dag-engine.md §2); else leaves the index empty for the whole log to be read.
   */
  private void useIndexFile(long size) {
    IndexFile saved;
    try {
      saved = IndexFile.read(indexFile());
      if (saved == null) {
        return;
      }
      String mismatch = mismatch(saved, size);
      if (mismatch != null) {
        throw new IndexFile.Unusable(mismatch);
      }
    } catch (IOException | IndexFile.Unusable e) {
      log.info("{}: not using {} ({}); reading the whole log", file, IndexFile.FILE_NAME,
          e.getMessage());
      return;
    }
    index.replaceWith(saved.offsets(), saved.lengths(), saved.hashes());
    committedBlocks = index.size();
    commits.addAll(saved.commits());
    end = saved.end();
    indexFileEnd = saved.end();
  }

  /**
   * Why {@code saved} does not describe this log of {@code size} bytes, or null if it does: it
   * must have been made from this very file (a copy, or a log written anew in its place, has
   * another identity), end where the file has its last commit's marker, and have a sample of
   * its blocks where it says, under the hash this log files them under.
   */
  private String mismatch(IndexFile saved, long size) throws IOException {
    if (saved.end() > size) {
      return "it covers " + saved.end() + " bytes of a log of " + size;
    }
    if (!saved.fileKey().equals(fileKey())) {
      return "it was made from another file";
    }
    byte[] last = saved.commits().get(saved.commits().size() - 1).bytes();
    long markerAt = saved.end() - 5 - last.length;
    ByteBuffer marker = ByteBuffer.allocate(5 + last.length);
    if (markerAt < MAGIC.length || channel.readAt(marker, markerAt) < marker.capacity()
        || marker.get(0) != COMMIT || marker.getInt(1) != last.length
        || !Arrays.equals(marker.array(), 5, marker.capacity(), last, 0, last.length)) {
      return "the log has no marker of its last commit at its end";
    }
    int blocks = saved.offsets().length;
    for (int i = 0; i <= INDEX_FILE_SAMPLES && blocks > 0; i++) {
      int e = (int) ((long) i * (blocks - 1) / INDEX_FILE_SAMPLES);
      if (!blockAt(saved.offsets()[e], saved.lengths()[e], saved.hashes()[e], saved.end())) {
        return "block " + e + " is not where it says";
      }
    }
    return null;
  }

  /**
   * Whether the log holds, below {@code limit}, a block section of {@code length} bytes from its
   * CID at {@code offset}, whose CID has the hash {@code hash}.
   */
  private boolean blockAt(long offset, int length, int hash, long limit) throws IOException {
    if (offset < MAGIC.length + 5 || length < 0 || offset + length > limit) {
      return false;
    }
    ByteBuffer head = ByteBuffer.allocate(5 + Math.min(length, MAX_CID));
    if (channel.readAt(head, offset - 5) < head.capacity() || head.get(0) != BLOCK
        || head.getInt(1) != length) {
      return false;
    }
    try {
      return hashOf.applyAsInt(Cid.decodePrefix(head.array(), 5)) == hash;
    } catch (RuntimeException e) {
      return false;
    }
  }

  /** The file system's identity of the log as opened (device and inode on Linux), or empty. */
  private String fileKey() {
    return opened.map(OpenedFile::identity).orElse("");
  }

  /**
   * For a writer: saves the index as of the last commit to the index file when that file lags
   * the log by {@link #indexFileAfter} bytes or more. A failure only costs the next opening its
   * time, so it is logged, not thrown.
   */
  private void saveIndexFileIfBehind() {
    if (!readOnly && !commits.isEmpty() && end - indexFileEnd >= indexFileAfter) {
      saveIndexFile(end, commits, index.prefix(committedBlocks));
    }
  }

  /**
   * For a writer, after a commit: once the log has grown past the index file by an eighth of
   * what the file covers (and at least {@link #indexFileAfter}), saves a new one on a thread of
   * its own, so that a writer that is killed leaves a file that covers all but a bounded part of
   * its log, and the commits do not wait for it. With 16 bytes of the file for a section of a
   * few hundred bytes, the eighth writes about half a byte of index file per byte of log.
   */
  private void saveIndexFileSoonIfBehind() {
    long covered = indexFileEnd;
    if ((indexFileSave != null && !indexFileSave.isDone())
        || end - covered < Math.max(indexFileAfter, covered / 8)) {
      return;
    }
    long savedEnd = end;
    List<Cid> savedCommits = List.copyOf(commits);
    BlockIndex.Prefix blocks = index.prefix(committedBlocks);
    indexFileSave = CompletableFuture.runAsync(
        () -> saveIndexFile(savedEnd, savedCommits, blocks), task -> {
          Thread saver = new Thread(task, "kvasir-dag-index-file");
          saver.setDaemon(true);
          saver.start();
        });
  }

  /**
   * Saves the index file for the log's first {@code savedEnd} bytes, unless the log's path no
   * longer names the file opened. A failure only costs the next opening its time, so it is
   * logged, not thrown.
   */
  private void saveIndexFile(long savedEnd, List<Cid> savedCommits, BlockIndex.Prefix blocks) {
    if (fileChange().isPresent()) {
      return;
    }
    try {
      IndexFile.write(indexFile(), savedEnd, fileKey(), savedCommits, blocks);
      indexFileEnd = savedEnd;
    } catch (IOException | RuntimeException e) {
      log.warn("{}: cannot save {} ({}); the next opening reads the whole log", file,
          IndexFile.FILE_NAME, e.getMessage());
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
      indexFrom(channel.size());
      return commits.size() > before;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file, e);
    }
  }

  /**
   * Indexes the complete commits between {@link #end} and {@code size}; moves {@code end}. The
   * file is read through a window of {@link #SCAN_WINDOW} bytes, from which each section's head
   * and CID are taken: two reads a section made opening a log of a million blocks take seconds.
   */
  private long indexFrom(long size) throws IOException {
    long pos = end;
    long committedEnd = pos;
    ByteBuffer window = ByteBuffer.allocate((int) Math.min(SCAN_WINDOW, size - pos + 1));
    long windowAt = pos;
    int windowLength = 0;
    while (pos + 5 <= size) {
      long need = Math.min(5 + MAX_CID, size - pos);
      if (pos + need > windowAt + windowLength) {
        windowAt = pos;
        windowLength = channel.readUpTo(window, pos, size);
        if (windowLength < need) {
          break; // the file is shorter than it was: a discarded transaction was cut off
        }
      }
      int at = (int) (pos - windowAt);
      byte type = window.get(at);
      int length = window.getInt(at + 1);
      if ((type != BLOCK && type != COMMIT) || length < 0 || length > MAX_SECTION
          || pos + 5 + length > size) {
        break; // a torn or damaged tail
      }
      // The CID only: a block's bytes are read, and checked, when it is read.
      ByteArrayInputStream in = new ByteArrayInputStream(window.array(), at + 5,
          Math.min(length, MAX_CID));
      Cid cid;
      try {
        cid = Cid.read(in);
      } catch (RuntimeException | EOFException e) {
        break;
      }
      if (type == BLOCK) {
        index.add(hashOf.applyAsInt(cid), pos + 5, length);
      } else {
        committedBlocks = index.size();
        commits.add(cid);
        committedEnd = pos + 5 + length;
      }
      pos += 5 + length;
    }
    index.truncate(committedBlocks); // the blocks of a commit without its marker
    end = committedEnd;
    tail = committedEnd;
    return committedEnd;
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

  /**
   * Reads the block {@code cid}: the sections the index names for its hash are read whole
   * (outside the lock, so readers read in parallel), and the one that starts with its CID is
   * the block. A thread reading in file order usually asks for the section after the one it
   * read last, which its read-ahead window holds: that one is taken without the index.
   */
  @Override
  public Block get(Cid cid) {
    Block next = nextInWindow(cid);
    if (next != null) {
      return next;
    }
    long[] offsets;
    int[] lengths;
    long committedEnd;
    synchronized (this) {
      Block block = staged.get(cid);
      if (block != null) {
        return block;
      }
      int[] candidates = index.candidates(hashOf.applyAsInt(cid));
      offsets = new long[candidates.length];
      lengths = new int[candidates.length];
      for (int i = 0; i < candidates.length; i++) {
        offsets[i] = index.offset(candidates[i]);
        lengths[i] = index.length(candidates[i]);
      }
      committedEnd = end;
    }
    byte[] cidBytes = cid.bytes();
    for (int i = 0; i < offsets.length; i++) {
      byte[] bytes;
      try {
        bytes = readBlock(offsets[i], lengths[i], cidBytes, committedEnd);
      } catch (EOFException e) {
        if (offsets[i] >= committedEnd) {
          continue; // another CID's block of a transaction that was discarded meanwhile
        }
        throw new UncheckedIOException("cannot read block " + cid + " from " + file, e);
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read block " + cid + " from " + file, e);
      }
      if (bytes != null) {
        return verified(cid, bytes, offsets[i] + cidBytes.length);
      }
    }
    return null;
  }

  /**
   * The bytes of the block in the {@code length}-byte section at {@code offset}, or null if the
   * section does not start with {@code cid}. A thread that reads sections one after another (a
   * list, in the order a copy or restore wrote its entries) takes them from a window of {@link
   * #READ_AHEAD} bytes it read at once; other reads read just the section. The window holds only
   * committed bytes, which never change.
   */
  private byte[] readBlock(long offset, int length, byte[] cid, long committedEnd)
      throws IOException {
    ReadAhead ahead = readAhead.get();
    long forward = offset - ahead.next;
    ahead.next = offset + length;
    boolean inWindow = offset >= ahead.at && offset + length <= ahead.at + ahead.length;
    if (!inWindow && forward >= 0 && forward < READ_AHEAD && length < READ_AHEAD
        && offset + length <= committedEnd) {
      if (ahead.bytes == null) {
        ahead.bytes = new byte[READ_AHEAD];
      }
      ahead.at = offset;
      ahead.length = 0; // until the read succeeds
      ahead.length = channel.readAt(ByteBuffer.wrap(ahead.bytes, 0,
          (int) Math.min(READ_AHEAD, committedEnd - offset)), offset);
      inWindow = ahead.length >= length;
    }
    if (inWindow) {
      return blockAfter(cid, ahead.bytes, (int) (offset - ahead.at), length);
    }
    byte[] section = new byte[length];
    channel.readFully(ByteBuffer.wrap(section), offset);
    return blockAfter(cid, section, 0, length);
  }

  /** The bytes after {@code cid} in the section at {@code bytes[from]}, or null if not its. */
  private static byte[] blockAfter(byte[] cid, byte[] bytes, int from, int length) {
    return length >= cid.length
        && Arrays.equals(bytes, from, from + cid.length, cid, 0, cid.length)
        ? Arrays.copyOfRange(bytes, from + cid.length, from + length) : null;
  }

  /**
   * The block {@code cid} if it is the section right after the one this thread read last, and
   * its read-ahead window holds that section whole; else null. That position is a section's
   * head (the index gave the last one's start and length), and the window holds only committed
   * sections, so a block section there that starts with {@code cid} is that block.
   */
  private Block nextInWindow(Cid cid) {
    ReadAhead ahead = readAhead.get();
    long head = ahead.next;
    if (ahead.bytes == null || head < ahead.at || head + 5 > ahead.at + ahead.length) {
      return null;
    }
    int at = (int) (head - ahead.at);
    int length = ByteBuffer.wrap(ahead.bytes).getInt(at + 1);
    if (ahead.bytes[at] != BLOCK || length < 0 || head + 5 + length > ahead.at + ahead.length) {
      return null;
    }
    byte[] bytes = blockAfter(cid.bytes(), ahead.bytes, at + 5, length);
    if (bytes == null) {
      return null;
    }
    ahead.next = head + 5 + length;
    return verified(cid, bytes, head + 5 + cid.byteLength());
  }

  /** A thread's last window of sections read ahead, and where its last read ended. */
  private static final class ReadAhead {
    long at;
    int length;
    byte[] bytes;
    long next = -1;
  }

  /** The block {@code cid}, whose bytes were read at {@code offset}, checked against it. */
  private Block verified(Cid cid, byte[] bytes, long offset) {
    try {
      return Block.verified(cid, bytes);
    } catch (CorruptBlockException e) {
      CorruptBlockException named = new CorruptBlockException(cid, "damaged in " + file
          + " at byte " + offset + ": " + e.getMessage());
      if (damage == null) {
        damage = named.getMessage() + "; restore the database from a backup or replica";
      }
      throw named;
    }
  }

  @Override
  public synchronized boolean has(Cid cid) {
    return staged.containsKey(cid) || indexed(cid);
  }

  /** Whether the index has {@code cid}: one of the sections filed under its hash starts so. */
  private boolean indexed(Cid cid) {
    int[] candidates = index.candidates(hashOf.applyAsInt(cid));
    if (candidates.length == 0) {
      return false;
    }
    byte[] cidBytes = cid.bytes();
    byte[] start = new byte[cidBytes.length];
    for (int e : candidates) {
      if (index.length(e) < start.length) {
        continue;
      }
      try {
        channel.readFully(ByteBuffer.wrap(start), index.offset(e));
      } catch (IOException ex) {
        throw new UncheckedIOException("cannot read block " + cid + " from " + file, ex);
      }
      if (Arrays.equals(start, cidBytes)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Stages {@code block} for the next {@link #commit}; past {@link #SPILL_BYTES} of staged
   * blocks, writes them after the last commit.
   *
   * @throws KvUnavailableException if they cannot be written (a full disk): the transaction
   *     fails, and nothing of it stays
   */
  @Override
  public synchronized void put(Block block) {
    if (indexed(block.cid()) || staged.putIfAbsent(block.cid(), block) != null) {
      return;
    }
    stagedBytes += block.size();
    if (stagedBytes > SPILL_BYTES) {
      try {
        append(null);
      } catch (IOException e) {
        throw failed(e, false);
      }
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
    try {
      append(commit);
      channel.force(false);
    } catch (IOException e) {
      throw failed(e, true);
    }
    end = tail;
    committedBlocks = index.size();
    commits.add(commit);
    saveIndexFileSoonIfBehind();
  }

  /**
   * Writes the staged blocks (then the marker naming {@code commit}, unless null) at {@link
   * #tail}, unsynced, moves them from staged to the index, and moves the tail past them.
   */
  private void append(Cid commit) throws IOException {
    cutDirtyTail();
    ByteBuffer buffer = ByteBuffer.allocate((int) Math.min(WRITE_CHUNK,
        stagedBytes + staged.size() * 64L + (commit == null ? 0 : 64)));
    long position = tail; // of the buffer's first byte in the file
    for (Block block : staged.values()) {
      position = section(buffer, position, BLOCK, block.cid(), block);
      int length = block.cid().byteLength() + block.size();
      index.add(hashOf.applyAsInt(block.cid()), position + buffer.position() - length, length);
    }
    if (commit != null) {
      position = section(buffer, position, COMMIT, commit, null);
    }
    tail = flush(buffer, position);
    staged.clear();
    stagedBytes = 0;
  }

  /**
   * Adds one section, {@code cid} followed by {@code block}'s bytes (none for a marker), to
   * {@code buffer}, writing the buffer out first if it lacks room; a section larger than the
   * buffer is written on its own.
   *
   * @return the file position of the buffer's first byte after the call
   */
  private long section(ByteBuffer buffer, long position, byte type, Cid cid, Block block)
      throws IOException {
    byte[] cidBytes = cid.bytes();
    int length = cidBytes.length + (block == null ? 0 : block.size());
    if (buffer.remaining() < 5 + length) {
      position = flush(buffer, position);
    }
    ByteBuffer into = buffer.remaining() >= 5 + length ? buffer
        : ByteBuffer.allocate(5 + length);
    into.put(type).putInt(length).put(cidBytes);
    if (block != null) {
      block.writeTo(into);
    }
    if (into != buffer) {
      position = flush(into, position);
    }
    return position;
  }

  /** Writes and clears {@code buffer} at {@code position}; returns the position after it. */
  private long flush(ByteBuffer buffer, long position) throws IOException {
    buffer.flip();
    long after = position + buffer.remaining();
    channel.writeAt(buffer, position);
    buffer.clear();
    return after;
  }

  /**
   * Cuts off what the failed write of a transaction left after the last commit and drops the
   * transaction; if the cut fails too, a write that included the marker ({@code withMarker})
   * may be on disk as a commit, which the next open would find.
   */
  private KvUnavailableException failed(IOException e, boolean withMarker) {
    dropTransaction();
    dirtyTail = true;
    boolean cutBack = true;
    try {
      cutDirtyTail();
    } catch (IOException again) {
      e.addSuppressed(again);
      cutBack = false;
    }
    boolean maybeApplied = withMarker && !cutBack;
    // A full disk or a failing device: the same commit succeeds once the cause is gone.
    return new KvUnavailableException("cannot write to " + file + " (" + e.getMessage()
        + "); the commit was " + (maybeApplied ? "perhaps" : "not") + " applied. Retry once"
        + " the cause is gone.", maybeApplied, e);
  }

  /**
   * Drops the staged blocks (a transaction that did not commit), and cuts off those it wrote
   * already; if that cut fails, the next write makes it first.
   */
  synchronized void discard() {
    boolean wrote = tail > end;
    dropTransaction();
    if (wrote) {
      dirtyTail = true;
      try {
        cutDirtyTail();
      } catch (IOException e) {
        log.warn("{}: cannot cut off a discarded transaction's blocks yet: {}", file,
            e.getMessage());
      }
    }
  }

  private void dropTransaction() {
    staged.clear();
    stagedBytes = 0;
    index.truncate(committedBlocks);
    tail = end;
  }

  /**
   * Cuts off the bytes a discarded transaction may have left, before anything else is
   * written: a later, shorter commit would otherwise be followed by their remains.
   */
  private void cutDirtyTail() throws IOException {
    if (dirtyTail) {
      channel.truncate(end);
      dirtyTail = false;
    }
  }

  @Override
  public synchronized void close() {
    if (!closed) {
      if (indexFileSave != null) {
        // It takes no lock, so it ends while this holds it; an interrupt does not cut the wait
        // short, since the file must be whole before the writer's lock goes.
        Outcomes.awaitUninterruptibly(indexFileSave, "saving " + IndexFile.FILE_NAME);
      }
      saveIndexFileIfBehind();
    }
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
