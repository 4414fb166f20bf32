package dev.kvasir.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.kvasir.KvKey;
import dev.kvasir.testkit.RandomOperations.Via;
import dev.kvasir.value.V8;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The limit probes of {@link RandomOperations} land one step under, at and one step over each
 * limit (docs/limits.md), measured with Kvasir's encoders; and {@link DenoDifferential} names a
 * limit's error alike whether Deno or Kvasir words it.
 */
class RandomOperationsTest {
  @Test
  void limitProbes_landUnderAtAndOverEveryLimit() {
    JsonNode operations = new RandomOperations(new Random(7), Via.ENGINE).operations(3_000);
    Map<String, Set<Long>> sizes = new TreeMap<>();
    for (JsonNode op : operations) {
      JsonNode mutations = op.path("mutations");
      if (mutations.isEmpty() || !mutations.get(0).get("key").get(0).path("s").asText()
          .equals("limit")) {
        continue;
      }
      List<KvKey> keys = new ArrayList<>();
      long valueBytes = 0;
      long keyBytesWithValues = 0;
      for (JsonNode m : mutations) {
        KvKey key = DenoDifferential.key(m.get("key"));
        keys.add(key);
        if (m.has("value")) {
          valueBytes += V8.serialize(DenoDifferential.value(m.get("value"))).length;
          keyBytesWithValues += key.encodedLength();
        }
      }
      if (op.has("enqueues")) {
        sizes.computeIfAbsent("payload", p -> new TreeSet<>()).add((long) V8.serialize(
            DenoDifferential.value(op.get("enqueues").get(0))).length);
        continue;
      }
      if (!op.get("checks").isEmpty()) {
        sizes.computeIfAbsent("checks", p -> new TreeSet<>()).add((long) op.get("checks").size());
        continue;
      }
      String probe = switch (mutations.size()) {
        case 1 -> mutations.get(0).get("key").get(1).has("x") ? "key " + mutations.get(0)
            .get("type").asText() : "value";
        case 13 -> "total mutation size";
        case 41 -> "total key size";
        default -> "mutations";
      };
      long size = switch (probe) {
        case "value" -> valueBytes;
        case "total mutation size" -> keyBytesWithValues * 2 + valueBytes;
        case "total key size" -> keyBytesWithValues;
        case "mutations" -> mutations.size();
        default -> keys.get(0).encodedLength();
      };
      sizes.computeIfAbsent(probe, p -> new TreeSet<>()).add(size);
    }
    assertThat(sizes).containsExactlyInAnyOrderEntriesOf(Map.of(
        "value", Set.of(65_535L, 65_536L, 65_537L),
        "payload", Set.of(65_535L, 65_536L, 65_537L),
        "key set", Set.of(2_047L, 2_048L, 2_049L),
        "key stamped", Set.of(2_047L, 2_048L, 2_049L),
        "mutations", Set.of(999L, 1_000L, 1_001L),
        "total mutation size", Set.of(819_199L, 819_200L, 819_201L),
        "total key size", Set.of(81_919L, 81_920L, 81_921L),
        "checks", Set.of(99L, 100L, 101L)));
  }

  @Test
  void readProbes_coverEveryReadLimit_underAtAndOver() {
    Map<String, Set<Integer>> sizes = new TreeMap<>();
    for (JsonNode op : new RandomOperations(new Random(7), Via.ENGINE).operations(3_000)) {
      if (op.get("op").asText().equals("read")) {
        sizes.computeIfAbsent(op.get("kind").asText(), k -> new TreeSet<>())
            .add(op.get("size").asInt());
      }
    }
    assertThat(sizes).containsExactlyInAnyOrderEntriesOf(Map.of(
        "get", Set.of(2_047, 2_048, 2_049),
        "getMany", Set.of(9, 10, 11),
        "listPrefix", Set.of(2_047, 2_048, 2_049),
        "listStart", Set.of(2_048, 2_049, 2_050),
        "listEnd", Set.of(2_048, 2_049, 2_050),
        "batchSize", Set.of(999, 1_000, 1_001),
        "watch", Set.of(2_048, 2_049, 2_050),
        "watchMany", Set.of(9, 10, 11)));
    assertThat(DenoReadLimits.keyOfLength(2_049).encodedLength()).isEqualTo(2_049);
  }

  @Test
  void throughDenosClient_noCommitEnqueuesOrHasOver10Checks_andTheOtherMutationsStay() {
    Map<String, Integer> types = new TreeMap<>();
    for (JsonNode op : new RandomOperations(new Random(7), Via.DENO_CLIENT).operations(3_000)) {
      assertThat(op.has("enqueues")).as("%s", op).isFalse();
      assertThat(op.path("checks").size()).as("%s", op).isLessThanOrEqualTo(10);
      op.path("mutations").forEach(m -> types.merge(m.get("type").asText(), 1, Integer::sum));
    }
    assertThat(types).containsOnlyKeys("set", "delete", "sum", "min", "max", "stamped")
        .allSatisfy((type, count) -> assertThat(count).as(type).isGreaterThan(100));
  }

  @Test
  void throughKvasirsClient_enqueues_butHasNoCommitOfOver10Checks() {
    List<JsonNode> operations = new ArrayList<>();
    new RandomOperations(new Random(7), Via.KVASIR_CLIENT).operations(3_000)
        .forEach(operations::add);
    assertThat(operations).anyMatch(op -> op.has("enqueues"))
        .allSatisfy(op -> assertThat(op.path("checks").size()).isLessThanOrEqualTo(10));
  }

  @Test
  void limitErrors_areNamedAlike_fromDenoAndFromKvasir() {
    assertThat(DenoDifferential.limitNamed("Value too large (max 65536 bytes)"))
        .isEqualTo(DenoDifferential.limitNamed("value too large: 65537 bytes (max 65536)"))
        .isEqualTo("limit: value too large (max 65536)");
    assertThat(DenoDifferential.limitNamed("Too many mutations (max 1000)"))
        .isEqualTo(DenoDifferential.limitNamed(
            "too many mutations and enqueues in one atomic operation: 1001 (max 1000)"));
    assertThat(DenoDifferential.limitNamed("Too many checks (max 100)"))
        .isEqualTo(DenoDifferential.limitNamed(
            "too many checks in one atomic operation: 101 (max 100)"));
    assertThat(DenoDifferential.limitNamed("Too many keys (max 10)"))
        .isEqualTo(DenoDifferential.limitNamed("too many keys to watch: 11 (max 10)"));
    // Kvasir's message goes on with a hint after the maximum.
    assertThat(DenoDifferential.limitNamed("Too many ranges (max 10)"))
        .isEqualTo(DenoDifferential.limitNamed("too many ranges in one read: 11 (max 10); getMany"
            + " reads up to 10 keys in one snapshot, getAll any number, 10 at a time"))
        .isEqualTo("limit: too many ranges (max 10)");
    assertThat(DenoDifferential.limitNamed("Key too large for write (max 2048 bytes)"))
        .isNotEqualTo(DenoDifferential.limitNamed("Total key size too large (max 81920 bytes)"));
    assertThat(DenoDifferential.limitNamed("Failed to perform 'sum' mutation on a non-U64 value"
        + " in the database")).startsWith("Failed to perform");
  }
}
