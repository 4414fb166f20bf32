package dev.kvasir.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import dev.kvasir.Kv;
import dev.kvasir.KvKey;
import dev.kvasir.ListSelector;
import dev.kvasir.base.Hex;
import dev.kvasir.connect.proto.AtomicWrite;
import dev.kvasir.connect.proto.Check;
import dev.kvasir.connect.proto.Enqueue;
import dev.kvasir.connect.proto.KvValue;
import dev.kvasir.connect.proto.Mutation;
import dev.kvasir.connect.proto.MutationType;
import dev.kvasir.connect.proto.ValueEncoding;
import dev.kvasir.sqlite.SqliteConfig;
import dev.kvasir.sqlite.SqliteEngine;
import dev.kvasir.testkit.DenoPeer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Strict at the door, tolerant inside: writes that would store something no client can read are
 * refused with 400 and change nothing; rows another program planted are served without a 5xx
 * (which Deno would retry forever), so Deno gets an error for them and reads the rest.
 */
class PoisonIT {
  private static final HttpClient HTTP = HttpClient.newBuilder()
      .version(HttpClient.Version.HTTP_1_1).build();
  private static final byte[] KEY = KvKey.of("p").encode();

  @TempDir Path dir;

  private static Mutation.Builder set(byte[] key, ValueEncoding encoding, String hex) {
    return Mutation.newBuilder().setKey(ByteString.copyFrom(key))
        .setMutationType(MutationType.M_SET)
        .setValue(KvValue.newBuilder().setEncoding(encoding)
            .setData(ByteString.copyFrom(Hex.decode(hex))));
  }

  private static HttpResponse<String> post(Served served, AtomicWrite write) throws Exception {
    return HTTP.send(HttpRequest.newBuilder(URI.create(served.server.url() + "/v2/atomic_write"))
        .header("authorization", "Bearer " + Served.TOKEN)
        .header("content-type", "application/x-protobuf")
        .POST(HttpRequest.BodyPublishers.ofByteArray(write.toByteArray())).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void poisonWrites_areRefusedWith400_andChangeNothing() throws Exception {
    byte[] undecodable = Hex.decode("020061"); // a string part without its terminator
    List<AtomicWrite> poison = List.of(
        AtomicWrite.newBuilder().addMutations(set(undecodable, ValueEncoding.VE_V8, "ff105f"))
            .build(),
        AtomicWrite.newBuilder().addMutations(set(KEY, ValueEncoding.VE_V8, "ff1049")).build(),
        AtomicWrite.newBuilder().addMutations(set(KEY, ValueEncoding.VE_V8, "0102")).build(),
        AtomicWrite.newBuilder().addMutations(set(KEY, ValueEncoding.VE_LE64, "010203")).build(),
        AtomicWrite.newBuilder().addMutations(set(KEY, ValueEncoding.VE_V8, "ff105f")
            .setValue(KvValue.newBuilder().setEncodingValue(9)
                .setData(ByteString.copyFrom(new byte[] {1})))).build(),
        AtomicWrite.newBuilder().addChecks(Check.newBuilder()
            .setKey(ByteString.copyFrom(undecodable))).build(),
        AtomicWrite.newBuilder().addEnqueues(Enqueue.newBuilder()
            .setPayload(ByteString.copyFrom(Hex.decode("ff10ff")))
            .setDeadlineMs(System.currentTimeMillis())).build(),
        AtomicWrite.newBuilder().addEnqueues(Enqueue.newBuilder()
            .setPayload(ByteString.copyFrom(Hex.decode("ff105f")))
            .setDeadlineMs(System.currentTimeMillis())
            .addKeysIfUndelivered(ByteString.copyFrom(undecodable))).build());
    try (Served served = new Served(
        SqliteEngine.open(SqliteConfig.of(dir.resolve("kv.sqlite3").toString())))) {
      for (AtomicWrite write : poison) {
        HttpResponse<String> r = post(served, write);
        assertThat(r.statusCode()).as("%s -> %s", write, r.body()).isEqualTo(400);
        assertThat(r.body()).isNotBlank();
      }
      Kv kv = Kv.of(served.backing);
      assertThat(kv.list(ListSelector.prefix(KvKey.of())).stream().count()).isZero();
      // The same request with a valid value goes through.
      assertThat(post(served, AtomicWrite.newBuilder()
          .addMutations(set(KEY, ValueEncoding.VE_V8, "ff105f")).build()).statusCode())
          .isEqualTo(200);
    }
  }

  @Test
  void plantedRows_neverAnswer5xx_andDenoGetsAnErrorNotAHang() throws Exception {
    String file = dir.resolve("planted.sqlite3").toString();
    try (Kv kv = Kv.open(file)) {
      kv.set(KvKey.of("k", "good"), "fine");
    }
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file);
        PreparedStatement p = c.prepareStatement("insert into kv (k, v, v_encoding, version)"
            + " values (?, ?, ?, 1)")) {
      plant(p, KvKey.of("k", "encoding").encode(), "ff1022", 7);
      plant(p, KvKey.of("k", "v8").encode(), "ff1049", 1);
      plant(p, KvKey.of("k", "u64").encode(), "010203", 2);
    }
    DenoPeer deno = DenoPeer.require(dir.resolve("deno")).env("DENO_KV_ACCESS_TOKEN",
        Served.TOKEN);
    try (Served served = new Served(SqliteEngine.open(SqliteConfig.of(file)))) {
      String out = deno.run("read_corrupt.ts", served.server.url(),
          "[\"k\",\"good\"]", "[\"k\",\"encoding\"]", "[\"k\",\"v8\"]", "[\"k\",\"u64\"]",
          "[\"k\",\"good\"]");
      List<String> lines = out.lines().filter(l -> !l.isBlank()).toList();
      assertThat(lines).as(out).hasSize(5);
      assertThat(lines.get(0)).isEqualTo("value \"fine\"");
      assertThat(lines.subList(1, 4)).as(out).allMatch(l -> l.startsWith("error "));
      assertThat(lines.get(4)).as("the connection still works").isEqualTo("value \"fine\"");
    }
  }

  private static void plant(PreparedStatement p, byte[] key, String value, int encoding)
      throws Exception {
    p.setBytes(1, key);
    p.setBytes(2, Hex.decode(value));
    p.setInt(3, encoding);
    p.executeUpdate();
  }
}
