package dev.kvasir.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kvasir.KvKey;
import dev.kvasir.base.Versionstamp;
import dev.kvasir.spi.Mutation;
import dev.kvasir.spi.RawKey;
import dev.kvasir.value.EncodedValue;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class NotificationTest {
  private static RawKey key(Object... parts) {
    return KvKey.of(parts).raw();
  }

  private static RawKey stamped(RawKey prefix, long version) {
    return new Mutation.SetVersionstampedKey(prefix, EncodedValue.of("v"), null)
        .keyIn(Versionstamp.ofVersion(version));
  }

  @Test
  void payload_roundTrips_flagsKeysAndStampedPrefixes() {
    String payload = Notification.payload("me", true, false, List.of(key("a"), key("b")),
        List.of(key("log")));
    Notification n = Notification.parse(payload);
    assertThat(n.instance()).isEqualTo("me");
    assertThat(n.enqueued()).isTrue();
    assertThat(n.expiring()).isFalse();
    assertThat(n.allKeys()).isFalse();
    assertThat(n.mayHaveChanged(key("a"))).isTrue();
    assertThat(n.mayHaveChanged(key("b"))).isTrue();
    assertThat(n.mayHaveChanged(key("c"))).isFalse();
    assertThat(n.mayHaveChanged(stamped(key("log"), 77))).isTrue();
    assertThat(n.mayHaveChanged(stamped(key("other"), 77))).isFalse();
    assertThat(n.mayHaveChanged(key("log"))).isFalse();
  }

  @Test
  void tooManyKeys_announceAllKeys() {
    List<RawKey> keys = new ArrayList<>();
    for (int i = 0; i < 1000; i++) {
      keys.add(key("k", i));
    }
    assertThat(Notification.parse(Notification.payload("me", false, true, keys, List.of()))
        .allKeys()).isTrue();
  }

  @Test
  void foreignPayloads_areIgnored() {
    assertThat(Notification.parse("hello")).isNull();
    assertThat(Notification.parse("me - zz")).isNull();
    assertThat(Notification.parse("me - sqq")).isNull();
  }
}
