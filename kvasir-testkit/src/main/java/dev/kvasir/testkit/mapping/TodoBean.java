package dev.kvasir.testkit.mapping;

import java.util.Objects;

/** A JavaBean: a public no-argument constructor and get/set pairs. */
public class TodoBean {
  private String title;
  private boolean done;

  /** For the mapper. */
  public TodoBean() {}

  static TodoBean of(String title, boolean done) {
    TodoBean b = new TodoBean();
    b.setTitle(title);
    b.setDone(done);
    return b;
  }

  public String getTitle() {
    return title;
  }

  public void setTitle(String title) {
    this.title = title;
  }

  public boolean isDone() {
    return done;
  }

  public void setDone(boolean done) {
    this.done = done;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof TodoBean b && Objects.equals(title, b.title) && done == b.done;
  }

  @Override
  public int hashCode() {
    return Objects.hash(title, done);
  }

  @Override
  public String toString() {
    return "TodoBean[title=" + title + ", done=" + done + "]";
  }
}
