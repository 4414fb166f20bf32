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
 * Set-up shared by the contract's themes: a fresh {@link Kv} over the engine under test for
 * every test, closed afterwards, and small helpers. A theme runs alone when a test class extends
 * it and names its engine in {@link #subject()}; {@link KvEngineContract} runs them all.
 */
public abstract class ContractBase {
  /** A directory private to the test, for engines that store files. */
  @TempDir protected Path tempDir;

  /** The database under test, open for the duration of each test. */
  protected Kv kv;

  /** The engine under {@link #kv}, for what only the SPI offers. */
  protected KvEngine engine;

  /** The directory the current engine was opened in. */
  protected Path engineDir;

  private int opened;

  /** The engine under test. */
  protected abstract EngineUnderTest subject();

  /** A new, empty engine of the {@link #subject()}. */
  protected final KvEngine openEngine(Path dir) throws Exception {
    return subject().openEngine(dir);
  }

  protected final boolean persistent() {
    return subject().persistent();
  }

  protected final boolean supportsQueues() {
    return subject().supportsQueues();
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
