package dev.kvasir.testkit.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kvasir.Kv;
import dev.kvasir.base.Versionstamp;
import dev.kvasir.spi.KvEngine;
import dev.kvasir.spi.StoredEntry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What a lossless copy and a backup rely on (docs/dag-keyspace.md §4, docs/backup.md §2):
 * {@code dump} lists every live entry with its versionstamp and expiry from one state and
 * names that state's version; {@code committedVersion} moves with every commit; {@code load}
 * into an empty engine reproduces the entries, and the next commit is above them.
 */
public abstract class CopyContract extends ContractBase {
  private List<StoredEntry> dump(KvEngine engine, long[] version) {
    List<StoredEntry> out = new ArrayList<>();
    version[0] = engine.dump(out::add);
    return out;
  }

  @Test
  void dump_listsLiveEntriesAscending_withVersionstampsExpiriesAndTheVersion() throws Exception {
    if (!subject().copiesEntries()) {
      assertThatThrownBy(() -> engine.dump(e -> { }))
          .isInstanceOf(UnsupportedOperationException.class);
      assertThatThrownBy(() -> engine.load(List.of()))
          .isInstanceOf(UnsupportedOperationException.class);
      return;
    }
    long before = engine.committedVersion();
    Versionstamp b = kv.set(key("b"), "two").versionstamp();
    Versionstamp a = kv.set(key("a"), 1, Duration.ofHours(1)).versionstamp();
    kv.set(key("gone"), 1, Duration.ofMillis(1));
    Thread.sleep(20);
    long[] version = {0};
    List<StoredEntry> entries = dump(engine, version);
    assertThat(entries).extracting(StoredEntry::key)
        .containsExactly(key("a").raw(), key("b").raw());
    assertThat(entries.get(0).versionstamp()).isEqualTo(a);
    assertThat(entries.get(0).expireAtMs()).isGreaterThan(System.currentTimeMillis());
    assertThat(entries.get(1).versionstamp()).isEqualTo(b);
    assertThat(entries.get(1).expireAtMs()).isEqualTo(StoredEntry.NEVER);
    assertThat(version[0]).isGreaterThan(before).isGreaterThanOrEqualTo(a.version());
    assertThat(engine.committedVersion()).isGreaterThanOrEqualTo(version[0]);
    long now = engine.committedVersion();
    kv.set(key("c"), 3);
    assertThat(engine.committedVersion()).isGreaterThan(now);
  }

  @Test
  void load_intoAnEmptyEngine_reproducesTheDump_andCommitsAboveIt() throws Exception {
    if (!subject().copiesEntries()) {
      return; // refusals checked above
    }
    for (int i = 0; i < 50; i++) {
      if (i % 3 == 0) {
        kv.set(key("n", i), "expiring " + i, Duration.ofHours(1 + i));
      } else {
        kv.set(key("n", i), List.of(i, "v" + i));
      }
    }
    long[] version = {0};
    List<StoredEntry> entries = dump(engine, version);
    Path other = tempDir.resolve("copy");
    Files.createDirectories(other);
    try (KvEngine copy = openEngine(other); Kv copied = Kv.of(copy)) {
      copy.load(entries);
      assertThat(dump(copy, new long[1])).isEqualTo(entries);
      Versionstamp next = copied.set(key("after"), 1).versionstamp();
      entries.forEach(e -> assertThat(next).isGreaterThan(e.versionstamp()));
    }
  }
}
