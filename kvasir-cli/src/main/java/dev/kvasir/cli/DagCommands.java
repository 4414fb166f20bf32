package dev.kvasir.cli;

import dev.kvasir.dag.EntriesQuery;
import dev.kvasir.dag.KeyChange;
import dev.kvasir.dag.Pail;
import dev.kvasir.dag.PailDiff;
import dev.kvasir.dag.PailEntry;
import dev.kvasir.dag.PailUpdate;
import dev.kvasir.dag.ShardEntry;
import dev.kvasir.dag.cid.Cid;
import dev.kvasir.dag.store.Block;
import dev.kvasir.dag.store.Car;
import dev.kvasir.dag.store.OverlayBlockstore;
import dev.kvasir.value.JsFormat;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** The subcommands of {@code kvasir dag}; each opens the store, acts, and saves a new root. */
final class DagCommands {
  private DagCommands() {}

  abstract static class Base implements Callable<Integer> {
    @ParentCommand DagCommand dag;
    @Spec CommandSpec spec;

    PrintWriter out() {
      return spec.commandLine().getOut();
    }

    DagStore open(boolean mustExist) throws Exception {
      return DagStore.open(dag.store, dag.options(), mustExist);
    }
  }

  @Command(name = "put", mixinStandardHelpOptions = true,
      description = "Put a value under a key and print the new root.",
      footer = {"", "Examples:",
          "  kvasir dag put fruit/apple red       # stores \"red\" as a raw block",
          "  kvasir dag put fruit/pear --cid bafkrei…",
          "  kvasir dag put photo --file cat.jpg"})
  static final class Put extends Base {
    @Parameters(index = "0", paramLabel = "KEY", description = "Any string, e.g. fruit/apple.")
    String key;
    @Parameters(index = "1", paramLabel = "VALUE", arity = "0..1",
        description = "A string, stored as a raw block.") String value;

    static final class Source {
      @Option(names = "--cid", paramLabel = "CID",
          description = "Store this CID itself as the value.") String cid;
      @Option(names = "--file", paramLabel = "FILE",
          description = "Store this file's bytes as a raw block.")
      Path file;
    }

    @ArgGroup(exclusive = true) Source source;

    @Override
    public Integer call() throws Exception {
      int given = (value != null ? 1 : 0) + (source != null ? 1 : 0);
      if (given != 1) {
        throw new IllegalArgumentException("give exactly one of VALUE, --cid or --file");
      }
      DagStore store = open(false);
      Cid valueCid;
      if (source != null && source.cid != null) {
        valueCid = Cid.parse(source.cid);
      } else {
        byte[] bytes = value != null ? value.getBytes(StandardCharsets.UTF_8)
            : Files.readAllBytes(source.file);
        Block block = Block.of(Cid.RAW, bytes);
        store.blocks().put(block);
        valueCid = block.cid();
      }
      PailUpdate update = store.pail().put(store.root(), key, valueCid);
      store.save(update.root());
      out().println(update.root());
      return 0;
    }
  }

  @Command(name = "get", mixinStandardHelpOptions = true,
      description = "Print the CID stored under a key (exit 1 if none).")
  static final class Get extends Base {
    @Parameters(paramLabel = "KEY", description = "The key, as put stored it.") String key;
    @Option(names = "--value", description = "Print the stored raw block as UTF-8 instead.")
    boolean printValue;

    @Override
    public Integer call() throws Exception {
      DagStore store = open(true);
      Cid cid = store.pail().get(store.root(), key);
      if (cid == null) {
        throw new Failure("no value under \"" + key + "\"");
      }
      if (printValue) {
        Block block = store.blocks().get(cid);
        if (block == null) {
          throw new Failure("the value " + cid + " is not in this store");
        }
        out().println(new String(block.bytes(), StandardCharsets.UTF_8));
      } else {
        out().println(cid);
      }
      return 0;
    }
  }

  @Command(name = "del", aliases = {"delete", "rm"}, mixinStandardHelpOptions = true,
      description = "Delete a key and print the new root (exit 1 if it had no value).")
  static final class Del extends Base {
    @Parameters(paramLabel = "KEY", description = "The key, as put stored it.") String key;

    @Override
    public Integer call() throws Exception {
      DagStore store = open(true);
      PailUpdate update = store.pail().del(store.root(), key);
      if (!update.changed()) {
        throw new Failure("no value under \"" + key + "\"; nothing deleted");
      }
      store.save(update.root());
      out().println(update.root());
      return 0;
    }
  }

  @Command(name = "ls", aliases = "list", mixinStandardHelpOptions = true,
      description = "List keys and CIDs in key order.",
      footer = {"", "Examples:", "  kvasir dag ls --prefix fruit/",
          "  kvasir dag ls --gte b --lt c --json"})
  static final class Ls extends Base {
    @Option(names = {"-p", "--prefix"}, paramLabel = "PREFIX",
        description = "Only keys that start with this string.") String prefix;
    @Option(names = "--gt", paramLabel = "KEY", description = "Only keys after this one.")
    String gt;
    @Option(names = "--gte", paramLabel = "KEY",
        description = "Only this key and the keys after it.") String gte;
    @Option(names = "--lt", paramLabel = "KEY", description = "Only keys before this one.")
    String lt;
    @Option(names = "--lte", paramLabel = "KEY",
        description = "Only this key and the keys before it.") String lte;
    @Option(names = "--json", description = "One JSON object per line.") boolean json;

    @Override
    public Integer call() throws Exception {
      DagStore store = open(true);
      EntriesQuery query = prefix == null ? EntriesQuery.all() : EntriesQuery.prefix(prefix);
      query = gt != null ? query.gt(gt) : query;
      query = gte != null ? query.gte(gte) : query;
      query = lt != null ? query.lt(lt) : query;
      query = lte != null ? query.lte(lte) : query;
      PrintWriter out = out();
      Iterator<PailEntry> entries = store.pail().entries(store.root(), query).iterator();
      while (entries.hasNext()) {
        PailEntry e = entries.next();
        if (json) {
          StringBuilder line = new StringBuilder("{\"key\":");
          JsFormat.appendQuoted(line, e.key());
          out.println(line.append(",\"value\":\"").append(e.value()).append("\"}"));
        } else {
          out.println(e.key() + "\t" + e.value());
        }
        if (out.checkError()) {
          return Kvasir.PIPE_CLOSED; // nobody reads any more: walking on would only cost
        }
      }
      return 0;
    }
  }

  @Command(name = "tree", mixinStandardHelpOptions = true,
      description = "Print the shards as a tree.")
  static final class Tree extends Base {
    @Override
    public Integer call() throws Exception {
      DagStore store = open(true);
      out().println(store.root() + " (" + store.blocks().require(store.root()).size()
          + " bytes)");
      return print(store, store.root(), "") ? 0 : Kvasir.PIPE_CLOSED;
    }

    /** Prints a shard's entries and, below each link, its shard; false once nobody reads. */
    private boolean print(DagStore store, Cid shard, String indent) {
      var entries = store.pail().shard(shard).entries();
      for (int i = 0; i < entries.size(); i++) {
        ShardEntry e = entries.get(i);
        boolean last = i == entries.size() - 1;
        String branch = indent + (last ? "└── " : "├── ");
        if (!e.isLink()) {
          out().println(branch + e.key() + " → " + e.data());
        } else {
          out().println(branch + e.key() + (e.data() == null ? "" : " → " + e.data()) + "  ["
              + e.link() + ", " + store.blocks().require(e.link()).size() + " bytes]");
          if (!print(store, e.link(), indent + (last ? "    " : "│   "))) {
            return false;
          }
        }
        if (out().checkError()) {
          return false;
        }
      }
      return true;
    }
  }

  @Command(name = "diff", mixinStandardHelpOptions = true,
      description = "Compare this store's root with another root.",
      footer = {"", "OTHER is a root CID in this store, or another store (directory or .car).",
          "Lines say what going from this store's root to OTHER changes: '+ key cid' added"
              + " (only OTHER has it), '- key cid' removed (only this store has it),"
              + " '~ key old -> new' changed."})
  static final class Diff extends Base {
    @Parameters(paramLabel = "OTHER", description = "A root CID or another store.")
    String other;

    @Override
    public Integer call() throws Exception {
      DagStore store = open(true);
      Pail pail = store.pail();
      Cid otherRoot;
      // A store named like a CID ("bafkrei-copy") is still a store.
      if (!Files.exists(Path.of(other)) && (other.startsWith("baf") || other.startsWith("Qm"))) {
        otherRoot = Cid.parse(other);
      } else {
        // Read both stores as one; diff writes nothing, so neither store changes.
        DagStore theirs = DagStore.open(Path.of(other), dag.options(), true);
        otherRoot = theirs.root();
        pail = Pail.open(new OverlayBlockstore(store.blocks(), theirs.blocks()), dag.options());
      }
      PailDiff diff = pail.diff(store.root(), otherRoot);
      for (KeyChange k : diff.keys()) {
        out().println(k.before() == null ? "+ " + k.key() + " " + k.after()
            : k.after() == null ? "- " + k.key() + " " + k.before()
            : "~ " + k.key() + " " + k.before() + " -> " + k.after());
        if (out().checkError()) {
          return Kvasir.PIPE_CLOSED;
        }
      }
      spec.commandLine().getErr().println(diff.keys().size() + " keys differ; shards: "
          + diff.additions().size() + " added, " + diff.removals().size() + " removed");
      return 0;
    }
  }

  @Command(name = "import", mixinStandardHelpOptions = true,
      description = "Load a CAR file's blocks and make its root current.")
  static final class Import extends Base {
    @Parameters(paramLabel = "FILE.car", description = "A CAR file with one root.") Path file;

    @Override
    public Integer call() throws Exception {
      DagStore store = open(false);
      Cid root;
      try (InputStream in = Files.newInputStream(file)) {
        root = DagStore.onlyRoot(Car.load(in, store.blocks()), file);
      }
      store.pail().entries(root).forEach(e -> { }); // every shard is present and well-formed
      store.save(root);
      out().println(root);
      return 0;
    }
  }

  @Command(name = "export", mixinStandardHelpOptions = true,
      description = "Write the current root and its blocks as a CAR.")
  static final class Export extends Base {
    @Parameters(paramLabel = "FILE.car", description = "The CAR file to write.") Path file;

    @Override
    public Integer call() throws Exception {
      DagStore store = open(true);
      // Written aside and renamed once whole, as kvasir export does (docs/backup.md §7).
      long blocks = FileMoves.writeAside(file, spec.commandLine().getErr(), partial -> {
        try (OutputStream out = Files.newOutputStream(partial)) {
          return Car.export(store.blocks(), store.root(), out);
        }
      });
      spec.commandLine().getErr().println(blocks + " blocks written to " + file);
      out().println(store.root());
      return 0;
    }
  }

  @Command(name = "root", mixinStandardHelpOptions = true,
      description = "Print the current root CID.")
  static final class Root extends Base {
    @Override
    public Integer call() throws Exception {
      out().println(open(true).root());
      return 0;
    }
  }
}
