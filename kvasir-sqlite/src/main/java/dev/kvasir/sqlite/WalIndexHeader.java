package dev.kvasir.sqlite;

import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The header of a WAL file's index, read straight from the shared memory that SQLite keeps
 * beside the database ({@code <file>-shm}): every commit to the file, by any connection of any
 * process, rewrites it. Two equal reads mean that nothing was committed in between, and no call
 * into SQLite is needed to know it (docs/sqlite.md §9).
 *
 * <p>Closing any descriptor of a file drops every lock that the process holds on it, SQLite's
 * included. So the descriptor stays open for as long as this JVM has the file open ({@link
 * Shared} owns it), and closes only after the last connection of the JVM's engines on the file.
 */
final class WalIndexHeader implements AutoCloseable {
  /** The header's first copy, the one SQLite writes last: 48 bytes, read as 6 longs. */
  static final int LONGS = 6;

  private static final VarHandle LONG =
      MethodHandles.byteBufferViewVarHandle(long[].class, ByteOrder.nativeOrder());

  private final FileChannel file;
  /** Null if the file could not be mapped: then there is nothing to read. */
  private final MappedByteBuffer shm;

  private WalIndexHeader(FileChannel file, MappedByteBuffer shm) {
    this.file = file;
    this.shm = shm;
  }

  /**
   * Opens the header in {@code shmPath}, the shared memory of an open database, or returns null
   * where there is none to rely on: no such file, or Windows, where a file that is mapped cannot
   * be deleted and SQLite deletes this one when its last connection closes.
   */
  static WalIndexHeader open(String shmPath) {
    if (System.getProperty("os.name", "").startsWith("Windows")) {
      return null;
    }
    FileChannel file;
    try {
      file = FileChannel.open(Path.of(shmPath), StandardOpenOption.READ);
    } catch (IOException | UnsupportedOperationException e) {
      return null;
    }
    MappedByteBuffer shm = null;
    try {
      // SQLite never shrinks the file while a connection of any process has it open.
      if (file.size() >= LONGS * Long.BYTES) {
        shm = file.map(FileChannel.MapMode.READ_ONLY, 0, LONGS * Long.BYTES);
      }
    } catch (IOException e) {
      // unmapped: kept open all the same, for the reason above
    }
    return new WalIndexHeader(file, shm);
  }

  /** Whether the header can be read. */
  boolean mapped() {
    return shm != null;
  }

  /** Copies the header into {@code into}, each long with acquire semantics. */
  void read(long[] into) {
    for (int i = 0; i < LONGS; i++) {
      into[i] = (long) LONG.getAcquire(shm, i * Long.BYTES);
    }
  }

  /**
   * Closes the descriptor; only once no connection of this JVM has the file open. The page
   * stays mapped until the buffer is collected (docs/sqlite.md §9).
   */
  @Override
  public void close() {
    try {
      file.close();
    } catch (IOException e) {
      // a descriptor opened for reading has nothing to flush
    }
  }
}
