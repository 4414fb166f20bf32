package dev.kvasir.dag.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A thread's interrupt neither fails a call nor closes the log for others (dag-engine.md §2). */
class LogChannelTest {
  @TempDir Path dir;

  @AfterEach
  void clearInterrupt() {
    Thread.interrupted();
  }

  private LogChannel open(String content) throws Exception {
    Path file = dir.resolve("log");
    Files.writeString(file, content);
    return new LogChannel(file, FileChannel.open(file, StandardOpenOption.READ,
        StandardOpenOption.WRITE), false);
  }

  private static String read(LogChannel channel, long at, int length) throws Exception {
    ByteBuffer buffer = ByteBuffer.allocate(length);
    channel.readFully(buffer, at);
    return new String(buffer.array(), StandardCharsets.US_ASCII);
  }

  @Test
  void anInterruptSetBeforeACall_isSetAsideForIt_andKept() throws Exception {
    try (LogChannel channel = open("0123456789")) {
      Thread.currentThread().interrupt();
      assertThat(read(channel, 2, 3)).isEqualTo("234");
      assertThat(Thread.interrupted()).as("the interrupt is put back").isTrue();
      assertThat(read(channel, 0, 2)).isEqualTo("01");
    }
  }

  @Test
  void anInterruptDuringACall_closesTheChannel_whichIsOpenedAgain_andTheCallRunsAgain()
      throws Exception {
    try (LogChannel channel = open("0123456789")) {
      AtomicInteger runs = new AtomicInteger();
      String read = channel.io(c -> {
        ByteBuffer buffer = ByteBuffer.allocate(4);
        if (runs.incrementAndGet() == 1) {
          Thread.currentThread().interrupt();
          c.read(buffer, 0); // the interrupted thread's I/O closes the channel
          throw new AssertionError("the read should have failed");
        }
        c.read(buffer, 6);
        return new String(buffer.array(), StandardCharsets.US_ASCII);
      });
      assertThat(read).isEqualTo("6789");
      assertThat(runs).hasValue(2);
      assertThat(Thread.interrupted()).as("the interrupt is kept for the caller").isTrue();
      channel.writeAt(ByteBuffer.wrap("ab".getBytes(StandardCharsets.US_ASCII)), 0);
      assertThat(read(channel, 0, 4)).as("another call uses the new channel").isEqualTo("ab23");
    }
  }

  @Test
  void theFirstRunOfThatCall_didFailOnTheInterrupt() throws Exception {
    // The premise of the test above: I/O of an interrupted thread closes a FileChannel.
    Path file = dir.resolve("plain");
    Files.writeString(file, "x");
    try (FileChannel c = FileChannel.open(file, StandardOpenOption.READ)) {
      Thread.currentThread().interrupt();
      assertThatThrownBy(() -> c.read(ByteBuffer.allocate(1), 0))
          .isInstanceOf(ClosedByInterruptException.class);
      assertThat(c.isOpen()).isFalse();
    }
  }

  @Test
  void afterClose_callsFail_andNothingIsOpenedAgain() throws Exception {
    LogChannel channel = open("0123456789");
    channel.close();
    assertThatThrownBy(() -> read(channel, 0, 1)).isInstanceOf(ClosedChannelException.class);
  }
}
