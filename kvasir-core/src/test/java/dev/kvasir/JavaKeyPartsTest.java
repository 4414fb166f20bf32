package dev.kvasir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kvasir.base.KvTypeException;
import dev.kvasir.key.KeyPart;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Java types as key parts (docs/keys.md §8): what they become, their order, reading back. */
class JavaKeyPartsTest {
  enum Status { OPEN, DONE }

  @Test
  void uuidsEnumsInstantsAndDates_becomeStringParts_andReadBack() {
    UUID id = UUID.fromString("0190a5f3-7c1e-7a42-9b7e-2f6c1d8e4a10");
    Instant at = Instant.parse("2024-01-31T12:00:00.123456789Z");
    LocalDate day = LocalDate.of(2024, 1, 31);
    KvKey key = KvKey.of("todos", id, Status.DONE, at, day);
    assertThat(key.parts()).containsExactly(new KeyPart.Str("todos"),
        new KeyPart.Str("0190a5f3-7c1e-7a42-9b7e-2f6c1d8e4a10"), new KeyPart.Str("DONE"),
        new KeyPart.Str("2024-01-31T12:00:00.123456789Z"), new KeyPart.Str("2024-01-31"));
    assertThat(key.part(1, UUID.class)).isEqualTo(id);
    assertThat(key.part(2, Status.class)).isEqualTo(Status.DONE);
    assertThat(key.part(3, Instant.class)).isEqualTo(at);
    assertThat(key.part(4, LocalDate.class)).isEqualTo(day);
    assertThat(KvKey.of(Instant.EPOCH).get(0))
        .isEqualTo(new KeyPart.Str("1970-01-01T00:00:00.000000000Z"));
  }

  @Test
  void numbersBigintsBytesAndBooleans_readBackAsJavaTypes() {
    KvKey key = KvKey.of(42, BigInteger.valueOf(7), new byte[] {1, 2}, true, 1.5);
    assertThat(key.part(0, Long.class)).isEqualTo(42L);
    assertThat(key.part(0, int.class)).isEqualTo(42);
    assertThat(key.part(0, BigInteger.class)).isEqualTo(BigInteger.valueOf(42));
    assertThat(key.part(1, BigInteger.class)).isEqualTo(BigInteger.valueOf(7));
    assertThat(key.part(1, long.class)).isEqualTo(7L);
    assertThat(key.part(2, byte[].class)).containsExactly(1, 2);
    assertThat(key.part(3, Boolean.class)).isTrue();
    assertThat(key.part(4, double.class)).isEqualTo(1.5);
    assertThatThrownBy(() -> key.part(4, Long.class)).isInstanceOf(KvTypeException.class)
        .hasMessageContaining("part 4");
    assertThatThrownBy(() -> key.part(0, UUID.class)).isInstanceOf(KvTypeException.class);
    assertThatThrownBy(() -> KvKey.of("x").part(0, UUID.class))
        .isInstanceOf(KvTypeException.class).hasMessageContaining("is no UUID");
  }

  @Test
  void instantsDatesAndUuids_sortAsKeysAsThemselves() {
    Random random = new Random(42);
    List<Instant> instants = new ArrayList<>();
    List<UUID> uuids = new ArrayList<>();
    List<LocalDate> dates = new ArrayList<>();
    for (int i = 0; i < 2_000; i++) {
      instants.add(Instant.ofEpochSecond(random.nextLong(-62_000_000_000L, 253_000_000_000L),
          random.nextInt(1_000_000_000)));
      uuids.add(new UUID(random.nextLong(), random.nextLong()));
      dates.add(LocalDate.ofEpochDay(random.nextLong(-719_000, 2_932_000)));
    }
    assertSortsAs(instants, Comparator.naturalOrder());
    assertSortsAs(dates, Comparator.naturalOrder());
    // A UUID's string part sorts as its 16 bytes do, unsigned (not as UUID.compareTo).
    assertSortsAs(uuids, Comparator.comparing(JavaKeyPartsTest::bytes, Arrays::compareUnsigned));
  }

  private static <T> void assertSortsAs(List<T> values, Comparator<? super T> order) {
    List<T> byKey = new ArrayList<>(values);
    byKey.sort(Comparator.comparing(v -> KvKey.of("k", v)));
    List<T> byValue = new ArrayList<>(values);
    byValue.sort(order);
    assertThat(byKey).isEqualTo(byValue);
  }

  private static byte[] bytes(UUID u) {
    return ByteBuffer.allocate(16).putLong(u.getMostSignificantBits())
        .putLong(u.getLeastSignificantBits()).array();
  }

  @Test
  void theBuilder_takesOnlyTypesAKeyHolds_andMakesTheSameKey() {
    UUID id = UUID.randomUUID();
    Instant at = Instant.parse("2024-01-31T12:00:00Z");
    KvKey built = KvKey.builder().add("todos").add(id).add(Status.OPEN).add(at)
        .add(LocalDate.EPOCH).add(7).add(1.5).add(true).add(BigInteger.TEN)
        .add(new byte[] {9}).build();
    assertThat(built).isEqualTo(KvKey.of("todos", id, Status.OPEN, at, LocalDate.EPOCH, 7,
        1.5, true, BigInteger.TEN, new byte[] {9}));
    assertThat(KvKey.builder().build()).isEqualTo(KvKey.of());
  }

  @Test
  void instantsOutsideTheYears0To9999_areRefused() {
    assertThatThrownBy(() -> KvKey.of(Instant.parse("+10000-01-01T00:00:00Z")))
        .isInstanceOf(KvTypeException.class).hasMessageContaining("key part 0")
        .hasMessageContaining("years 0 to 9999");
    assertThatThrownBy(() -> KvKey.of(LocalDate.of(-1, 1, 1)))
        .isInstanceOf(KvTypeException.class);
  }
}
