package dev.kvasir.testkit.powercut;

import com.sun.jna.LastErrorException;
import com.sun.jna.Library;
import com.sun.jna.Native;
import com.sun.jna.Pointer;

/**
 * The C library calls a FUSE file system needs and Java lacks: opening {@code /dev/fuse} as a
 * numbered descriptor, reading and writing it, and mounting and unmounting (docs/power-cut.md
 * §2). Each throws {@link LastErrorException} with the {@code errno} when the call fails (their
 * numbers in {@link FsException}).
 */
interface LibC extends Library {
  LibC C = Native.load("c", LibC.class);

  int O_RDWR = 2;
  long MS_NOSUID = 2;
  long MS_NODEV = 4;
  int MNT_DETACH = 2;

  int open(String path, int flags) throws LastErrorException;

  long read(int fd, Pointer buffer, long size) throws LastErrorException;

  long write(int fd, byte[] buffer, long size) throws LastErrorException;

  int close(int fd) throws LastErrorException;

  int mount(String source, String target, String type, long flags, String data)
      throws LastErrorException;

  int umount2(String target, int flags) throws LastErrorException;
}
