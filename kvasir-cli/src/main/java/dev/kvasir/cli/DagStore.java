package dev.kvasir.cli;

import dev.kvasir.dag.Pail;
import dev.kvasir.dag.PailOptions;
import dev.kvasir.dag.cid.Cid;
import dev.kvasir.dag.store.Blockstore;
import dev.kvasir.dag.store.Car;
import dev.kvasir.dag.store.DirectoryBlockstore;
import dev.kvasir.dag.store.MemoryBlockstore;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;

/**
 * Where {@code kvasir dag} keeps a pail: a directory ({@code blocks/} plus a {@code ROOT} file
 * naming the current root) or a single CAR file whose one root is the current root (read
 * whole, rewritten on every change, like pail's own CLI). Both are created empty on first
 * write. Updates replace the root file atomically, so a crash keeps the old root.
 */
final class DagStore {
  private final Path path;
  private final boolean car;
  private final Blockstore blocks;
  private final Pail pail;
  private Cid root;

  private DagStore(Path path, boolean car, Blockstore blocks, Cid root, PailOptions options) {
    this.path = path;
    this.car = car;
    this.blocks = blocks;
    this.pail = Pail.open(blocks, options);
    this.root = root == null ? pail.empty() : root;
  }

  static DagStore open(Path path, PailOptions options, boolean mustExist) throws IOException {
    boolean car = path.getFileName().toString().endsWith(".car");
    if (mustExist && !Files.exists(path)) {
      throw new Failure("there is no pail at " + path + "; check --store (put creates one)");
    }
    if (car) {
      MemoryBlockstore memory = new MemoryBlockstore();
      Cid root = null;
      if (Files.exists(path)) {
        try (InputStream in = Files.newInputStream(path)) {
          root = onlyRoot(Car.load(in, memory), path);
        }
      }
      return new DagStore(path, true, memory, root, options);
    }
    Path rootFile = path.resolve("ROOT");
    Cid root = Files.exists(rootFile) ? Cid.parse(Files.readString(rootFile).strip()) : null;
    return new DagStore(path, false, DirectoryBlockstore.open(path.resolve("blocks")), root,
        options);
  }

  static Cid onlyRoot(List<Cid> roots, Path from) {
    if (roots.size() != 1) {
      throw new Failure(from + " has " + roots.size() + " roots; a pail CAR has exactly one");
    }
    return roots.get(0);
  }

  Pail pail() {
    return pail;
  }

  Blockstore blocks() {
    return blocks;
  }

  Cid root() {
    return root;
  }

  /** Makes {@code newRoot} current and durable. */
  void save(Cid newRoot) throws IOException {
    root = newRoot;
    if (car) {
      replace(path, out -> Car.export(blocks, root, out));
    } else {
      replace(path.resolve("ROOT"), out -> out.write((root + "\n")
          .getBytes(StandardCharsets.UTF_8)));
    }
  }

  private interface Writer {
    void write(OutputStream out) throws IOException;
  }

  /** Writes a temporary file beside {@code target}, flushes it to disk, renames it over. */
  private static void replace(Path target, Writer writer) throws IOException {
    Path parent = Files.createDirectories(target.toAbsolutePath().getParent());
    Path temp = Files.createTempFile(parent, ".incoming-", "");
    try {
      try (FileOutputStream out = new FileOutputStream(temp.toFile())) {
        writer.write(out);
        out.getFD().sync();
      }
      Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE,
          StandardCopyOption.REPLACE_EXISTING);
    } finally {
      Files.deleteIfExists(temp);
    }
  }
}
