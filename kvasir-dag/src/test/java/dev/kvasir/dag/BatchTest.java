package dev.kvasir.dag;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kvasir.dag.cid.Cid;
import dev.kvasir.dag.store.MemoryBlockstore;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

class BatchTest {
  @Test
  void batch_givesTheRootOfTheSamePutsOneByOne_andStoresOnlyTheFinalShards() {
    PailOptions small = PailOptions.defaults().withMaxShardSize(1024);
    MemoryBlockstore sequentialStore = new MemoryBlockstore();
    Pail sequential = Pail.open(sequentialStore, small);
    MemoryBlockstore batchStore = new MemoryBlockstore();
    Pail batched = Pail.open(batchStore, small);
    Cid start = sequential.put(sequential.empty(), "seed", value(0)).root();
    Cid batchStart = batched.put(batched.empty(), "seed", value(0)).root();
    int storedBefore = batchStore.size();

    Random random = new Random(7);
    Batch batch = batched.batch(batchStart);
    Cid root = start;
    for (int i = 1; i <= 300; i++) {
      String key = PailPropertyTest.randomKey(random);
      root = sequential.put(root, key, value(i)).root();
      batch.put(key, value(i));
    }
    PailUpdate update = batch.commit();

    assertThat(update.root()).isEqualTo(root);
    assertThat(batched.entries(update.root()).toList())
        .isEqualTo(sequential.entries(root).toList());
    assertThat(batchStore.size() - storedBefore).isEqualTo(update.additions().size());
    assertThat(update.additions().get(update.additions().size() - 1).cid()).isEqualTo(root);
    assertThat(update.removals()).extracting(b -> b.cid()).contains(batchStart);
    assertThatThrownBy(() -> batch.put("x", value(1))).hasMessage("batch already committed");
    assertThatThrownBy(batch::commit).hasMessage("batch already committed");
  }

  @Test
  void emptyBatch_changesNothing() {
    Pail pail = Pail.open(new MemoryBlockstore());
    Cid root = pail.empty();
    PailUpdate update = pail.batch(root).commit();
    assertThat(update.root()).isEqualTo(root);
    assertThat(update.changed()).isFalse();
  }

  private static Cid value(int i) {
    return Cid.of(Cid.RAW, ("v" + i).getBytes(StandardCharsets.UTF_8));
  }
}
