package dev.kvasir.testkit.powercut;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

/**
 * Files and directories as a disk behind a volatile write cache holds them: what programs
 * wrote, and what of it an {@code fsync} put on stable storage, which is all a power cut leaves
 * (docs/power-cut.md §1). A file's {@code fsync} makes its bytes and size stable, and with them
 * every change to names made so far, as a journaling file system's commit does; a directory's
 * makes the names stable. Thread-safe.
 */
final class CachedDisk {
  static final long ROOT = 1;
  static final int S_IFDIR = 0040000;
  static final int S_IFREG = 0100000;
  /** The unit a disk writes back from its cache, and a power cut keeps or loses. */
  static final int PAGE = 4096;

  /** A file or directory; its id is its inode number. */
  static final class Node {
    final long id;
    final boolean dir;
    int mode;
    long modifiedMs = System.currentTimeMillis();
    /** A directory's names, sorted; null for a file. */
    final TreeMap<String, Long> children;
    /** A file's bytes as programs see them; null for a directory. */
    Content written;
    /** A file's bytes as the disk holds them since its last sync. */
    Content stable;
    /** Pages written and size changes since its last sync, in order: a cut keeps some. */
    final List<Change> unsynced = new ArrayList<>();

    Node(long id, boolean dir, int mode) {
      this.id = id;
      this.dir = dir;
      this.mode = mode;
      this.children = dir ? new TreeMap<>() : null;
      this.written = dir ? null : new Content();
      this.stable = dir ? null : new Content();
    }

    long size() {
      return dir ? 4096 : written.size();
    }
  }

  /** A write of {@code data} at {@code offset}, or with {@code data} null a cut to it. */
  private record Change(long offset, byte[] data) {
    void applyTo(Content c) {
      if (data == null) {
        c.truncate(offset);
      } else {
        c.write(offset, data);
      }
    }
  }

  private final Map<Long, Node> nodes = new HashMap<>();
  /** Each directory's names as of the last sync. */
  private Map<Long, Map<String, Long>> stableNames = new HashMap<>();
  private long nextId = ROOT + 1;

  CachedDisk() {
    nodes.put(ROOT, new Node(ROOT, true, S_IFDIR | 0755));
    syncNames();
  }

  synchronized Node node(long id) {
    Node n = nodes.get(id);
    if (n == null) {
      throw new FsException(FsException.ENOENT);
    }
    return n;
  }

  synchronized Node lookup(long parent, String name) {
    Long id = directory(parent).children.get(name);
    if (id == null) {
      throw new FsException(FsException.ENOENT);
    }
    return nodes.get(id);
  }

  synchronized Node create(long parent, String name, boolean dir, int permissions) {
    Node d = directory(parent);
    if (d.children.containsKey(name)) {
      throw new FsException(FsException.EEXIST);
    }
    Node n = new Node(nextId++, dir, (dir ? S_IFDIR : S_IFREG) | (permissions & 07777));
    nodes.put(n.id, n);
    d.children.put(name, n.id);
    d.modifiedMs = System.currentTimeMillis();
    return n;
  }

  /** Removes a name; the node itself lives on while open, as on a real file system. */
  synchronized void remove(long parent, String name, boolean dir) {
    Node d = directory(parent);
    Node n = lookup(parent, name);
    if (n.dir != dir) {
      throw new FsException(dir ? FsException.ENOTDIR : FsException.EISDIR);
    }
    if (dir && !n.children.isEmpty()) {
      throw new FsException(FsException.ENOTEMPTY);
    }
    d.children.remove(name);
    d.modifiedMs = System.currentTimeMillis();
  }

  synchronized void rename(long parent, String name, long newParent, String newName,
      boolean noReplace) {
    Node from = directory(parent);
    Node to = directory(newParent);
    Node n = lookup(parent, name);
    Long replaced = to.children.get(newName);
    if (replaced != null) {
      Node old = nodes.get(replaced);
      if (noReplace) {
        throw new FsException(FsException.EEXIST);
      } else if (old.dir != n.dir) {
        throw new FsException(n.dir ? FsException.ENOTDIR : FsException.EISDIR);
      } else if (old.dir && !old.children.isEmpty()) {
        throw new FsException(FsException.ENOTEMPTY);
      }
    }
    from.children.remove(name);
    to.children.put(newName, n.id);
    from.modifiedMs = to.modifiedMs = System.currentTimeMillis();
  }

  synchronized byte[] read(long id, long offset, int length) {
    return file(id).written.read(offset, length);
  }

  synchronized void write(long id, long offset, byte[] data) {
    Node n = file(id);
    n.written.write(offset, data);
    // A disk writes a cache back page by page, in any order: one write may survive in part.
    for (int from = 0; from < data.length; ) {
      long at = offset + from;
      int to = (int) Math.min(data.length, from + PAGE - at % PAGE);
      n.unsynced.add(new Change(at, Arrays.copyOfRange(data, from, to)));
      from = to;
    }
    n.modifiedMs = System.currentTimeMillis();
  }

  synchronized void truncate(long id, long size) {
    Node n = file(id);
    n.written.truncate(size);
    n.unsynced.add(new Change(size, null));
    n.modifiedMs = System.currentTimeMillis();
  }

  synchronized void setMode(long id, int permissions) {
    Node n = node(id);
    n.mode = (n.mode & ~07777) | (permissions & 07777);
  }

  /** {@code fsync} of a file (or of a directory, which makes only the names stable). */
  synchronized void sync(long id) {
    Node n = node(id);
    if (!n.dir) {
      n.unsynced.forEach(change -> change.applyTo(n.stable)); // cheaper than a copy of it all
      n.unsynced.clear();
    }
    syncNames();
  }

  /**
   * The power is cut and comes back: names return to their last sync, and each file to its
   * stable bytes with some of the changes since ({@link #keepSome}), which is what a disk whose
   * cache wrote back some of its pages would hold.
   *
   * @return what was lost, a line per file that lost something, for a failing test to show
   */
  synchronized String cut(Random random) {
    StringBuilder lost = new StringBuilder();
    Map<Long, Node> kept = new HashMap<>();
    restore(ROOT, "", kept, random, lost);
    nodes.clear();
    nodes.putAll(kept);
    return lost.toString();
  }

  private void restore(long id, String path, Map<Long, Node> kept, Random random,
      StringBuilder lost) {
    Node n = nodes.get(id);
    kept.put(id, n);
    if (n.dir) {
      Map<String, Long> names = stableNames.getOrDefault(id, Map.of());
      if (!names.equals(n.children)) {
        lost.append(path.isEmpty() ? "/" : path).append(": names as of the last sync ")
            .append(names.keySet()).append(", not ").append(n.children.keySet()).append('\n');
      }
      n.children.clear();
      n.children.putAll(names);
      names.forEach((name, child) -> restore(child, path + "/" + name, kept, random, lost));
      return;
    }
    if (n.unsynced.isEmpty()) {
      return; // what programs see is what the disk holds
    }
    Content c = n.stable.copy();
    int applied = keepSome(c, n.unsynced, random);
    lost.append(path).append(": kept ").append(applied).append(" of ")
        .append(n.unsynced.size()).append(" changes since its last sync\n");
    n.unsynced.clear();
    n.written = c;
    n.stable = c.copy();
  }

  /**
   * Applies to {@code c}, a file's stable bytes, what a power cut keeps of its {@code changes}
   * since: none, all, or some, as {@code random} picks. Of some, a page overwritten inside the
   * file survives or not on its own; but sizes change in order, and a file never grows over
   * data the disk did not get, since a journaling file system writes an append's data before
   * the size that covers it (ext4's ordered mode, XFS, Btrfs): of the appends and cuts, only a
   * first part survives.
   *
   * @return how many changes it applied
   */
  private static int keepSome(Content c, List<Change> changes, Random random) {
    boolean[] resizes = new boolean[changes.size()];
    long size = c.size(); // as the program saw it, change after change
    int sizeChanges = 0;
    for (int i = 0; i < resizes.length; i++) {
      Change change = changes.get(i);
      long end = change.data == null ? change.offset : change.offset + change.data.length;
      resizes[i] = change.data == null || end > size;
      size = change.data == null ? end : Math.max(size, end);
      sizeChanges += resizes[i] ? 1 : 0;
    }
    int mode = random.nextInt(3); // 0: none, 1: all, 2: some
    int keepResizes = mode == 0 ? 0 : mode == 1 ? sizeChanges : random.nextInt(sizeChanges + 1);
    int resized = 0;
    int applied = 0;
    for (int i = 0; i < resizes.length; i++) {
      Change change = changes.get(i);
      boolean keep = resizes[i] ? resized++ < keepResizes
          : mode == 1 || (mode == 2 && random.nextBoolean());
      // An overwrite of bytes whose append did not survive has nothing on the disk to change.
      if (keep && !resizes[i] && change.offset + change.data.length > c.size()) {
        keep = false;
      }
      if (keep) {
        change.applyTo(c);
        applied++;
      }
    }
    return applied;
  }

  private void syncNames() {
    Map<Long, Map<String, Long>> names = new HashMap<>();
    for (Node n : nodes.values()) {
      if (n.dir) {
        names.put(n.id, new TreeMap<>(n.children));
      }
    }
    stableNames = names;
  }

  /** A directory's names with their nodes, for listing. */
  synchronized List<Map.Entry<String, Node>> list(long id) {
    List<Map.Entry<String, Node>> out = new ArrayList<>();
    directory(id).children.forEach((name, child) -> out.add(Map.entry(name, nodes.get(child))));
    return out;
  }

  private Node directory(long id) {
    Node n = node(id);
    if (!n.dir) {
      throw new FsException(FsException.ENOTDIR);
    }
    return n;
  }

  private Node file(long id) {
    Node n = node(id);
    if (n.dir) {
      throw new FsException(FsException.EISDIR);
    }
    return n;
  }
}
