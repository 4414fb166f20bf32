package dev.kvasir.cli;

import dev.kvasir.Kv;
import dev.kvasir.KvException;
import dev.kvasir.KvOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/** The {@code --db} and {@code --access-token} options every database command takes. */
final class Database {
  static final String DEFAULT = "./kvasir.sqlite3";

  @Option(names = "--db", paramLabel = "LOCATION", defaultValue = DEFAULT,
      description = "A SQLite file, :memory:, an http(s):// KV Connect URL, or a"
          + " postgresql:// URL."
          + " Default: ${DEFAULT-VALUE}")
  String location = DEFAULT;

  @Option(names = "--access-token", defaultValue = "${env:KVASIR_ACCESS_TOKEN}",
      description = "The token for an http(s):// database. Default: the environment variable"
          + " KVASIR_ACCESS_TOKEN (or DENO_KV_ACCESS_TOKEN).")
  String accessToken;

  boolean isRemote() {
    return location.startsWith("http://") || location.startsWith("https://");
  }

  boolean isPostgres() {
    return location.startsWith("postgresql://") || location.startsWith("postgres://");
  }

  boolean isFile() {
    return !isRemote() && !location.equals(":memory:") && !location.contains("://");
  }

  /**
   * Opens the database. A file that does not exist is created only by commands that write, so
   * that a mistyped path does not leave an empty database behind; commands that only read open
   * a file read-only, so that they work on a read-only file system and while another process
   * holds the write lock.
   */
  Kv open(boolean writes) {
    if (isFile() && !writes && !Files.exists(Path.of(location))) {
      throw new KvException("there is no database at " + location + "; check --db (commands"
          + " that write, such as set or import, create it)");
    }
    KvOptions options = KvOptions.defaults();
    if (isFile() && !writes) {
      options = options.with("sqlite.readOnly", "true");
    }
    if (accessToken != null && !accessToken.isEmpty()) {
      options = options.with("accessToken", accessToken);
    }
    return Kv.open(location, options);
  }
}
