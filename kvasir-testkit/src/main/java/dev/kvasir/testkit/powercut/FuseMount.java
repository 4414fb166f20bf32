package dev.kvasir.testkit.powercut;

import com.sun.jna.LastErrorException;
import com.sun.jna.Memory;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A {@link CachedDisk} mounted through the kernel's FUSE protocol, served by one thread of this
 * JVM until unmounted: the requests of {@code linux/fuse.h}, in the subset that programs
 * writing files and SQLite use (docs/power-cut.md §2). Locks are left to the kernel, and every
 * answer is cached for no time, so that each call of a program reaches the disk model.
 */
final class FuseMount implements AutoCloseable {
  /** The largest write the kernel sends at once, and the buffer a request fits in. */
  private static final int MAX_WRITE = 128 * 1024;
  private static final int BUFFER = MAX_WRITE + 4096;
  private static final int IN_HEADER = 40;
  private static final int OUT_HEADER = 16;
  private static final int ATTR = 88;
  private static final int PROTOCOL_MINOR = 31;
  private static final int BIG_WRITES = 1 << 5;
  private static final int MAX_PAGES = 1 << 22;
  private static final int FATTR_MODE = 1;
  private static final int FATTR_SIZE = 1 << 3;
  private static final int RENAME_NOREPLACE = 1;
  private static final int O_EXCL = 0200;
  /** Answers nothing (told apart from {@link #EMPTY} by identity): forgets and interrupts. */
  private static final byte[] NO_REPLY = new byte[0];
  private static final byte[] EMPTY = new byte[0];

  private final CachedDisk disk;
  private final Path at;
  private final int fd;
  private final Thread server;
  /** What stopped the server other than an unmount, for {@link #close} to report. */
  private volatile Throwable failure;
  /** Where the disk stops taking changes, or null: it takes all. */
  private volatile Freeze freeze;
  /** Changes the disk took through this mount. */
  private final AtomicInteger changes = new AtomicInteger();

  private FuseMount(CachedDisk disk, Path at, int fd) {
    this.disk = disk;
    this.at = at;
    this.fd = fd;
    this.server = new Thread(this::serve, "fuse-" + at.getFileName());
    server.setDaemon(true);
  }

  /** Mounts {@code disk} on the directory {@code at}; needs root. */
  static FuseMount mount(CachedDisk disk, Path at) throws IOException {
    int fd;
    try {
      fd = LibC.C.open("/dev/fuse", LibC.O_RDWR);
    } catch (LastErrorException e) {
      throw new IOException("cannot open /dev/fuse: errno " + e.getErrorCode(), e);
    }
    try {
      LibC.C.mount("kvasir-powercut", at.toString(), "fuse", LibC.MS_NOSUID | LibC.MS_NODEV,
          "fd=" + fd + ",rootmode=40000,user_id=0,group_id=0,allow_other");
    } catch (LastErrorException e) {
      LibC.C.close(fd);
      throw new IOException("cannot mount a FUSE file system at " + at + ": errno "
          + e.getErrorCode(), e);
    }
    FuseMount m = new FuseMount(disk, at, fd);
    m.server.start();
    return m;
  }

  /** Lets {@code changes} more changes through, then holds every later one (Freeze). */
  void freezeAfter(int changes) {
    freeze = new Freeze(changes);
  }

  /** Whether the disk stopped at the point {@link #freezeAfter} set, within {@code timeoutMs}. */
  boolean awaitFrozen(long timeoutMs) throws InterruptedException {
    Freeze f = freeze;
    if (f == null) {
      throw new IllegalStateException("no freeze was set");
    }
    return f.awaitReached(timeoutMs);
  }

  /** How many changes the disk took through this mount (FuseOpcode#changes). */
  int changes() {
    return changes.get();
  }

  /** Refuses with {@code EIO} the changes held since the disk stopped, and any later ones. */
  void releaseFrozen() {
    Freeze f = freeze;
    if (f != null) {
      for (long unique : f.release()) {
        reply(unique, FsException.EIO, EMPTY);
      }
    }
  }

  /**
   * Unmounts: at once if no file there is open (a killed process's files close as it dies, and
   * the kernel may still be sending their releases for a moment), else lazily, detaching it
   * from its directory. A JVM that closed a SQLite database keeps one page of its {@code -shm}
   * file mapped until the garbage collector frees it (docs/sqlite.md §9), so a busy unmount
   * first asks for a collection; should the page stay, no process can write through it, so the
   * power cut may go on, and the server ends when the mapping does.
   */
  @Override
  public void close() throws IOException {
    long detachAfter = System.nanoTime() + 2_000_000_000L;
    boolean detached = false;
    boolean collected = false;
    while (failure == null) {
      try {
        LibC.C.umount2(at.toString(), 0);
        break;
      } catch (LastErrorException e) {
        if (!collected) { // frees the -shm pages of SQLite databases this JVM closed
          System.gc();
          collected = true;
        } else if (System.nanoTime() > detachAfter) {
          LibC.C.umount2(at.toString(), LibC.MNT_DETACH);
          detached = true;
          break;
        }
        sleep(20);
      }
    }
    if (failure != null) {
      LibC.C.umount2(at.toString(), LibC.MNT_DETACH);
      throw new IOException("the FUSE server at " + at + " failed: unmounted lazily", failure);
    }
    if (!detached) {
      try {
        server.join(10_000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  private static void sleep(long ms) throws IOException {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while unmounting", e);
    }
  }

  private void serve() {
    Memory buffer = new Memory(BUFFER);
    try {
      while (true) {
        long n;
        try {
          n = LibC.C.read(fd, buffer, BUFFER);
        } catch (LastErrorException e) {
          int errno = e.getErrorCode();
          if (errno == FsException.ENODEV) {
            return; // unmounted
          } else if (errno == FsException.ENOENT || errno == FsException.EINTR
              || errno == FsException.EAGAIN) {
            continue; // a request interrupted before it was read
          }
          throw e;
        }
        handle(buffer.getByteBuffer(0, n).order(ByteOrder.LITTLE_ENDIAN));
      }
    } catch (Throwable t) {
      failure = t;
    } finally {
      LibC.C.close(fd); // after the last read: closing it under a read would not end that read
    }
  }

  private void handle(ByteBuffer in) {
    in.getInt(); // length
    int opcode = in.getInt();
    long unique = in.getLong();
    long node = in.getLong();
    in.position(IN_HEADER);
    if (FuseOpcode.changes(opcode)) {
      Freeze f = freeze;
      switch (f == null ? Freeze.Verdict.APPLY : f.admit(unique)) {
        case HOLD:
          return; // answered by releaseFrozen
        case REFUSE:
          reply(unique, FsException.EIO, EMPTY);
          return;
        default:
          changes.incrementAndGet();
          break;
      }
    }
    byte[] body;
    int errno = 0;
    try {
      body = answer(opcode, node, in);
    } catch (FsException e) {
      body = EMPTY;
      errno = e.errno;
    }
    if (body != NO_REPLY) {
      reply(unique, errno, body);
    }
  }

  /** Answers request {@code unique}; from the server's thread or, for held ones, the test's. */
  private void reply(long unique, int errno, byte[] body) {
    ByteBuffer out = ByteBuffer.allocate(OUT_HEADER + body.length).order(ByteOrder.LITTLE_ENDIAN);
    out.putInt(OUT_HEADER + body.length).putInt(-errno).putLong(unique).put(body);
    try {
      LibC.C.write(fd, out.array(), out.capacity());
    } catch (LastErrorException e) {
      if (e.getErrorCode() != FsException.ENOENT) { // ENOENT: the caller was interrupted meanwhile
        throw e;
      }
    }
  }

  private byte[] answer(int opcode, long node, ByteBuffer in) {
    switch (opcode) {
      case FuseOpcode.INIT:
        return init(in);
      case FuseOpcode.LOOKUP:
        return entry(disk.lookup(node, name(in)));
      case FuseOpcode.FORGET, FuseOpcode.BATCH_FORGET, FuseOpcode.INTERRUPT:
        // Nodes live on, and nothing is cut short.
        return NO_REPLY;
      case FuseOpcode.GETATTR:
        return attrOut(disk.node(node));
      case FuseOpcode.SETATTR:
        return setattr(node, in);
      case FuseOpcode.MKNOD: {
        int mode = in.getInt();
        in.position(in.position() + 12);
        if ((mode & 0170000) != CachedDisk.S_IFREG) {
          throw new FsException(FsException.EINVAL);
        }
        return entry(disk.create(node, name(in), false, mode));
      }
      case FuseOpcode.MKDIR: {
        int mode = in.getInt();
        in.getInt();
        return entry(disk.create(node, name(in), true, mode));
      }
      case FuseOpcode.UNLINK:
        disk.remove(node, name(in), false);
        return EMPTY;
      case FuseOpcode.RMDIR:
        disk.remove(node, name(in), true);
        return EMPTY;
      case FuseOpcode.RENAME: {
        long to = in.getLong();
        disk.rename(node, name(in), to, name(in), false);
        return EMPTY;
      }
      case FuseOpcode.RENAME2: {
        long to = in.getLong();
        int flags = in.getInt();
        in.getInt();
        if ((flags & ~RENAME_NOREPLACE) != 0) {
          throw new FsException(FsException.EINVAL);
        }
        disk.rename(node, name(in), to, name(in), flags != 0);
        return EMPTY;
      }
      case FuseOpcode.OPEN, FuseOpcode.OPENDIR:
        disk.node(node);
        return openOut();
      case FuseOpcode.READ: {
        in.getLong();
        long offset = in.getLong();
        return disk.read(node, offset, in.getInt());
      }
      case FuseOpcode.WRITE: {
        in.getLong();
        long offset = in.getLong();
        int size = in.getInt();
        in.position(in.position() + 20);
        byte[] data = new byte[size];
        in.get(data);
        disk.write(node, offset, data);
        return ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putInt(size).array();
      }
      case FuseOpcode.STATFS:
        return statfs();
      case FuseOpcode.RELEASE, FuseOpcode.FLUSH, FuseOpcode.RELEASEDIR, FuseOpcode.ACCESS,
          FuseOpcode.DESTROY:
        return EMPTY;
      case FuseOpcode.FSYNC, FuseOpcode.FSYNCDIR:
        disk.sync(node);
        return EMPTY;
      case FuseOpcode.READDIR: {
        in.getLong();
        long offset = in.getLong();
        return readdir(node, offset, in.getInt());
      }
      case FuseOpcode.CREATE:
        return create(node, in);
      case FuseOpcode.FALLOCATE: {
        in.getLong();
        long offset = in.getLong();
        long length = in.getLong();
        if (in.getInt() != 0) {
          throw new FsException(FsException.EOPNOTSUPP);
        }
        if (offset + length > disk.node(node).size()) {
          disk.truncate(node, offset + length);
        }
        return EMPTY;
      }
      default: // links, extended attributes, ioctl, lseek and the rest: the kernel does without
        throw new FsException(FsException.ENOSYS);
    }
  }

  private static byte[] init(ByteBuffer in) {
    int major = in.getInt();
    int minor = in.getInt();
    int readahead = in.getInt();
    int flags = in.getInt();
    if (major != 7) {
      throw new FsException(FsException.EIO);
    }
    return ByteBuffer.allocate(64).order(ByteOrder.LITTLE_ENDIAN)
        .putInt(7).putInt(Math.min(minor, PROTOCOL_MINOR)).putInt(readahead)
        .putInt(flags & (BIG_WRITES | MAX_PAGES))
        .putShort((short) 16).putShort((short) 12) // background requests, congestion
        .putInt(MAX_WRITE).putInt(1) // time granularity: nanoseconds
        .putShort((short) (MAX_WRITE / 4096)).array();
  }

  private byte[] setattr(long node, ByteBuffer in) {
    int valid = in.getInt();
    in.getInt();
    in.getLong(); // fh
    long size = in.getLong();
    in.position(in.position() + 8 * 4 + 4 * 3); // lock owner, times
    int mode = in.getInt();
    if ((valid & FATTR_SIZE) != 0) {
      disk.truncate(node, size);
    }
    if ((valid & FATTR_MODE) != 0) {
      disk.setMode(node, mode);
    }
    return attrOut(disk.node(node)); // owners and times: one owner, and times as written
  }

  private byte[] create(long parent, ByteBuffer in) {
    int flags = in.getInt();
    int mode = in.getInt();
    in.position(in.position() + 8);
    String name = name(in);
    CachedDisk.Node n;
    try {
      n = disk.create(parent, name, false, mode);
    } catch (FsException e) {
      if (e.errno != FsException.EEXIST || (flags & O_EXCL) != 0) {
        throw e;
      }
      n = disk.lookup(parent, name); // created by another process since the kernel looked
    }
    byte[] entry = entry(n);
    return ByteBuffer.allocate(entry.length + 16).put(entry).put(openOut()).array();
  }

  private byte[] readdir(long node, long offset, int size) {
    List<Map.Entry<String, CachedDisk.Node>> names = disk.list(node);
    ByteBuffer out = ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN);
    for (long i = offset; i < names.size() + 2L; i++) {
      String name = i == 0 ? "." : i == 1 ? ".." : names.get((int) i - 2).getKey();
      long ino = i < 2 ? node : names.get((int) i - 2).getValue().id;
      boolean dir = i < 2 || names.get((int) i - 2).getValue().dir;
      byte[] bytes = name.getBytes(StandardCharsets.UTF_8);
      int length = (24 + bytes.length + 7) & ~7;
      if (out.remaining() < length) {
        break;
      }
      int start = out.position();
      out.putLong(ino).putLong(i + 1).putInt(bytes.length).putInt(dir ? 4 : 8).put(bytes);
      out.position(start + length);
    }
    byte[] answer = new byte[out.position()];
    out.flip().get(answer);
    return answer;
  }

  private static byte[] entry(CachedDisk.Node n) {
    ByteBuffer out = ByteBuffer.allocate(40 + ATTR).order(ByteOrder.LITTLE_ENDIAN);
    out.putLong(n.id).putLong(0).putLong(0).putLong(0).putInt(0).putInt(0); // cached no time
    attr(out, n);
    return out.array();
  }

  private static byte[] attrOut(CachedDisk.Node n) {
    ByteBuffer out = ByteBuffer.allocate(16 + ATTR).order(ByteOrder.LITTLE_ENDIAN);
    out.putLong(0).putInt(0).putInt(0);
    attr(out, n);
    return out.array();
  }

  private static void attr(ByteBuffer out, CachedDisk.Node n) {
    long size = n.size();
    long seconds = n.modifiedMs / 1000;
    int nanos = (int) (n.modifiedMs % 1000) * 1_000_000;
    out.putLong(n.id).putLong(size).putLong((size + 511) / 512)
        .putLong(seconds).putLong(seconds).putLong(seconds)
        .putInt(nanos).putInt(nanos).putInt(nanos)
        .putInt(n.mode).putInt(n.dir ? 2 : 1).putInt(0).putInt(0).putInt(0) // nlink, uid, gid
        .putInt(4096).putInt(0); // block size, flags
  }

  private static byte[] openOut() {
    return new byte[16]; // no handle of its own, no flags
  }

  private static byte[] statfs() {
    return ByteBuffer.allocate(80).order(ByteOrder.LITTLE_ENDIAN)
        .putLong(1L << 24).putLong(1L << 23).putLong(1L << 23) // blocks, free, available
        .putLong(1L << 20).putLong(1L << 19) // files, free
        .putInt(4096).putInt(255).putInt(4096).array(); // block size, name length, fragment
  }

  /** The next NUL-terminated name of the request. */
  private static String name(ByteBuffer in) {
    int start = in.position();
    int end = start;
    while (in.get(end) != 0) {
      end++;
    }
    byte[] bytes = new byte[end - start];
    in.get(bytes);
    in.get(); // the NUL
    return new String(bytes, StandardCharsets.UTF_8);
  }
}
