package dev.kvasir.examples.todo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kvasir.Kv;
import dev.kvasir.KvKey;
import dev.kvasir.ListSelector;
import dev.kvasir.examples.todo.Todo.Status;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TodoListTest {
  /** A clock finer than a millisecond: the todo must still read back equal. */
  private static final Clock CLOCK =
      Clock.fixed(Instant.parse("2024-01-31T12:00:00.123456789Z"), ZoneOffset.UTC);

  @TempDir
  Path dir;

  @Test
  void eightThreadsCompletingTheSameTodosCompleteEachExactlyOnce() throws Exception {
    try (Kv kv = Kv.open(dir.resolve("todos.sqlite3").toString())) {
      TodoList todos = new TodoList(kv, CLOCK);
      List<UUID> ids = new ArrayList<>();
      for (int i = 0; i < 24; i++) {
        ids.add(todos.add("todo " + i, LocalDate.of(2024, 2, 1).plusDays(i)).id());
      }
      assertThat(todos.withStatus(Status.OPEN)).hasSize(24);

      ExecutorService threads = Executors.newFixedThreadPool(8);
      List<Future<Integer>> completions = new ArrayList<>();
      for (int t = 0; t < 8; t++) {
        List<UUID> order = new ArrayList<>(ids);
        Collections.shuffle(order);
        completions.add(threads.submit(() -> {
          int completed = 0;
          for (UUID id : order) {
            completed += todos.complete(id) ? 1 : 0;
          }
          return completed;
        }));
      }
      int completed = 0;
      for (Future<Integer> f : completions) {
        completed += f.get();
      }
      threads.shutdown();

      assertThat(completed).isEqualTo(24);
      List<Todo> done = todos.withStatus(Status.DONE);
      assertThat(done).hasSize(24)
          .allSatisfy(t -> assertThat(t.doneAt()).contains(CLOCK.instant()));
      assertThat(done).extracting(Todo::id).containsExactlyInAnyOrderElementsOf(ids);
      assertThat(todos.withStatus(Status.OPEN)).isEmpty();
      assertThat(todos.count(Status.DONE)).isEqualTo(24);
      // No index entry was left behind by an attempt that lost.
      assertThat(kv.count(ListSelector.prefix(KvKey.of("todos_by_status")))).isEqualTo(24);
    }
  }

  @Test
  void readsBackTheTodoItWrote() {
    try (Kv kv = Kv.open(dir.resolve("todos.sqlite3").toString())) {
      TodoList todos = new TodoList(kv, CLOCK);
      Todo todo = todos.add("buy milk", LocalDate.of(2024, 2, 1));
      todos.complete(todo.id());

      Todo read = kv.get(TodoList.todoKey(todo.id())).value(Todo.class);
      assertThat(read).isEqualTo(new Todo(todo.id(), "buy milk", Status.DONE,
          LocalDate.of(2024, 2, 1), Optional.of(CLOCK.instant())));
      assertThat(todos.complete(todo.id())).isFalse();
      assertThatThrownBy(() -> todos.complete(UUID.randomUUID()))
          .isInstanceOf(NoSuchElementException.class);
    }
  }

  @Test
  void clearsTheDoneTodosAndTheirIndex() {
    try (Kv kv = Kv.open(dir.resolve("todos.sqlite3").toString())) {
      TodoList todos = new TodoList(kv, CLOCK);
      Todo done = todos.add("done", LocalDate.EPOCH);
      todos.add("open", LocalDate.EPOCH);
      todos.complete(done.id());

      assertThat(todos.clearDone()).isEqualTo(1);
      assertThat(kv.get(TodoList.todoKey(done.id())).exists()).isFalse();
      assertThat(todos.count(Status.DONE)).isZero();
      assertThat(todos.withStatus(Status.OPEN)).extracting(Todo::title).containsExactly("open");
    }
  }

  @Test
  void theAppLeavesTwoOpenTodosAndOneDone() {
    String path = dir.resolve("app.sqlite3").toString();
    TodoApp.main(new String[] {path});

    try (Kv kv = Kv.open(path)) {
      TodoList todos = new TodoList(kv, CLOCK);
      assertThat(todos.withStatus(Status.OPEN)).extracting(Todo::title)
          .containsExactlyInAnyOrder("write the report", "call the plumber");
      assertThat(todos.withStatus(Status.DONE)).extracting(Todo::title)
          .containsExactly("buy milk");
    }
  }
}
