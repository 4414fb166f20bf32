package dev.kvasir.examples.todo;

import java.time.Instant;
import java.time.LocalDate;
import java.util.Optional;
import java.util.UUID;

/** A todo as it is stored: a record of mapped types, which Deno reads as a plain object. */
public record Todo(UUID id, String title, Status status, LocalDate due,
    Optional<Instant> doneAt) {

  /** Where a todo stands; stored by name ("OPEN", "DONE"). */
  public enum Status { OPEN, DONE }

  /** The same todo, done at {@code at}. */
  Todo done(Instant at) {
    return new Todo(id, title, Status.DONE, due, Optional.of(at));
  }
}
