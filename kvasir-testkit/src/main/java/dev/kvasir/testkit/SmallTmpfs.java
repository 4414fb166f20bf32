package dev.kvasir.testkit;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * A small tmpfs mounted for a test, so that a database meets a real full disk. Mounting needs
 * root: without it, or where the mount is refused, the test is skipped and says why.
 */
public final class SmallTmpfs implements AutoCloseable {
  private final Path path;

  private SmallTmpfs(Path path) {
    this.path = path;
  }

  /** Mounts a tmpfs of {@code size} ({@code mount}'s syntax, e.g. {@code 2m}) at {@code at}. */
  public static SmallTmpfs mount(Path at, String size) throws IOException, InterruptedException {
    Assumptions.assumeTrue("root".equals(System.getProperty("user.name")),
        "mounting a small tmpfs needs root; run the build as root to test a full disk");
    Files.createDirectories(at);
    Process p = new ProcessBuilder("mount", "-t", "tmpfs", "-o", "size=" + size, "tmpfs",
        at.toString()).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    Assumptions.assumeTrue(p.waitFor() == 0, "cannot mount a tmpfs here: " + out);
    return new SmallTmpfs(at);
  }

  /** Where it is mounted. */
  public Path path() {
    return path;
  }

  /** Unmounts it, lazily: a file a failed test left open does not keep it. */
  @Override
  public void close() throws IOException, InterruptedException {
    new ProcessBuilder("umount", "-l", path.toString()).inheritIO().start()
        .waitFor(30, TimeUnit.SECONDS);
  }
}
