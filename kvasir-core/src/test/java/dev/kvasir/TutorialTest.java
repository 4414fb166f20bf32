package dev.kvasir;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kvasir.value.KvU64;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The README's Java example, compiled and asserted, on the memory engine where the README
 * opens a file (the same code; core has no SQLite). Keep the two in step.
 */
class TutorialTest {
  enum Status { OPEN, DONE }

  record Todo(UUID id, String title, Status status, LocalDate due, Optional<Instant> doneAt) {}

  @Test
  void readmeExample() throws Exception {
    try (Kv kv = Kv.open(":memory:")) {
      Todo todo = new Todo(UUID.randomUUID(), "buy milk", Status.OPEN, LocalDate.now(),
          Optional.empty());
      KvKey key = KvKey.of("todos", todo.id());
      CommitResult r = kv.atomic()
          .check(key, null)
          .set(key, todo)
          .set(KvKey.of("todos_by_status", Status.OPEN, todo.id()), true)
          .commit();
      assertThat(r.ok()).isTrue();

      Todo read = kv.get(key).value(Todo.class);
      assertThat(read).isEqualTo(todo);
      List<KvKey> open = kv.listKeys(ListSelector.prefix(KvKey.of("todos_by_status",
              Status.OPEN)))
          .map(k -> KvKey.of("todos", k.part(2, UUID.class))).toList();
      List<Todo> openTodos = kv.getAll(open).stream().map(e -> e.value(Todo.class)).toList();
      assertThat(openTodos).containsExactly(todo);

      boolean completed = kv.transact(tx -> {
        Todo t = tx.get(key).value(Todo.class);
        if (t.status() == Status.DONE) {
          return false;
        }
        tx.set(key, new Todo(t.id(), t.title(), Status.DONE, t.due(),
                Optional.of(Instant.now())))
            .delete(KvKey.of("todos_by_status", Status.OPEN, t.id()))
            .set(KvKey.of("todos_by_status", Status.DONE, t.id()), true);
        return true;
      });
      assertThat(completed).isTrue();
      assertThat(kv.get(key).value(Todo.class).status()).isEqualTo(Status.DONE);
      assertThat(kv.count(ListSelector.prefix(KvKey.of("todos_by_status", Status.OPEN))))
          .isZero();

      kv.sum(KvKey.of("views"), 1);
      assertThat(kv.get(KvKey.of("views")).value()).isEqualTo(KvU64.of(1));
      Todo async = kv.async().get(key).thenApply(e -> e.value(Todo.class))
          .get(10, TimeUnit.SECONDS);
      assertThat(async.status()).isEqualTo(Status.DONE);

      List<Object> seen = new ArrayList<>();
      try (WatchStream watch = kv.watch(List.of(KvKey.of("config")))) {
        for (List<KvEntry> state : watch) {
          seen.add(state.get(0).value());
          watch.close(); // the README's loop runs until closed; here after the first state
        }
      }
      assertThat(seen).containsExactly((Object) null);
    }
  }
}
