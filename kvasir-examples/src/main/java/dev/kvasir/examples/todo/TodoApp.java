package dev.kvasir.examples.todo;

import dev.kvasir.Kv;
import dev.kvasir.examples.todo.Todo.Status;
import java.time.Clock;
import java.time.LocalDate;

/**
 * Adds three todos to a SQLite file (which Deno opens too), completes one and prints the open
 * and the done ones: {@code java … dev.kvasir.examples.todo.TodoApp [todos.sqlite3]}.
 */
public final class TodoApp {
  private TodoApp() {}

  public static void main(String[] args) {
    String path = args.length > 0 ? args[0] : "todos.sqlite3";
    try (Kv kv = Kv.open(path)) {
      TodoList todos = new TodoList(kv, Clock.systemUTC());
      LocalDate today = LocalDate.now();
      Todo milk = todos.add("buy milk", today);
      todos.add("write the report", today.plusDays(2));
      todos.add("call the plumber", today.plusDays(1));
      todos.complete(milk.id());

      for (Status status : Status.values()) {
        System.out.println(status + " (" + todos.count(status) + ")");
        for (Todo todo : todos.withStatus(status)) {
          System.out.println("  " + todo.title() + ", due " + todo.due());
        }
      }
    }
  }
}
