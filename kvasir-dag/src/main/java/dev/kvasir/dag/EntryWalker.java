package dev.kvasir.dag;

import dev.kvasir.dag.cid.Cid;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * Depth-first, in-order walk over the entries a query selects. A {@code [link, data]} key is
 * yielded before the keys below it, which gives ascending JavaScript string order
 * ({@code docs/pail.md} §1.9). Each shard is entered at the first
 * entry that can matter (binary search on the seek key) and the walk stops at the first key
 * past the selection, so a narrow range reads only the shards on its path.
 */
final class EntryWalker implements Iterator<PailEntry> {
  private static final class Frame {
    final Shard shard;
    final String prefix;
    int index;

    Frame(Shard shard, String prefix, int index) {
      this.shard = shard;
      this.prefix = prefix;
      this.index = index;
    }
  }

  private final ShardLoader loader;
  private final EntriesQuery query;
  private final Deque<Frame> stack = new ArrayDeque<>();
  private PailEntry next;
  private boolean done;

  EntryWalker(ShardLoader loader, Cid root, EntriesQuery query) {
    this.loader = loader;
    this.query = query;
    enter(root, "");
  }

  private void enter(Cid cid, String prefix) {
    Shard shard = loader.load(cid).shard();
    stack.push(new Frame(shard, prefix, firstIndex(shard, prefix)));
  }

  /** The first entry whose key, or whose sub-shard's keys, can reach the seek key. */
  private int firstIndex(Shard shard, String prefix) {
    String seek = query.seek();
    if (seek.isEmpty() || !seek.startsWith(prefix)) {
      return 0;
    }
    String rest = seek.substring(prefix.length());
    int i = shard.indexOf(rest);
    if (i >= 0) {
      return i;
    }
    int at = -i - 1;
    if (at > 0) {
      ShardEntry before = shard.entries().get(at - 1);
      if (before.isLink() && rest.startsWith(before.key())) {
        return at - 1;
      }
    }
    return at;
  }

  @Override
  public boolean hasNext() {
    while (next == null && !done) {
      advance();
    }
    return next != null;
  }

  @Override
  public PailEntry next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    PailEntry e = next;
    next = null;
    return e;
  }

  private void advance() {
    Frame frame = stack.peek();
    if (frame == null) {
      done = true;
      return;
    }
    if (frame.index >= frame.shard.entries().size()) {
      stack.pop();
      return;
    }
    ShardEntry entry = frame.shard.entries().get(frame.index++);
    String key = frame.prefix + entry.key();
    if (query.isPastEnd(key)) {
      done = true;
      stack.clear();
      return;
    }
    if (entry.isLink() && query.mayMatchBelow(key)) {
      enter(entry.link(), key);
    }
    if (entry.data() != null && query.matches(key)) {
      next = new PailEntry(key, entry.data());
    }
  }
}
