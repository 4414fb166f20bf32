package dev.kvasir.testkit.powercut;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.HashSet;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** What a power cut keeps of the files (docs/power-cut.md §1). */
class CachedDiskTest {
  private final CachedDisk disk = new CachedDisk();

  @Test
  void whatASyncMadeStable_survivesEveryCut_andAppendsSinceSurviveAsAFirstPart() {
    long file = disk.create(CachedDisk.ROOT, "log", false, 0644).id;
    byte[] synced = bytes(5_000, 1);
    disk.write(file, 0, synced);
    disk.sync(file);
    Set<String> kept = new HashSet<>();
    for (int seed = 0; seed < 60; seed++) {
      byte[] later = bytes(3 * CachedDisk.PAGE, 2 + seed);
      disk.write(file, synced.length, later); // across four pages of the file
      disk.cut(new Random(seed));
      byte[] after = disk.read(file, 0, Integer.MAX_VALUE);
      assertThat(Arrays.copyOf(after, synced.length)).isEqualTo(synced);
      kept.add(pages(after, synced.length, later));
      disk.truncate(file, synced.length);
      disk.sync(file);
    }
    assertThat(kept).as("a file never grows over a page the disk did not get")
        .containsExactlyInAnyOrder("----", "k---", "kk--", "kkk-", "kkkk");
  }

  @Test
  void pagesOverwrittenInsideTheFile_surviveEachOnItsOwn() {
    long file = disk.create(CachedDisk.ROOT, "db", false, 0644).id;
    byte[] synced = bytes(4 * CachedDisk.PAGE, 1);
    disk.write(file, 0, synced);
    disk.sync(file);
    Set<String> kept = new HashSet<>();
    for (int seed = 0; seed < 60; seed++) {
      byte[] later = bytes(synced.length, 2 + seed);
      disk.write(file, 0, later);
      disk.cut(new Random(seed));
      byte[] after = disk.read(file, 0, Integer.MAX_VALUE);
      StringBuilder pattern = new StringBuilder();
      for (int page = 0; page < 4; page++) {
        int from = page * CachedDisk.PAGE;
        byte[] found = Arrays.copyOfRange(after, from, from + CachedDisk.PAGE);
        boolean isNew = Arrays.equals(found, Arrays.copyOfRange(later, from,
            from + CachedDisk.PAGE));
        assertThat(isNew || Arrays.equals(found, Arrays.copyOfRange(synced, from,
            from + CachedDisk.PAGE))).as("seed %d: page %d is old or new, whole", seed, page)
            .isTrue();
        pattern.append(isNew ? 'k' : '-');
      }
      kept.add(pattern.toString());
      disk.write(file, 0, synced);
      disk.sync(file);
    }
    assertThat(kept).as("none, all, and pages in any mix").contains("----", "kkkk", "-k-k");
  }

  @Test
  void namesLastAsLongAsTheLastSync_ofAnyFileOrDirectory() {
    long dir = disk.create(CachedDisk.ROOT, "db", true, 0755).id;
    long a = disk.create(dir, "a", false, 0644).id;
    disk.write(a, 0, bytes(10, 3));
    disk.sync(a); // a journal's commit: the names so far too
    disk.create(dir, "b", false, 0644);
    disk.rename(dir, "a", dir, "c", false);
    disk.cut(new Random(1));
    assertThat(disk.list(dir)).extracting(e -> e.getKey()).containsExactly("a");
    assertThat(disk.read(disk.lookup(dir, "a").id, 0, 100)).isEqualTo(bytes(10, 3));

    disk.create(dir, "d", false, 0644);
    disk.sync(dir);
    disk.remove(dir, "d", false);
    disk.cut(new Random(2));
    assertThat(disk.list(dir)).extracting(e -> e.getKey()).containsExactly("a", "d");
  }

  @Test
  void refusesWhatAFileSystemRefuses() {
    long dir = disk.create(CachedDisk.ROOT, "db", true, 0755).id;
    disk.create(dir, "a", false, 0644);
    assertThatThrownBy(() -> disk.create(dir, "a", false, 0644))
        .isInstanceOfSatisfying(FsException.class, e ->
            assertThat(e.errno).isEqualTo(FsException.EEXIST));
    assertThatThrownBy(() -> disk.remove(CachedDisk.ROOT, "db", true))
        .isInstanceOfSatisfying(FsException.class, e ->
            assertThat(e.errno).isEqualTo(FsException.ENOTEMPTY));
    assertThatThrownBy(() -> disk.rename(dir, "a", CachedDisk.ROOT, "db", false))
        .isInstanceOfSatisfying(FsException.class, e ->
            assertThat(e.errno).isEqualTo(FsException.EISDIR));
    assertThatThrownBy(() -> disk.lookup(dir, "b"))
        .isInstanceOfSatisfying(FsException.class, e ->
            assertThat(e.errno).isEqualTo(FsException.ENOENT));
  }

  /** Per page of {@code later}, written at {@code from}: k if {@code after} has it, - if not. */
  private static String pages(byte[] after, int from, byte[] later) {
    StringBuilder pages = new StringBuilder();
    for (int at = from; at < from + later.length; ) {
      int end = Math.min(from + later.length, (at / CachedDisk.PAGE + 1) * CachedDisk.PAGE);
      byte[] expected = Arrays.copyOfRange(later, at - from, end - from);
      byte[] found = Arrays.copyOfRange(after, Math.min(at, after.length),
          Math.min(after.length, end)); // lost at the end: the file is shorter
      boolean whole = Arrays.equals(found, expected);
      assertThat(whole || found.length == 0).as("a page kept whole or not at all").isTrue();
      pages.append(whole ? 'k' : '-');
      at = end;
    }
    return pages.toString();
  }

  private static byte[] bytes(int n, long seed) {
    byte[] b = new byte[n];
    new Random(seed).nextBytes(b);
    return b;
  }
}
