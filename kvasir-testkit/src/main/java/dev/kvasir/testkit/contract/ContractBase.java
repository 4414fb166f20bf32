package dev.kvasir.testkit.contract;

import dev.kvasir.Kv;
import dev.kvasir.KvEntry;
import dev.kvasir.KvKey;
import dev.kvasir.ListOptions;
import dev.kvasir.ListSelector;
import dev.kvasir.spi.KvEngine;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/**
 * Set-up shared by the parts of {@link KvEngineContract}: a fresh {@link Kv} over the engine
 * under test for every test, closed afterwards, and small helpers.
 */
abstract class ContractBase {
  /** A directory private to the test, for engines that store files. */
  @TempDir protected Path tempDir;

  /** The database under test, open for the duration of each test. */
  protected Kv kv;

  /** The engine under {@link #kv}, for what only the SPI offers. */
  protected KvEngine engine;

  /** The directory the current engine was opened in. */
  protected Path engineDir;

  private int opened;

  /** A new, empty engine. Called once per test, and again by tests that need a second one. */
  protected abstract KvEngine openEngine(Path dir) throws Exception;

  /** Whether data survives closing the engine and opening it again in the same directory. */
  protected boolean persistent() {
    return false;
  }

  /** Whether the engine delivers queue messages; KV Connect does not. */
  protected boolean supportsQueues() {
    return true;
  }

  @BeforeEach
  void openDatabase() throws Exception {
    engineDir = tempDir.resolve("db" + opened++);
    java.nio.file.Files.createDirectories(engineDir);
    engine = openEngine(engineDir);
    kv = Kv.of(engine);
  }

  @AfterEach
  void closeDatabase() {
    kv.close();
  }

  /** Every entry of the selection, in iteration order. */
  protected List<KvEntry> list(ListSelector selector, ListOptions options) {
    List<KvEntry> out = new ArrayList<>();
    kv.list(selector, options).forEach(out::add);
    return out;
  }

  protected List<KvEntry> list(ListSelector selector) {
    return list(selector, ListOptions.defaults());
  }

  protected static List<KvKey> keys(List<KvEntry> entries) {
    return entries.stream().map(KvEntry::key).toList();
  }

  protected static KvKey key(Object... parts) {
    return KvKey.of(parts);
  }
}
