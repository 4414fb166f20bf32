package dev.kvasir.testkit.powercut;

/**
 * The requests of the kernel's FUSE protocol that {@link FuseMount} answers or ignores, by their
 * numbers in {@code enum fuse_opcode} of {@code linux/fuse.h} (docs/power-cut.md §2).
 */
final class FuseOpcode {
  static final int LOOKUP = 1;
  static final int FORGET = 2;
  static final int GETATTR = 3;
  static final int SETATTR = 4;
  static final int MKNOD = 8;
  static final int MKDIR = 9;
  static final int UNLINK = 10;
  static final int RMDIR = 11;
  static final int RENAME = 12;
  static final int OPEN = 14;
  static final int READ = 15;
  static final int WRITE = 16;
  static final int STATFS = 17;
  static final int RELEASE = 18;
  static final int FSYNC = 20;
  static final int FLUSH = 25;
  static final int INIT = 26;
  static final int OPENDIR = 27;
  static final int READDIR = 28;
  static final int RELEASEDIR = 29;
  static final int FSYNCDIR = 30;
  static final int ACCESS = 34;
  static final int CREATE = 35;
  static final int INTERRUPT = 36;
  static final int DESTROY = 38;
  static final int BATCH_FORGET = 42;
  static final int FALLOCATE = 43;
  static final int RENAME2 = 45;

  private FuseOpcode() {}

  /** Whether the request changes the disk: its bytes, its sizes, its names, or what is stable. */
  static boolean changes(int opcode) {
    return switch (opcode) {
      case SETATTR, MKNOD, MKDIR, UNLINK, RMDIR, RENAME, WRITE, FSYNC, FSYNCDIR, CREATE,
          FALLOCATE, RENAME2 -> true;
      default -> false;
    };
  }
}
