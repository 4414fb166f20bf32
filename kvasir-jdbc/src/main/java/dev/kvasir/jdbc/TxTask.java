package dev.kvasir.jdbc;

import dev.kvasir.engine.CommitThread;
import java.sql.SQLException;

/**
 * Work a JDBC engine's writer runs in its transaction {@code C}. A group commit that is retried
 * runs it again from the start, so it must only act through the transaction.
 */
public interface TxTask<C, T> {
  T run(C tx) throws SQLException;

  /** A {@link TxTask} queued for a writer's group commit, with what it produced. */
  class Job<C, T> extends CommitThread.Job<T> {
    private final TxTask<C, T> task;

    public Job(TxTask<C, T> task) {
      this.task = task;
    }

    /** Runs the task in {@code tx} and records its result. */
    public void run(C tx) throws SQLException {
      succeed(task.run(tx));
    }
  }
}
