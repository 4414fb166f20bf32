package dev.kvasir.dag.store;

import dev.kvasir.dag.cid.Cid;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * A durable blockstore: one file per block, {@code DIR/xy/<cid>} where {@code xy} are the
 * CID's last two characters (spreading files over 1 024 folders).
 *
 * <p>A write goes to a temporary file that is flushed to disk and then renamed into place, so
 * a crash leaves either the whole block or none. Every read re-hashes the bytes and throws
 * {@link CorruptBlockException} if the file was damaged.
 */
public final class DirectoryBlockstore implements Blockstore {
  private final Path dir;

  private DirectoryBlockstore(Path dir) {
    this.dir = dir;
  }

  /** Opens (creating if needed) the store in {@code dir}. */
  public static DirectoryBlockstore open(Path dir) {
    try {
      Files.createDirectories(dir);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create block directory " + dir, e);
    }
    return new DirectoryBlockstore(dir);
  }

  public Path directory() {
    return dir;
  }

  @Override
  public Block get(Cid cid) {
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(file(cid));
    } catch (NoSuchFileException e) {
      return null;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read block " + cid + " from " + dir, e);
    }
    return Block.verified(cid, bytes);
  }

  @Override
  public boolean has(Cid cid) {
    return Files.exists(file(cid));
  }

  @Override
  public void put(Block block) {
    Path target = file(block.cid());
    if (Files.exists(target)) {
      return;
    }
    try {
      Path folder = Files.createDirectories(target.getParent());
      Path temp = Files.createTempFile(folder, ".incoming-", "");
      try {
        try (FileChannel ch = FileChannel.open(temp, StandardOpenOption.WRITE)) {
          ByteBuffer buf = ByteBuffer.wrap(block.bytes());
          while (buf.hasRemaining()) {
            ch.write(buf);
          }
          ch.force(true);
        }
        move(temp, target);
      } finally {
        Files.deleteIfExists(temp);
      }
      syncDirectory(folder);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write block " + block.cid() + " to " + dir, e);
    }
  }

  @Override
  public void delete(Cid cid) {
    try {
      Files.deleteIfExists(file(cid));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot delete block " + cid + " from " + dir, e);
    }
  }

  private Path file(Cid cid) {
    String name = cid.toString();
    return dir.resolve(name.substring(name.length() - 2)).resolve(name);
  }

  private static void move(Path temp, Path target) throws IOException {
    try {
      Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE);
    } catch (FileAlreadyExistsException e) {
      // Another writer stored the same block first; the bytes are identical.
    } catch (AtomicMoveNotSupportedException e) {
      throw new IOException("the file system of " + target.getParent()
          + " cannot rename atomically", e);
    }
  }

  /** Makes the rename itself durable; not every platform can open a directory for this. */
  private static void syncDirectory(Path folder) {
    try (FileChannel ch = FileChannel.open(folder, StandardOpenOption.READ)) {
      ch.force(true);
    } catch (IOException e) {
      // Best effort: the block file itself was already forced to disk.
    }
  }
}
