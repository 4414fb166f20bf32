package dev.kvasir;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kvasir.value.KvU64;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The README's example, compiled and asserted. Keep the two in step. */
class TutorialTest {
  record User(String name, int age) {}

  @Test
  void readmeExample() {
    try (Kv kv = Kv.open(":memory:")) {
      kv.set(KvKey.of("users", "alice"), new User("Alice", 30));
      KvEntry e = kv.get(KvKey.of("users", "alice"));
      assertThat(e.value(User.class)).isEqualTo(new User("Alice", 30));

      CommitResult r = kv.atomic()
          .check(e)
          .set(KvKey.of("users", "alice"), new User("Alice", 31))
          .sum(KvKey.of("stats", "edits"), 1)
          .commit();
      assertThat(r.ok()).isTrue();
      assertThat(kv.get(KvKey.of("stats", "edits")).value()).isEqualTo(KvU64.of(1));

      List<String> printed = new ArrayList<>();
      for (KvEntry u : kv.list(ListSelector.prefix(KvKey.of("users")))) {
        printed.add(u.key() + " " + u.value());
      }
      assertThat(printed).containsExactly("[\"users\",\"alice\"] {name=Alice, age=31.0}");
      assertThat(kv.get(KvKey.of("users", "alice")).value())
          .isEqualTo(Map.of("name", "Alice", "age", 31.0));
    }
  }
}
