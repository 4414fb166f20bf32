package dev.kvasir.testkit.powercut;

/**
 * A file system call refused, with the {@code errno} its caller gets; and the numbers of Linux's
 * {@code errno}s, those answered and those the kernel's calls give back.
 */
final class FsException extends RuntimeException {
  static final int ENOENT = 2;
  static final int EINTR = 4;
  static final int EIO = 5;
  static final int EAGAIN = 11;
  static final int EEXIST = 17;
  static final int ENODEV = 19;
  static final int ENOTDIR = 20;
  static final int EISDIR = 21;
  static final int EINVAL = 22;
  static final int EFBIG = 27;
  static final int ENOSYS = 38;
  static final int ENOTEMPTY = 39;
  static final int EOPNOTSUPP = 95;

  final int errno;

  FsException(int errno) {
    super("errno " + errno, null, false, false);
    this.errno = errno;
  }
}
