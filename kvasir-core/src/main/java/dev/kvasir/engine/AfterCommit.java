package dev.kvasir.engine;

import java.util.ArrayList;
import java.util.List;

/**
 * Actions a transaction registers to run once it committed, such as waking watchers:
 * notifications must never announce a change that was rolled back. Used by one thread at a
 * time.
 */
public final class AfterCommit {
  /** No actions yet. */
  public AfterCommit() {}

  private List<Runnable> actions = new ArrayList<>();

  public void add(Runnable action) {
    actions.add(action);
  }

  /** The actions registered since the last call; the caller runs them after commit. */
  public List<Runnable> take() {
    List<Runnable> out = actions;
    actions = new ArrayList<>();
    return out;
  }
}
