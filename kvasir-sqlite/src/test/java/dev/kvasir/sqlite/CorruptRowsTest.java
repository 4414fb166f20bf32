package dev.kvasir.sqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kvasir.Kv;
import dev.kvasir.KvEntry;
import dev.kvasir.KvKey;
import dev.kvasir.KvListIterator;
import dev.kvasir.ListSelector;
import dev.kvasir.base.Hex;
import dev.kvasir.base.KvCorruptEntryException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Rows another program planted in a Deno KV file: an unknown value encoding, V8 bytes that do
 * not parse, a u64 of 3 bytes, a key that does not decode. Each fails alone, naming its key;
 * the good rows around them are read as usual, and a listing goes on past the bad ones.
 */
class CorruptRowsTest {
  @TempDir Path dir;

  /** Plants the rows and returns the file. */
  static String plant(Path dir) throws Exception {
    String file = dir.resolve("planted.sqlite3").toString();
    try (Kv kv = Kv.open(file)) {
      for (int i = 0; i < 4; i++) {
        kv.set(KvKey.of("k", i), "good " + i);
      }
    }
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file);
        PreparedStatement p = c.prepareStatement("insert into kv (k, v, v_encoding, version)"
            + " values (?, ?, ?, 1)")) {
      row(p, KvKey.of("k", 0.5).encode(), Hex.decode("ff1022"), 7); // unknown encoding
      row(p, KvKey.of("k", 1.5).encode(), Hex.decode("ff1049"), 1); // truncated V8
      row(p, KvKey.of("k", 2.5).encode(), Hex.decode("010203"), 2); // a 3-byte u64
      // ["k", then a part of type 05 (FoundationDB's nested tuple), which Deno never writes.
      row(p, Hex.decode("026b000501"), Hex.decode("ff105f"), 1);
    }
    return file;
  }

  private static void row(PreparedStatement p, byte[] key, byte[] value, int encoding)
      throws Exception {
    p.setBytes(1, key);
    p.setBytes(2, value);
    p.setInt(3, encoding);
    p.executeUpdate();
  }

  @Test
  void listing_skipsEachCorruptEntry_namingItsKey_andReturnsEveryGoodOne() throws Exception {
    try (Kv kv = Kv.open(plant(dir))) {
      List<Object> good = new ArrayList<>();
      List<String> corrupt = new ArrayList<>();
      KvListIterator it = kv.list(ListSelector.prefix(KvKey.of("k")));
      while (it.hasNext()) {
        try {
          KvEntry e = it.next();
          good.add(e.value());
        } catch (KvCorruptEntryException e) {
          corrupt.add(e.getMessage());
        }
      }
      assertThat(good).containsExactly("good 0", "good 1", "good 2", "good 3");
      assertThat(corrupt).hasSize(4);
      assertThat(corrupt.get(0)).contains("0x026b000501"); // type 05 sorts first
      assertThat(corrupt.get(1)).contains("[\"k\",0.5]", "encoding 7 is unknown");
      assertThat(corrupt.get(2)).contains("[\"k\",1.5]");
      assertThat(corrupt.get(3)).contains("[\"k\",2.5]", "8 bytes");
    }
  }

  @Test
  void readingACorruptEntry_failsWithItsKey_andLeavesTheOthersReadable() throws Exception {
    try (Kv kv = Kv.open(plant(dir))) {
      KvEntry bad = kv.get(KvKey.of("k", 0.5));
      assertThat(bad.exists()).isTrue();
      assertThatThrownBy(bad::value).isInstanceOf(KvCorruptEntryException.class)
          .hasMessageContaining("[\"k\",0.5]");
      assertThat(kv.get(KvKey.of("k", 1)).value()).isEqualTo("good 1");
      // Overwriting a corrupt entry repairs it.
      kv.set(KvKey.of("k", 0.5), "repaired");
      assertThat(kv.get(KvKey.of("k", 0.5)).value()).isEqualTo("repaired");
    }
  }
}
