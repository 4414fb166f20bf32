package dev.kvasir.testkit;

import java.io.IOException;
import java.io.OutputStream;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * A file system whose device fails writes on demand, so that a database meets a real I/O
 * error, and a failed {@code fsync} in particular. It is an ext4 without a journal, kept in a
 * sparse 64 MiB image on a {@link SmallTmpfs} of 16 MiB and mounted through a loop device. Once
 * {@link #failWrites()} has filled the tmpfs, what the kernel writes back to new blocks of the
 * image fails: a {@code write} still lands in the page cache, and the {@code fsync} after it
 * reports {@code EIO} (the first writes after may still land in blocks the image holds).
 * Without a journal and with {@code errors=continue}, the file system stays writable, so {@link
 * #healWrites()} mends it. Needs root, {@code losetup} and {@code mkfs.ext4}; without them the
 * test is skipped and says why.
 */
public final class FailingDisk implements AutoCloseable {
  private final SmallTmpfs backing;
  private final String device;
  private final Path path;

  private FailingDisk(SmallTmpfs backing, String device, Path path) {
    this.backing = backing;
    this.device = device;
    this.path = path;
  }

  /** Makes the file system and mounts it at {@code at}; its image lives in {@code work}. */
  public static FailingDisk mount(Path at, Path work) throws IOException, InterruptedException {
    SmallTmpfs backing = SmallTmpfs.mount(work, "16m");
    try {
      Path image = backing.path().resolve("disk.img");
      try (RandomAccessFile file = new RandomAccessFile(image.toFile(), "rw")) {
        file.setLength(64L << 20); // sparse: blocks take tmpfs room only once written
      }
      // Inode tables written now, not by the kernel in the background after mounting, which
      // would take the tmpfs's room at a moment of its own.
      assume(List.of("mkfs.ext4", "-q", "-F", "-O", "^has_journal", "-E", "lazy_itable_init=0",
          image.toString()));
      String device = assume(List.of("losetup", "--find", "--show", image.toString())).strip();
      Files.createDirectories(at);
      String mounted = run(List.of("mount", "-o", "errors=continue", device, at.toString()));
      if (mounted != null) {
        run(List.of("losetup", "-d", device));
        Assumptions.abort("cannot mount a loop device here: " + mounted);
      }
      return new FailingDisk(backing, device, at);
    } catch (RuntimeException | IOException | InterruptedException e) {
      backing.close();
      throw e;
    }
  }

  /** Where the file system is mounted. */
  public Path path() {
    return path;
  }

  /** Fills the tmpfs under the image: from now on, writing back new blocks fails. */
  public void failWrites() throws IOException {
    byte[] chunk = new byte[1 << 20];
    try (OutputStream out = Files.newOutputStream(filler())) {
      while (true) {
        out.write(chunk);
      }
    } catch (IOException full) {
      if (!String.valueOf(full.getMessage()).contains("No space left")) {
        throw full;
      }
    }
  }

  /** Frees the tmpfs again. */
  public void healWrites() throws IOException {
    Files.deleteIfExists(filler());
  }

  private Path filler() {
    return backing.path().resolve("filler");
  }

  /** Unmounts the file system (lazily), detaches the loop device and unmounts the tmpfs. */
  @Override
  public void close() throws IOException, InterruptedException {
    try {
      run(List.of("umount", "-l", path.toString()));
      run(List.of("losetup", "-d", device));
    } finally {
      backing.close();
    }
  }

  /** Runs a command the disk needs; its failure skips the test, saying why. */
  private static String assume(List<String> command) throws IOException, InterruptedException {
    Process p;
    try {
      p = new ProcessBuilder(command).redirectErrorStream(true).start();
    } catch (IOException notInstalled) {
      Assumptions.abort("a failing disk needs " + command.get(0) + ": " + notInstalled.getMessage());
      throw notInstalled; // not reached
    }
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    Assumptions.assumeTrue(p.waitFor() == 0, () -> String.join(" ", command) + " failed: " + out);
    return out;
  }

  /** Runs a command; null if it succeeded, else its output. */
  private static String run(List<String> command) throws IOException, InterruptedException {
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0 ? null : out;
  }
}
