package dev.kvasir.sqlite;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * Whether a file lies on a network filesystem, where SQLite's locks and the write-ahead log's
 * shared memory do not hold between machines, and sometimes not even within one
 * (docs/sqlite.md §1).
 */
final class NetworkFilesystem {
  /** Linux's names for them, as {@code /proc/mounts} lists them. */
  private static final Set<String> TYPES = Set.of("nfs", "nfs4", "cifs", "smb3", "smbfs",
      "9p", "drvfs", "ceph", "glusterfs", "lustre", "gpfs", "afs", "fuse.sshfs", "fuse.s3fs",
      "fuse.gcsfuse", "fuse.rclone", "fuse.juicefs", "fuse.glusterfs", "fuse.cephfs");

  private NetworkFilesystem() {}

  /** The type of the network filesystem holding {@code file}, or empty for a local one. */
  static Optional<String> of(Path file) {
    Path dir = file.toAbsolutePath().getParent();
    try {
      String type = Files.getFileStore(Files.exists(file) ? file : dir).type();
      return isNetwork(type) ? Optional.of(type) : Optional.empty();
    } catch (IOException | RuntimeException e) {
      return Optional.empty(); // unknown: opening says what is wrong with the path
    }
  }

  static boolean isNetwork(String type) {
    return TYPES.contains(type.toLowerCase(Locale.ROOT));
  }
}
