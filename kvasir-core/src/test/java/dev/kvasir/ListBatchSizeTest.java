package dev.kvasir;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kvasir.memory.MemoryEngine;
import dev.kvasir.spi.KvEngine;
import dev.kvasir.spi.ReadRange;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The sizes of the reads a list asks the engine for (docs/list.md §2). */
class ListBatchSizeTest {
  private static final int ENTRIES = 1_234;

  /** The limit of every range the list asked the engine to read. */
  private final List<Integer> limits = new ArrayList<>();
  private final Kv kv = Kv.of(recording(MemoryEngine.open()));

  /** {@code inner}, with the limit of every range read recorded in {@link #limits}. */
  private KvEngine recording(KvEngine inner) {
    InvocationHandler record = (proxy, method, args) -> {
      if (method.getName().equals("snapshotRead")) {
        ((List<?>) args[0]).forEach(r -> limits.add(((ReadRange) r).limit()));
      }
      try {
        return method.invoke(inner, args);
      } catch (InvocationTargetException e) {
        throw e.getCause();
      }
    };
    return (KvEngine) Proxy.newProxyInstance(KvEngine.class.getClassLoader(),
        new Class<?>[] {KvEngine.class}, record);
  }

  @BeforeEach
  void fill() {
    for (int i = 0; i < ENTRIES; i += 100) {
      AtomicOperation op = kv.atomic();
      for (int j = i; j < Math.min(i + 100, ENTRIES); j++) {
        op.set(KvKey.of("n", j), j);
      }
      op.commit();
    }
    limits.clear();
  }

  @AfterEach
  void close() {
    kv.close();
  }

  /** Lists under {@code ["n"]} and returns the limits of the reads it took. */
  private List<Integer> reads(ListOptions options, int expectedEntries) {
    int i = 0;
    for (KvEntry e : kv.list(ListSelector.prefix(KvKey.of("n")), options)) {
      assertThat(e.key()).isEqualTo(KvKey.of("n", i));
      i++;
    }
    assertThat(i).isEqualTo(expectedEntries);
    return limits;
  }

  @Test
  void withoutABatchSize_eachReadIsTwiceTheLast_upTo500() {
    assertThat(reads(ListOptions.defaults(), ENTRIES)).containsExactly(100, 200, 400, 500, 500);
  }

  @Test
  void aChosenBatchSize_isKeptForEveryRead() {
    assertThat(reads(ListOptions.defaults().batchSize(100), ENTRIES))
        .hasSize(13).containsOnly(100);
  }

  @Test
  void withALimit_theFirstReadIsTheLimit_andTheLastOnlyWhatIsLeft() {
    assertThat(reads(ListOptions.defaults().limit(250), 250)).containsExactly(250);
    limits.clear();
    assertThat(reads(ListOptions.defaults().limit(1_100), 1_100)).containsExactly(500, 500, 100);
  }

  @Test
  void aListStoppedEarly_readsOnlyItsFirstBatch() {
    KvListIterator it = kv.list(ListSelector.prefix(KvKey.of("n")));
    for (int i = 0; i < 100; i++) {
      it.next();
    }
    assertThat(limits).containsExactly(100);
  }
}
