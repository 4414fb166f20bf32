package dev.kvasir.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kvasir.dag.Pail;
import dev.kvasir.dag.PailEntry;
import dev.kvasir.dag.cid.Cid;
import dev.kvasir.dag.store.MemoryBlockstore;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code kvasir dag} driven through the shaded jar, on a directory store and a CAR file. */
class DagCliIT {
  @TempDir Path dir;

  @Test
  void putGetListDeleteExportImportDiff_onDurableStores() throws Exception {
    Jar kvasir = new Jar(dir);
    Jar.Run put = kvasir.run("dag", "put", "fruit/apple", "red");
    assertThat(put.exit()).as(put.err()).isZero();
    Cid red = Cid.of(Cid.RAW, "red".getBytes(StandardCharsets.UTF_8));
    assertThat(kvasir.run("dag", "put", "fruit/pear", "--cid", red.toString()).exit()).isZero();
    Jar.Run lastPut = kvasir.run("dag", "put", "veg/kale", "green");
    String root = lastPut.out().strip();
    assertThat(Files.readString(dir.resolve("pail/ROOT")).strip()).isEqualTo(root);

    // The same puts through the library give the same root.
    Pail pail = Pail.open(new MemoryBlockstore());
    Cid expected = pail.empty();
    expected = pail.put(expected, "fruit/apple", red).root();
    expected = pail.put(expected, "fruit/pear", red).root();
    expected = pail.put(expected, "veg/kale", Cid.of(Cid.RAW,
        "green".getBytes(StandardCharsets.UTF_8))).root();
    assertThat(root).isEqualTo(expected.toString());

    assertThat(kvasir.run("dag", "get", "fruit/apple").out().strip()).isEqualTo(red.toString());
    assertThat(kvasir.run("dag", "get", "--value", "veg/kale").out().strip())
        .isEqualTo("green");
    assertThat(kvasir.run("dag", "get", "fruit/fig").exit()).isEqualTo(Kvasir.FAILED);
    assertThat(kvasir.run("dag", "ls", "--prefix", "fruit/").out().lines())
        .containsExactly("fruit/apple\t" + red, "fruit/pear\t" + red);
    assertThat(kvasir.run("dag", "ls", "--gt", "fruit/apple", "--lte", "veg/kale", "--json")
        .out().lines()).hasSize(2).allMatch(l -> l.startsWith("{\"key\":"));

    assertThat(kvasir.run("dag", "export", "copy.car").exit()).isZero();
    Jar.Run imported = kvasir.run("dag", "--store", "other", "import", "copy.car");
    assertThat(imported.out().strip()).isEqualTo(root);
    assertThat(kvasir.run("dag", "--store", "other", "del", "fruit/pear").exit()).isZero();
    assertThat(kvasir.run("dag", "--store", "other", "del", "fruit/pear").exit())
        .isEqualTo(Kvasir.FAILED);
    Jar.Run diff = kvasir.run("dag", "diff", "other");
    assertThat(diff.out().lines()).containsExactly("- fruit/pear " + red);
    // A store whose name begins as a CID does; before, it was parsed as one and refused.
    assertThat(kvasir.run("dag", "--store", "bafcopy", "import", "copy.car").exit()).isZero();
    Jar.Run same = kvasir.run("dag", "diff", "bafcopy");
    assertThat(same.exit()).as(same.err()).isZero();
    assertThat(same.out()).isEmpty();

    Jar.Run carPut = kvasir.run("dag", "--store", "copy.car", "put", "nut", "brown");
    assertThat(carPut.exit()).as(carPut.err()).isZero();
    assertThat(kvasir.run("dag", "--store", "copy.car", "root").out().strip())
        .isEqualTo(carPut.out().strip());
    assertThat(kvasir.run("dag", "--store", "copy.car", "tree").out()).contains("nut → ");
    List<PailEntry> entries = pail.entries(expected).toList();
    assertThat(kvasir.run("dag", "ls").out().lines()).hasSize(entries.size());
  }

  @Test
  void errors_haveExitCodesAndMessages() throws Exception {
    Jar kvasir = new Jar(dir);
    Jar.Run missing = kvasir.run("dag", "--store", "nowhere", "ls");
    assertThat(missing.exit()).isEqualTo(Kvasir.FAILED);
    assertThat(missing.err()).contains("there is no pail at nowhere");
    Jar.Run both = kvasir.run("dag", "put", "k", "v", "--cid", "bafy");
    assertThat(both.exit()).isEqualTo(Kvasir.USAGE);
    assertThat(kvasir.run("dag", "--max-shard-size", "60", "put", "x/abc", "v").exit()).isZero();
    Jar.Run full = kvasir.run("dag", "--max-shard-size", "60", "put", "y/abd", "v");
    assertThat(full.exit()).isEqualTo(Kvasir.FAILED);
    // The options by their names on the command line, not the library's (maxShardSize).
    assertThat(full.err()).contains("shard limit reached").contains("a larger --max-shard-size");
    Jar.Run zero = kvasir.run("dag", "--max-shard-size", "0", "put", "z", "v");
    assertThat(zero.exit()).isEqualTo(Kvasir.USAGE);
    assertThat(zero.err()).contains("--max-shard-size must be positive, not 0");
    Files.writeString(dir.resolve("bad.car"), "not a car");
    Jar.Run bad = kvasir.run("dag", "--store", "x", "import", "bad.car");
    assertThat(bad.exit()).isEqualTo(Kvasir.DATABASE_ERROR);
    assertThat(bad.err()).contains("CAR");
  }
}
