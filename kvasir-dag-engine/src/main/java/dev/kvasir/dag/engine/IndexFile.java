package dev.kvasir.dag.engine;

import dev.kvasir.dag.cid.Cid;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
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
import java.util.zip.CheckedOutputStream;

/**
 * The block log's index as of one commit, saved beside the log so that opening reads it and
 * then only the sections after that commit (docs/dag-engine.md §2). It is a cache: the log
 * decides whether it still describes the file, and one that is missing, damaged or out of date
 * is ignored and the log read whole instead.
 *
 * <p>Layout: the magic, the log's bytes it covers (ending with a commit marker), the log file's
 * identity, the commits' CIDs, per block its offset, length and hash, and a CRC-32C of all
 * that.
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
  private static final int BUFFER = 64 << 10;

  /** Why an index file cannot be used: it is cut short, damaged or not one. */
  static final class Unusable extends Exception {
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
      long size = channel.size();
      if (size < MAGIC.length + 8 + 2 + 4 + 4 + 4) {
        throw new Unusable("only " + size + " bytes");
      }
      checkCrc(channel, size);
      // Not closed: closing the stream would close the channel, which try closes.
      InputStream stream = new BufferedInputStream(Channels.newInputStream(channel.position(0)),
          BUFFER);
      DataInputStream in = new DataInputStream(stream);
      byte[] magic = new byte[MAGIC.length];
      in.readFully(magic);
      if (!Arrays.equals(magic, MAGIC)) {
        throw new Unusable("bad magic");
      }
      long end = in.readLong();
      String fileKey = in.readUTF();
      int commitCount = in.readInt();
      if (commitCount < 1 || commitCount > size) {
        throw new Unusable(commitCount + " commits");
      }
      List<Cid> commits = new ArrayList<>(commitCount);
      for (int i = 0; i < commitCount; i++) {
        byte[] cid = new byte[in.readUnsignedByte()];
        in.readFully(cid);
        commits.add(Cid.read(new ByteArrayInputStream(cid)));
      }
      int blocks = in.readInt();
      if (blocks < 0 || (long) blocks * BLOCK_BYTES > size) {
        throw new Unusable(blocks + " blocks in " + size + " bytes");
      }
      long[] offsets = new long[blocks];
      int[] lengths = new int[blocks];
      int[] hashes = new int[blocks];
      for (int e = 0; e < blocks; e++) {
        offsets[e] = in.readLong();
        lengths[e] = in.readInt();
        hashes[e] = in.readInt();
      }
      return new IndexFile(end, fileKey, commits, offsets, lengths, hashes);
    } catch (NoSuchFileException e) {
      return null;
    } catch (RuntimeException e) { // a CID that does not parse, past a matching CRC
      throw new Unusable(e.getMessage());
    }
  }

  /** Checks the CRC-32C in the last 4 bytes against the bytes before them. */
  private static void checkCrc(FileChannel channel, long size) throws IOException, Unusable {
    CRC32C crc = new CRC32C();
    ByteBuffer buffer = ByteBuffer.allocate(BUFFER);
    long at = 0;
    while (at < size - 4) {
      buffer.clear().limit((int) Math.min(BUFFER, size - 4 - at));
      int n = channel.read(buffer, at);
      if (n < 0) {
        throw new Unusable("cut short");
      }
      crc.update(buffer.flip());
      at += n;
    }
    ByteBuffer stored = ByteBuffer.allocate(4);
    while (stored.hasRemaining()) {
      if (channel.read(stored, size - 4 + stored.position()) < 0) {
        throw new Unusable("cut short");
      }
    }
    if (stored.flip().getInt() != (int) crc.getValue()) {
      throw new Unusable("its checksum does not match");
    }
  }

  /**
   * Writes the index file {@code path} for the first {@code blocks} blocks of {@code index}
   * and the log's first {@code end} bytes: to a file beside it first, which then takes the
   * name, so that a reader opening meanwhile reads either the old file or the new one whole. It
   * is not synced: one cut short by a crash fails its checksum and is ignored.
   */
  static void write(Path path, long end, String fileKey, List<Cid> commits, BlockIndex index,
      int blocks) throws IOException {
    Path temporary = path.resolveSibling(path.getFileName() + ".new");
    try (OutputStream file = Files.newOutputStream(temporary)) {
      CheckedOutputStream checked = new CheckedOutputStream(file, new CRC32C());
      DataOutputStream out = new DataOutputStream(new BufferedOutputStream(checked, BUFFER));
      out.write(MAGIC);
      out.writeLong(end);
      out.writeUTF(fileKey);
      out.writeInt(commits.size());
      for (Cid commit : commits) {
        byte[] cid = commit.bytes();
        out.writeByte(cid.length);
        out.write(cid);
      }
      out.writeInt(blocks);
      for (int e = 0; e < blocks; e++) {
        out.writeLong(index.offset(e));
        out.writeInt(index.length(e));
        out.writeInt(index.hash(e));
      }
      out.flush();
      new DataOutputStream(file).writeInt((int) checked.getChecksum().getValue());
    } catch (IOException | RuntimeException e) {
      Files.deleteIfExists(temporary);
      throw e;
    }
    Files.move(temporary, path, StandardCopyOption.REPLACE_EXISTING,
        StandardCopyOption.ATOMIC_MOVE);
  }
}
