package dev.kvasir.testkit.powercut;

import java.util.Arrays;

/** A file's bytes, in memory, growing as written. Not thread-safe: its CachedDisk guards it. */
final class Content {
  private byte[] bytes;
  private int size;

  Content() {
    this(new byte[0], 0);
  }

  private Content(byte[] bytes, int size) {
    this.bytes = bytes;
    this.size = size;
  }

  long size() {
    return size;
  }

  void write(long offset, byte[] data) {
    long end = offset + data.length;
    if (end > Integer.MAX_VALUE) {
      throw new FsException(FsException.EFBIG);
    }
    if (end > bytes.length) {
      bytes = Arrays.copyOf(bytes, (int) Math.max(end, Math.min(Integer.MAX_VALUE - 8,
          bytes.length * 2L)));
    }
    System.arraycopy(data, 0, bytes, (int) offset, data.length);
    size = Math.max(size, (int) end);
  }

  /** Cuts or extends the file to {@code newSize}; bytes past the old end read as zeros. */
  void truncate(long newSize) {
    if (newSize > Integer.MAX_VALUE) {
      throw new FsException(FsException.EFBIG);
    }
    int n = (int) newSize;
    if (n < size) {
      Arrays.fill(bytes, n, size, (byte) 0);
    } else if (n > bytes.length) {
      bytes = Arrays.copyOf(bytes, n);
    }
    size = n;
  }

  /** Up to {@code length} bytes from {@code offset}: fewer at the end of the file. */
  byte[] read(long offset, int length) {
    if (offset >= size) {
      return new byte[0];
    }
    int from = (int) offset;
    return Arrays.copyOfRange(bytes, from, (int) Math.min(size, from + (long) length));
  }

  Content copy() {
    return new Content(Arrays.copyOf(bytes, size), size);
  }
}
