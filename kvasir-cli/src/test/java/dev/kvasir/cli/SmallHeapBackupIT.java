package dev.kvasir.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kvasir.Kv;
import dev.kvasir.KvKey;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code kvasir backup} and {@code kvasir restore} of a database larger than the heap they run
 * with (docs/backup.md §6): a copy puts the source's entries into the backup's transaction as it
 * reads them, whose blocks go to the file as it grows, and a restore stores the backup's entries
 * as it reads them. Both held every value, a copy several times over, and failed with
 * OutOfMemoryError on a database a fraction of the heap's size.
 */
class SmallHeapBackupIT {
  private static final int ENTRIES = 60_000;
  private static final String VALUE = "v".repeat(2_000); // 120 MB of values in all
  private static final Map<String, String> SMALL_HEAP = Map.of("JAVA_TOOL_OPTIONS", "-Xmx96m");

  @TempDir Path dir;

  @Test
  void aDatabaseLargerThanTheHeap_isBackedUpAndRestored_whole() throws Exception {
    try (Kv kv = Kv.open(dir.resolve("app.sqlite3").toString())) {
      for (int c = 0; c < ENTRIES / 300; c++) { // within Deno's 800 KiB a commit
        var op = kv.atomic();
        for (int i = c * 300; i < (c + 1) * 300; i++) {
          op.set(KvKey.of("k", i), VALUE + i);
        }
        op.commit();
      }
    }
    Jar kvasir = new Jar(dir);

    Jar.Run backup = kvasir.run(SMALL_HEAP, "backup", "--once", "--db", "app.sqlite3", "--to",
        "dag:bk");
    assertThat(backup.exit()).as(backup.err()).isZero();
    assertThat(backup.out()).contains(ENTRIES + " entries, " + ENTRIES + " changed");

    Jar.Run restore = kvasir.run(SMALL_HEAP, "restore", "--from", "dag:bk", "--to",
        "restored.sqlite3");
    assertThat(restore.exit()).as(restore.err()).isZero();

    Jar.Run source = kvasir.run("info", "--db", "app.sqlite3", "--json");
    Jar.Run restored = kvasir.run("info", "--db", "restored.sqlite3", "--json");
    assertThat(fingerprint(restored)).as("the same entries, versionstamps and expiries")
        .isEqualTo(fingerprint(source));
    try (Kv kv = Kv.open(dir.resolve("restored.sqlite3").toString())) {
      assertThat(Entries.count(kv)).isEqualTo(ENTRIES);
      assertThat(kv.get(KvKey.of("k", ENTRIES - 1)).value()).isEqualTo(VALUE + (ENTRIES - 1));
    }
  }

  /**
   * Many small entries, whose keys, not values, once filled the heap: a first copy held the
   * keyspace pail's changes and built the pail from all of them, about 700 bytes a key, and
   * {@code kvasir info} built its fingerprint the same way. Both now build from the sorted
   * entries as they come, holding one path of the pail (docs/dag-keyspace.md §3). Before, the
   * copy needed 192 MiB for these 250 000 keys and the fingerprint 128 MiB.
   */
  @Test
  void manyKeys_areBackedUpAndFingerprinted_inAHeapTheirCountOnceFilled() throws Exception {
    int keys = 250_000;
    try (Kv kv = Kv.open(dir.resolve("many.sqlite3").toString())) {
      for (int c = 0; c < keys / 500; c++) {
        var op = kv.atomic();
        for (int i = c * 500; i < (c + 1) * 500; i++) {
          op.set(KvKey.of("k", i), i);
        }
        op.commit();
      }
    }
    Jar kvasir = new Jar(dir);

    Jar.Run info = kvasir.run(Map.of("JAVA_TOOL_OPTIONS", "-Xmx48m"), "info", "--db",
        "many.sqlite3", "--json");
    Jar.Run backup = kvasir.run(Map.of("JAVA_TOOL_OPTIONS", "-Xmx128m"), "backup", "--once",
        "--db", "many.sqlite3", "--to", "dag:many");

    assertThat(backup.exit()).as(backup.err()).isZero();
    assertThat(backup.out()).contains(keys + " entries, " + keys + " changed");
    assertThat(fingerprint(kvasir.run("info", "--db", "dag:many", "--json")))
        .as("the backup's keyspace root").isEqualTo(fingerprint(info));
  }

  private static String fingerprint(Jar.Run info) {
    assertThat(info.exit()).as(info.err()).isZero();
    return info.out().replaceAll("(?s).*\"fingerprint\":\"([^\"]+)\".*", "$1");
  }
}
