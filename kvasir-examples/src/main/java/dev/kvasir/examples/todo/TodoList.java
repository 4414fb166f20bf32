package dev.kvasir.examples.todo;

import dev.kvasir.Kv;
import dev.kvasir.KvKey;
import dev.kvasir.ListSelector;
import dev.kvasir.examples.todo.Todo.Status;
import java.time.Clock;
import java.time.LocalDate;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.UUID;

/**
 * Todos kept under {@code ["todos", id]} with a secondary index {@code ["todos_by_status",
 * status, id]}, so that the open ones are listed without reading the done ones. The todo and
 * its index entry change in one atomic commit, so the index never disagrees with the todos,
 * even when several threads complete the same todo at once.
 */
public final class TodoList {
  private final Kv kv;
  private final Clock clock;

  public TodoList(Kv kv, Clock clock) {
    this.kv = kv;
    this.clock = clock;
  }

  /** Adds an open todo and its index entry in one commit. */
  public Todo add(String title, LocalDate due) {
    Todo todo = new Todo(UUID.randomUUID(), title, Status.OPEN, due, Optional.empty());
    kv.atomic()
        .check(todoKey(todo.id()), null) // a fresh id: nothing is there yet
        .set(todoKey(todo.id()), todo)
        .set(indexKey(Status.OPEN, todo.id()), true)
        .commit();
    return todo;
  }

  /**
   * Marks the todo done. When several threads complete it at once, exactly one of them does:
   * the transaction read the todo, so a commit by another thread in between makes it run
   * again, and then it sees the todo done.
   *
   * @return whether this call completed it (false: it was already done)
   * @throws NoSuchElementException if there is no such todo
   */
  public boolean complete(UUID id) {
    return kv.transact(tx -> {
      Todo todo = tx.get(todoKey(id)).value(Todo.class);
      if (todo == null) {
        throw new NoSuchElementException("no todo " + id);
      }
      if (todo.status() == Status.DONE) {
        return false;
      }
      tx.set(todoKey(id), todo.done(clock.instant()))
          .delete(indexKey(Status.OPEN, id))
          .set(indexKey(Status.DONE, id), true);
      return true;
    });
  }

  /** The todos with {@code status}, in id order: the index's keys, then the todos they name. */
  public List<Todo> withStatus(Status status) {
    List<KvKey> keys = kv.listKeys(ListSelector.prefix(KvKey.of("todos_by_status", status)))
        .map(indexKey -> todoKey(indexKey.part(2, UUID.class)))
        .toList();
    // getAll reads any number of keys (getMany stops at 10).
    return kv.getAll(keys).stream().map(e -> e.value(Todo.class)).toList();
  }

  /** How many todos have {@code status}, counted on the index. */
  public long count(Status status) {
    return kv.count(ListSelector.prefix(KvKey.of("todos_by_status", status)));
  }

  /** Deletes the done todos and their index entries; how many there were. */
  public long clearDone() {
    List<Todo> done = withStatus(Status.DONE);
    for (Todo todo : done) {
      kv.atomic().delete(todoKey(todo.id())).delete(indexKey(Status.DONE, todo.id())).commit();
    }
    return done.size();
  }

  static KvKey todoKey(UUID id) {
    return KvKey.of("todos", id);
  }

  static KvKey indexKey(Status status, UUID id) {
    return KvKey.of("todos_by_status", status, id);
  }
}
