package dev.kvasir.testkit;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The JDKs installed beside the one running the tests, for running Kvasir's jars on the newer
 * releases users run them on (Debian's and Temurin's packages install under
 * {@code /usr/lib/jvm}).
 */
public final class InstalledJdks {
  private InstalledJdks() {}

  /** The {@code java} launcher of every JDK under /usr/lib/jvm of at least major version. */
  public static List<Path> javasFrom(int major) throws IOException {
    List<Path> found = new ArrayList<>();
    Path jvms = Path.of("/usr/lib/jvm");
    if (!Files.isDirectory(jvms)) {
      return found;
    }
    try (Stream<Path> homes = Files.list(jvms)) {
      for (Path home : homes.sorted().toList()) {
        Path release = home.resolve("release");
        Path java = home.resolve("bin").resolve("java");
        if (Files.isRegularFile(release) && Files.isExecutable(java)
            && majorVersion(Files.readString(release)) >= major) {
          found.add(java);
        }
      }
    }
    return found;
  }

  /** The major version in a JDK's {@code release} file ({@code JAVA_VERSION="25.0.3"}), or 0. */
  static int majorVersion(String release) {
    String prefix = "JAVA_VERSION=\"";
    for (String line : release.split("\n")) {
      if (line.startsWith(prefix)) {
        int start = prefix.length();
        int end = start;
        while (end < line.length() && Character.isDigit(line.charAt(end))) {
          end++;
        }
        return end == start ? 0 : Integer.parseInt(line.substring(start, end));
      }
    }
    return 0;
  }
}
