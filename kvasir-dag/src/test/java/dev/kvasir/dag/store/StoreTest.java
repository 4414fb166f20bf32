package dev.kvasir.dag.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kvasir.dag.cid.Cid;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StoreTest {
  @TempDir
  Path dir;

  private static Block raw(String s) {
    return Block.of(Cid.RAW, s.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void directoryStore_persistsBlocksAcrossInstances_andLeavesNoTemporaryFiles()
      throws IOException {
    Block a = raw("a");
    DirectoryBlockstore.open(dir).put(a);
    DirectoryBlockstore.open(dir).put(a);
    DirectoryBlockstore reopened = DirectoryBlockstore.open(dir);
    assertThat(reopened.get(a.cid()).bytes()).isEqualTo(a.bytes());
    assertThat(reopened.get(raw("b").cid())).isNull();
    try (Stream<Path> files = Files.walk(dir)) {
      assertThat(files.filter(Files::isRegularFile).map(p -> p.getFileName().toString()))
          .containsExactly(a.cid().toString());
    }
    reopened.delete(a.cid());
    assertThat(reopened.has(a.cid())).isFalse();
  }

  @Test
  void directoryStore_detectsADamagedFile_andNamesTheBlock() throws IOException {
    DirectoryBlockstore store = DirectoryBlockstore.open(dir);
    Block a = raw("precious");
    store.put(a);
    String name = a.cid().toString();
    Files.writeString(dir.resolve(name.substring(name.length() - 2)).resolve(name), "junk");
    assertThatThrownBy(() -> store.get(a.cid())).isInstanceOf(CorruptBlockException.class)
        .hasMessageContaining("block " + name + " is corrupt");
  }

  @Test
  void require_namesTheMissingBlock() {
    Cid absent = raw("nowhere").cid();
    assertThatThrownBy(() -> new MemoryBlockstore().require(absent))
        .isInstanceOf(MissingBlockException.class).hasMessageContaining(absent.toString());
  }

  @Test
  void car_roundTripsBlocksAndRoots() throws IOException {
    Block a = raw("a");
    Block b = raw("b");
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (CarWriter car = new CarWriter(out, List.of(a.cid()))) {
      car.write(a);
      car.write(b);
    }
    MemoryBlockstore store = new MemoryBlockstore();
    assertThat(Car.load(new ByteArrayInputStream(out.toByteArray()), store))
        .containsExactly(a.cid());
    assertThat(store.size()).isEqualTo(2);
    assertThat(store.get(b.cid()).bytes()).isEqualTo(b.bytes());
  }

  @Test
  void car_rejectsDamagedFiles() throws IOException {
    Block a = raw("a");
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (CarWriter car = new CarWriter(out, List.of(a.cid()))) {
      car.write(a);
    }
    byte[] bytes = out.toByteArray();
    byte[] flipped = bytes.clone();
    flipped[flipped.length - 1] ^= 1;
    assertThatThrownBy(() -> Car.load(new ByteArrayInputStream(flipped), new MemoryBlockstore()))
        .isInstanceOf(CorruptBlockException.class).hasMessageContaining(a.cid().toString());
    byte[] cut = Arrays.copyOf(bytes, bytes.length - 1);
    assertThatThrownBy(() -> Car.load(new ByteArrayInputStream(cut), new MemoryBlockstore()))
        .isInstanceOf(IOException.class).hasMessageContaining("ends inside block section 1");
    assertThatThrownBy(() -> Car.load(new ByteArrayInputStream(new byte[] {1, (byte) 0xa0}),
        new MemoryBlockstore())).isInstanceOf(IOException.class)
        .hasMessageContaining("{roots: [CID…], version: 1}");
    assertThatThrownBy(() -> Car.load(new ByteArrayInputStream(new byte[0]),
        new MemoryBlockstore())).isInstanceOf(IOException.class).hasMessageContaining("empty");
  }
}
