package dev.kvasir.connect;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.kvasir.base.Hex;
import dev.kvasir.connect.proto.AtomicWrite;
import dev.kvasir.connect.proto.AtomicWriteOutput;
import dev.kvasir.connect.proto.SnapshotRead;
import dev.kvasir.connect.proto.SnapshotReadOutput;
import dev.kvasir.connect.proto.Watch;
import dev.kvasir.connect.proto.WatchOutput;
import dev.kvasir.golden.Vectors;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The KV Connect traffic captured from Deno 2.9.6 ({@code connect.json}), byte for byte: every
 * request Deno sent survives Kvasir's server-side decoding and client-side encoding unchanged
 * (so Kvasir's client sends what Deno sends), and every answer Deno accepted is what Kvasir's
 * server encodes for the same entries.
 */
class ConnectVectorsTest {
  private static final JsonNode CAPTURE = Vectors.json("connect.json");

  static List<JsonNode> exchanges(String path) {
    return StreamSupport.stream(CAPTURE.get("data_path").spliterator(), false)
        .filter(e -> e.get("path").asText().equals(path)).toList();
  }

  static List<JsonNode> snapshotReads() {
    return exchanges("/v2/snapshot_read");
  }

  static List<JsonNode> atomicWrites() {
    return exchanges("/v2/atomic_write");
  }

  private static byte[] requestBytes(JsonNode exchange) {
    return Hex.decode(exchange.get("request_body_hex").asText());
  }

  private static byte[] responseBytes(JsonNode exchange) {
    return Hex.decode(exchange.get("response").get("body_hex").asText());
  }

  @Test
  void metadata_requestIsDenos_andDenosAcceptedAnswerParses() {
    JsonNode exchange = CAPTURE.get("metadata_exchange");
    assertThat(Metadata.request()).isEqualTo(exchange.get(0).get("request_body").asText());
    Metadata m = Metadata.parse(exchange.get(1).get("response_body").toString(),
        URI.create("http://127.0.0.1:4512/"));
    assertThat(m.version()).isEqualTo(3);
    assertThat(m.databaseId()).isEqualTo(UUID.fromString("11111111-2222-4333-8444-555555555555"));
    assertThat(m.token()).isEqualTo("data-token-xyz");
    assertThat(m.strongEndpoint().url()).isEqualTo("http://127.0.0.1:4512/v2");
    assertThat(Metadata.offeredVersions(Metadata.request())).containsExactly(1, 2, 3);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("snapshotReads")
  void snapshotRead_sameBytesBothWays(JsonNode exchange) throws Exception {
    byte[] denoRequest = requestBytes(exchange);
    SnapshotRead parsed = SnapshotRead.parseFrom(denoRequest);
    assertThat(Wire.snapshotRead(Wire.readRanges(parsed)).toByteArray()).isEqualTo(denoRequest);
    byte[] accepted = responseBytes(exchange);
    SnapshotReadOutput answer = SnapshotReadOutput.parseFrom(accepted);
    assertThat(Wire.snapshotReadOutput(Wire.entries(answer, true)).toByteArray())
        .isEqualTo(accepted);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("atomicWrites")
  void atomicWrite_sameBytesBothWays(JsonNode exchange) throws Exception {
    byte[] denoRequest = requestBytes(exchange);
    AtomicWrite parsed = AtomicWrite.parseFrom(denoRequest);
    assertThat(Wire.atomicWrite(Wire.atomicWrite(parsed)).toByteArray()).isEqualTo(denoRequest);
    byte[] accepted = responseBytes(exchange);
    AtomicWriteOutput answer = AtomicWriteOutput.parseFrom(accepted);
    assertThat(Wire.atomicWriteOutput(Wire.committed(answer)).toByteArray())
        .isEqualTo(accepted);
  }

  @Test
  void watch_sameRequestBytes_andTheSnapshotFrameIsWhatKvasirSends() throws Exception {
    JsonNode exchange = exchanges("/v2/watch").get(0);
    byte[] denoRequest = requestBytes(exchange);
    assertThat(Wire.watch(Wire.watchKeys(Watch.parseFrom(denoRequest))).toByteArray())
        .isEqualTo(denoRequest);
    // Each frame: u32 little-endian length, then a WatchOutput (§9.7).
    byte[] frame = Hex.decode(exchange.get("response").get("frames").get(0).get("hex").asText());
    int length = ByteBuffer.wrap(frame, 0, 4).order(ByteOrder.LITTLE_ENDIAN).getInt();
    byte[] message = Arrays.copyOfRange(frame, 4, frame.length);
    assertThat(length).isEqualTo(message.length);
    WatchOutput output = WatchOutput.parseFrom(message);
    assertThat(Wire.watchOutput(Wire.watchEntries(output, null)).toByteArray())
        .isEqualTo(message);
  }
}
