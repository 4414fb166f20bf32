package dev.kvasir.dag.engine;

import dev.kvasir.dag.cid.Cid;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * The block log's index as of one commit, saved beside the log so that opening reads it and
 * then only the sections after that commit (docs/dag-engine.md §2). It is a cache: the log
 * decides whether it still describes the file, and one that is missing, damaged or out of date
 * is ignored and the log read whole instead.
 *
 * <p>Layout: the magic, the log's bytes it covers (ending with a commit marker), the log file's
 * identity, the commits' CIDs, the blocks' offsets, then their lengths, then their hashes (in
 * columns, which are read in bulk: read field by field, a log of 10 million blocks took 0.6 s
 * longer to open), and a CRC-32C of all that.
 *
 * @param end the bytes of the log it covers, up to and including the last commit's marker
 * @param fileKey the file system's identity of the log it was made from, or empty
 * @param commits the commit markers' CIDs up to {@code end}, oldest first
 * @param offsets per block, where its section's CID starts
 * @param lengths per block, the bytes of its CID and block together
 * @param hashes per block, the hash the index files its CID under
 */
record IndexFile(long end, String fileKey, List<Cid> commits, long[] offsets, int[] lengths,
    int[] hashes) {
  static final String FILE_NAME = "blocks.kvdag-index";
  private static final byte[] MAGIC = "KVDAGIX1".getBytes(StandardCharsets.US_ASCII);
  /** Bytes per block: offset, length and hash. */
  private static final int BLOCK_BYTES = 16;
  private static final int BUFFER = 1 << 20;

  /** Why an index file cannot be used: it is cut short, damaged or not one. */
  static final class Unusable extends Exception {
    private static final long serialVersionUID = 1L;

    Unusable(String message) {
      super(message);
    }
  }

  /**
   * Reads the index file {@code path}, or returns null if there is none.
   *
   * @throws Unusable if it is not a whole, undamaged index file
   */
  static IndexFile read(Path path) throws IOException, Unusable {
    try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ)) {
      Input in = new Input(channel);
      if (!Arrays.equals(in.bytes(MAGIC.length), MAGIC)) {
        throw new Unusable("not an index file of this version");
      }
      long end = in.need(8).getLong();
      String fileKey = new String(in.bytes(in.need(2).getShort() & 0xFFFF),
          StandardCharsets.UTF_8);
      int commitCount = in.need(4).getInt();
      if (commitCount < 1 || commitCount > in.size()) {
        throw new Unusable(commitCount + " commits");
      }
      List<Cid> commits = new ArrayList<>(commitCount);
      for (int i = 0; i < commitCount; i++) {
        commits.add(Cid.decode(in.bytes(in.need(1).get() & 0xFF)));
      }
      int blocks = in.need(4).getInt();
      if (blocks < 0 || (long) blocks * BLOCK_BYTES > in.size()) {
        throw new Unusable(blocks + " blocks in " + in.size() + " bytes");
      }
      long[] offsets = new long[blocks];
      int[] lengths = new int[blocks];
      int[] hashes = new int[blocks];
      in.longs(offsets);
      in.ints(lengths);
      in.ints(hashes);
      in.checkCrc();
      return new IndexFile(end, fileKey, commits, offsets, lengths, hashes);
    } catch (NoSuchFileException e) {
      return null;
    } catch (RuntimeException e) { // a CID that does not parse
      throw new Unusable(String.valueOf(e.getMessage()));
    }
  }

  /**
   * Writes the index file {@code path} for the {@code blocks} of an index and the log's first
   * {@code end} bytes: to a file beside it first, which then takes the name, so that a reader
   * opening meanwhile reads either the old file or the new one whole. It is not synced: one cut
   * short by a crash fails its checksum and is ignored.
   */
  static void write(Path path, long end, String fileKey, List<Cid> commits,
      BlockIndex.Prefix blocks) throws IOException {
    Path temporary = path.resolveSibling(path.getFileName() + ".new");
    try (FileChannel channel = FileChannel.open(temporary, StandardOpenOption.CREATE,
        StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE)) {
      Output out = new Output(channel);
      out.room(MAGIC.length).put(MAGIC);
      out.room(8).putLong(end);
      byte[] key = fileKey.getBytes(StandardCharsets.UTF_8);
      out.room(2 + key.length).putShort((short) key.length).put(key);
      out.room(4).putInt(commits.size());
      for (Cid commit : commits) {
        byte[] cid = commit.bytes();
        out.room(1 + cid.length).put((byte) cid.length).put(cid);
      }
      int count = blocks.count();
      out.room(4).putInt(count);
      for (int e = 0; e < count; e++) {
        out.room(8).putLong(blocks.offsets()[e]);
      }
      for (int e = 0; e < count; e++) {
        out.room(4).putInt(blocks.lengths()[e]);
      }
      for (int e = 0; e < count; e++) {
        out.room(4).putInt(blocks.hashes()[e]);
      }
      out.finish();
    } catch (IOException | RuntimeException e) {
      Files.deleteIfExists(temporary);
      throw e;
    }
    Files.move(temporary, path, StandardCopyOption.REPLACE_EXISTING,
        StandardCopyOption.ATOMIC_MOVE);
  }

  /** The file read through a buffer, each byte added to a CRC-32C as it is read. */
  private static final class Input {
    private final FileChannel channel;
    /** Where the checksum starts: the file's last 4 bytes. */
    private final long limit;
    private final ByteBuffer buffer = ByteBuffer.allocate(BUFFER).limit(0);
    private final CRC32C crc = new CRC32C();
    /** The file position of the buffer's limit. */
    private long position;

    Input(FileChannel channel) throws IOException, Unusable {
      this.channel = channel;
      this.limit = channel.size() - 4;
      if (limit < MAGIC.length) {
        throw new Unusable("only " + channel.size() + " bytes");
      }
    }

    long size() {
      return limit + 4;
    }

    /** The buffer, holding at least {@code n} bytes after its position. */
    ByteBuffer need(int n) throws IOException, Unusable {
      if (buffer.remaining() >= n) {
        return buffer;
      }
      buffer.compact();
      while (buffer.position() < n) {
        int start = buffer.position();
        buffer.limit((int) Math.min(buffer.capacity(), start + limit - position));
        int read = position < limit ? channel.read(buffer, position) : -1;
        if (read <= 0) {
          throw new Unusable("cut short");
        }
        crc.update(buffer.array(), start, read);
        position += read;
      }
      return buffer.flip();
    }

    byte[] bytes(int n) throws IOException, Unusable {
      byte[] bytes = new byte[n];
      need(n).get(bytes);
      return bytes;
    }

    void longs(long[] into) throws IOException, Unusable {
      for (int i = 0; i < into.length; ) {
        int n = Math.min(into.length - i, need(8).remaining() / 8);
        buffer.asLongBuffer().get(into, i, n);
        buffer.position(buffer.position() + n * 8);
        i += n;
      }
    }

    void ints(int[] into) throws IOException, Unusable {
      for (int i = 0; i < into.length; ) {
        int n = Math.min(into.length - i, need(4).remaining() / 4);
        buffer.asIntBuffer().get(into, i, n);
        buffer.position(buffer.position() + n * 4);
        i += n;
      }
    }

    /** Checks that all was read and that the checksum after it matches. */
    void checkCrc() throws IOException, Unusable {
      if (buffer.hasRemaining() || position != limit) {
        throw new Unusable((limit - position + buffer.remaining()) + " bytes too many");
      }
      ByteBuffer stored = ByteBuffer.allocate(4);
      while (stored.hasRemaining()) {
        if (channel.read(stored, limit + stored.position()) < 0) {
          throw new Unusable("cut short");
        }
      }
      if (stored.flip().getInt() != (int) crc.getValue()) {
        throw new Unusable("its checksum does not match");
      }
    }
  }

  /** The file written through a buffer, each byte added to a CRC-32C as it is written. */
  private static final class Output {
    private final FileChannel channel;
    private final ByteBuffer buffer = ByteBuffer.allocate(BUFFER);
    private final CRC32C crc = new CRC32C();

    Output(FileChannel channel) {
      this.channel = channel;
    }

    /** The buffer, with room for {@code n} bytes (at most its size). */
    ByteBuffer room(int n) throws IOException {
      if (buffer.remaining() < n) {
        flush();
      }
      return buffer;
    }

    /** Writes what is buffered and then the checksum. */
    void finish() throws IOException {
      flush();
      buffer.putInt((int) crc.getValue()).flip();
      while (buffer.hasRemaining()) {
        channel.write(buffer);
      }
    }

    private void flush() throws IOException {
      buffer.flip();
      crc.update(buffer.duplicate());
      while (buffer.hasRemaining()) {
        channel.write(buffer);
      }
      buffer.clear();
    }
  }
}
