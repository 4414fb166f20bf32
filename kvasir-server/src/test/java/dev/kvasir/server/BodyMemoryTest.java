package dev.kvasir.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;

class BodyMemoryTest {
  @Test
  void take_refusesWhatDoesNotFit_butOneOversizeRequestGoesAlone() {
    BodyMemory memory = new BodyMemory(100);
    assertThat(memory.take(60)).isTrue();
    assertThat(memory.take(41)).isFalse();
    assertThat(memory.take(40)).isTrue();
    assertThat(memory.held()).isEqualTo(100);
    memory.give(100);
    assertThat(memory.take(500)).as("alone").isTrue();
    assertThat(memory.take(1)).isFalse();
    memory.give(500);
    assertThat(memory.held()).isZero();
  }

  @Test
  void readsWait_andAreLetGoInTheOrderTheyCame() {
    BodyMemory memory = new BodyMemory(100);
    assertThat(memory.take(90)).isTrue();
    CompletableFuture<Void> first = memory.takeWhenFree(50);
    CompletableFuture<Void> second = memory.takeWhenFree(5);
    assertThat(first).isNotDone();
    assertThat(second).as("fits, but came after a waiting read").isNotDone();
    assertThat(memory.takeWhenFree(0)).isNotDone();

    memory.give(90);
    assertThat(first).isCompleted();
    assertThat(second).isCompleted();
    assertThat(memory.held()).isEqualTo(55);
  }

  @Test
  void memoryGrantedToAReadThatStoppedWaiting_isGivenBack() {
    BodyMemory memory = new BodyMemory(100);
    assertThat(memory.take(100)).isTrue();
    CompletableFuture<Void> gaveUp = memory.takeWhenFree(80);
    CompletableFuture<Void> next = memory.takeWhenFree(30);
    gaveUp.completeExceptionally(new TimeoutException());

    memory.give(100);
    assertThat(next).isCompleted();
    assertThat(memory.held()).isEqualTo(30);
  }

  @Test
  void takeAnyway_countsMemoryAlreadyInUse_evenBeyondTheLimit() {
    BodyMemory memory = new BodyMemory(100);
    memory.takeAnyway(150);
    assertThat(memory.held()).isEqualTo(150);
    assertThat(memory.take(1)).isFalse();
    CompletableFuture<Void> waiting = memory.takeWhenFree(10);
    memory.give(150);
    assertThat(waiting).isCompleted();
  }

  @Test
  void refusal_is503() {
    assertThat(new BodyMemory(64L << 20).refusal().status).isEqualTo(503);
    assertThat(new BodyMemory(64L << 20).refusal()).hasMessageContaining("64 MiB");
  }
}
