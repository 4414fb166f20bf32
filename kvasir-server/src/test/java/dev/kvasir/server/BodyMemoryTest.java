package dev.kvasir.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;

class BodyMemoryTest {
  @Test
  void bodies_areRefusedWhenTheyDoNotFit_butOneLargerThanTheLimitGoesAlone() {
    BodyMemory memory = new BodyMemory(100);
    assertThat(memory.takeForBody(60)).isTrue();
    assertThat(memory.takeForBody(41)).isFalse();
    assertThat(memory.takeForBody(40)).isTrue();
    assertThat(memory.held()).isEqualTo(100);
    memory.giveForBody(100);
    assertThat(memory.takeForBody(500)).as("alone").isTrue();
    assertThat(memory.takeForBody(1)).isFalse();
    memory.giveForBody(500);
    assertThat(memory.held()).isZero();
  }

  @Test
  void readsWait_andAreLetGoInTheOrderTheyCame() {
    BodyMemory memory = new BodyMemory(100);
    assertThat(memory.takeForRead(90)).isCompleted();
    CompletableFuture<Void> first = memory.takeForRead(50);
    CompletableFuture<Void> second = memory.takeForRead(5);
    assertThat(first).isNotDone();
    assertThat(second).as("fits, but came after a waiting read").isNotDone();

    memory.giveForRead(90);
    assertThat(first).isCompleted();
    assertThat(second).isCompleted();
    assertThat(memory.held()).isEqualTo(55);
  }

  @Test
  void aReadLargerThanTheLimit_goesOnceNoOtherReadHoldsMemory_whateverTheBodiesHold() {
    BodyMemory memory = new BodyMemory(100);
    assertThat(memory.takeForRead(30)).isCompleted();
    assertThat(memory.takeForBody(60)).isTrue();
    CompletableFuture<Void> large = memory.takeForRead(250);
    assertThat(large).isNotDone();

    memory.giveForRead(30); // the bodies still hold 60
    assertThat(large).isCompleted();
    assertThat(memory.held()).isEqualTo(310);
    assertThat(memory.takeForBody(1)).isFalse();
    assertThat(memory.takeForRead(1)).as("the limit and one read at most").isNotDone();
  }

  @Test
  void aReadThatStoppedWaiting_leavesTheLine_soThoseBehindItGoOn() {
    BodyMemory memory = new BodyMemory(100);
    assertThat(memory.takeForRead(60)).isCompleted();
    CompletableFuture<Void> gaveUp = memory.takeForRead(80);
    CompletableFuture<Void> behind = memory.takeForRead(30);
    assertThat(behind).isNotDone();

    gaveUp.completeExceptionally(new TimeoutException());
    memory.abandon(gaveUp);
    assertThat(behind).isCompleted();
    assertThat(memory.held()).isEqualTo(90);
  }

  @Test
  void memoryGrantedToAReadAsItStoppedWaiting_isGivenBack() {
    BodyMemory memory = new BodyMemory(100);
    assertThat(memory.takeForRead(60)).isCompleted();
    CompletableFuture<Void> gaveUp = memory.takeForRead(80);
    gaveUp.completeExceptionally(new TimeoutException()); // abandon not yet called

    memory.giveForRead(60);
    assertThat(memory.held()).isZero();
    memory.abandon(gaveUp);
    assertThat(memory.held()).isZero();
  }

  @Test
  void takeAnyway_countsMemoryAlreadyInUse_evenBeyondTheLimit() {
    BodyMemory memory = new BodyMemory(100);
    memory.takeAnywayForRead(150);
    assertThat(memory.held()).isEqualTo(150);
    assertThat(memory.takeForBody(1)).isFalse();
    CompletableFuture<Void> waiting = memory.takeForRead(10);
    assertThat(waiting).isNotDone();
    memory.giveForRead(150);
    assertThat(waiting).isCompleted();
  }

  @Test
  void refusal_is503() {
    assertThat(new BodyMemory(64L << 20).refusal().status).isEqualTo(503);
    assertThat(new BodyMemory(64L << 20).refusal()).hasMessageContaining("64 MiB");
  }
}
