package dev.kvasir.testkit.powercut;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Random;
import org.junit.jupiter.api.Assumptions;

/**
 * A directory whose files live in this JVM's memory behind a simulated volatile write cache,
 * so that a test can cut the power under a database: {@link #cutPower} keeps what {@code fsync}
 * made stable and only some of the rest, as a disk that lost power would (docs/power-cut.md).
 * Processes use it as any directory (it is a FUSE mount); mounting needs root and
 * {@code /dev/fuse}: without them the test is skipped and says why.
 */
public final class PowerCutFs implements AutoCloseable {
  private final CachedDisk disk;
  private final Path path;
  private FuseMount mount;

  private PowerCutFs(CachedDisk disk, Path path, FuseMount mount) {
    this.disk = disk;
    this.path = path;
    this.mount = mount;
  }

  /** Mounts an empty file system at {@code at}, a directory it creates if need be. */
  public static PowerCutFs mount(Path at) throws IOException {
    Assumptions.assumeTrue("root".equals(System.getProperty("user.name")),
        "a FUSE mount needs root; run the build as root to test power cuts");
    Assumptions.assumeTrue(Files.exists(Path.of("/dev/fuse")),
        "this machine has no /dev/fuse, so no power cut can be simulated");
    Files.createDirectories(at);
    CachedDisk disk = new CachedDisk();
    FuseMount first;
    try {
      first = FuseMount.mount(disk, at);
    } catch (IOException e) { // a container may forbid it, as it may forbid a tmpfs
      Assumptions.abort("cannot mount a FUSE file system here: " + e.getMessage());
      throw e;
    }
    return new PowerCutFs(disk, at, first);
  }

  /** Where it is mounted. */
  public Path path() {
    return path;
  }

  /**
   * Stops the disk at a point: it takes {@code changes} more changes (writes, syncs, changes of
   * size or names, by any process) and then holds every later one unanswered, as if the machine
   * had stopped there, until {@link #releaseFrozen} or the power cut. The callers of a held
   * change wait; kill them, then release. The mount after the cut takes every change again.
   */
  public void freezeAfter(int changes) {
    mount.freezeAfter(changes);
  }

  /**
   * How many changes (writes, syncs, changes of size or names) the disk has taken since it was
   * mounted or last cut: a test counts a run's changes with it, then stops the disk among them.
   */
  public int changes() {
    return mount.changes();
  }

  /** Waits until the disk has stopped where {@link #freezeAfter} said; false if not in time. */
  public boolean awaitFrozen(Duration timeout) throws InterruptedException {
    return mount.awaitFrozen(timeout.toMillis());
  }

  /**
   * Refuses every change held since the disk stopped, and every later one, with {@code EIO}:
   * a killed process that was waiting on one then ends, and no change it made after the point
   * reaches the disk.
   */
  public void releaseFrozen() {
    mount.releaseFrozen();
  }

  /**
   * Cuts the power and brings it back: refuses what {@link #freezeAfter} held, unmounts (every
   * process using the files must have ended or closed them), drops what no {@code fsync} made
   * stable except for a part {@code random} chooses, and mounts what remains at the same place.
   *
   * @return what the cut lost, a line per file or directory, for a failing test to show
   */
  public String cutPower(Random random) throws IOException {
    mount.releaseFrozen();
    mount.close();
    mount = null;
    String lost = disk.cut(random);
    mount = FuseMount.mount(disk, path);
    return lost;
  }

  /** Unmounts it; its files are gone. */
  @Override
  public void close() throws IOException {
    if (mount != null) {
      mount.close();
      mount = null;
    }
  }
}
