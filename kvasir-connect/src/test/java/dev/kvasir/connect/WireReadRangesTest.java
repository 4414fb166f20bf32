package dev.kvasir.connect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import dev.kvasir.connect.proto.ReadRange;
import dev.kvasir.connect.proto.SnapshotRead;
import org.junit.jupiter.api.Test;

/** The checks a server makes on the ranges of a snapshot read (docs/kv-connect.md §8). */
class WireReadRangesTest {
  private static SnapshotRead read(int... limits) {
    SnapshotRead.Builder b = SnapshotRead.newBuilder();
    for (int limit : limits) {
      b.addRanges(ReadRange.newBuilder().setStart(ByteString.copyFrom(new byte[] {0x02, 'a', 0}))
          .setEnd(ByteString.copyFrom(new byte[] {0x02, 'b', 0})).setLimit(limit));
    }
    return b.build();
  }

  @Test
  void entriesAcrossRanges_upToTheLimit_areAccepted() {
    var ranges = Wire.readRanges(read(600, 399, 1));
    assertThat(ranges).extracting(dev.kvasir.spi.ReadRange::limit).containsExactly(600, 399, 1);
    assertThat(dev.kvasir.spi.ReadRange.entriesAsked(ranges)).isEqualTo(1000);
  }

  @Test
  void entriesAcrossRanges_overTheLimit_areRefused() {
    assertThatThrownBy(() -> Wire.readRanges(read(600, 400, 1)))
        .isInstanceOf(BadRequestException.class)
        .hasMessageContaining("total number of entries");
  }

  @Test
  void aRangeWithoutEntries_isRefused() {
    assertThatThrownBy(() -> Wire.readRanges(read(10, 0)))
        .isInstanceOf(BadRequestException.class)
        .hasMessageContaining("limit of the snapshot read request is invalid");
  }
}
