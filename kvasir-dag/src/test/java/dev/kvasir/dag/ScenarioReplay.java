package dev.kvasir.dag;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.kvasir.dag.cid.Cid;
import dev.kvasir.dag.store.Block;
import dev.kvasir.dag.store.MemoryBlockstore;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Replays one pail vector scenario on {@link Pail}. Two kinds of check:
 *
 * <ul>
 *   <li>against a {@link TreeMap} model of what the operations mean (always asserted: every
 *       get, listing and diff must be right, whatever the JavaScript did);</li>
 *   <li>against what pail 0.3.4 recorded (roots, additions, removals, results, errors, final
 *       blocks). These are collected as {@link #differences()} so that the test can require
 *       them to be exactly the documented JavaScript bugs.</li>
 * </ul>
 */
final class ScenarioReplay {
  private final JsonNode scenario;
  private final MemoryBlockstore store = new MemoryBlockstore();
  private final Pail pail;
  private final List<Difference> differences = new ArrayList<>();
  private final Map<String, Cid> snapshots = new HashMap<>();
  private final Map<String, TreeMap<String, Cid>> snapshotModels = new HashMap<>();
  private TreeMap<String, Cid> model = new TreeMap<>();
  private Cid root;
  private boolean diverged;

  ScenarioReplay(JsonNode scenario, boolean oneSplitPerPut) {
    this.scenario = scenario;
    this.pail = Pail.open(store, PailOptions.defaults().withOneSplitPerPut(oneSplitPerPut));
  }

  List<Difference> differences() {
    return differences;
  }

  Pail pail() {
    return pail;
  }

  Cid root() {
    return root;
  }

  ScenarioReplay run() {
    root = pail.empty();
    assertThat(root.toString()).isEqualTo(scenario.get("empty_root").get("cid").asText());
    snapshots.put("empty", root);
    snapshotModels.put("empty", new TreeMap<>());
    for (JsonNode step : scenario.get("steps")) {
      replay(step);
    }
    assertThat(pail.entries(root).toList()).as("final entries equal the model")
        .isEqualTo(modelEntries(model));
    for (Map.Entry<String, Cid> e : model.entrySet()) {
      assertThat(pail.get(root, e.getKey())).as("final get %s", e.getKey())
          .isEqualTo(e.getValue());
    }
    if (!root.toString().equals(scenario.get("final_root").asText())) {
      differ("final root " + root + " vs " + scenario.get("final_root").asText());
    } else {
      compareFinalBlocks();
    }
    return this;
  }

  private void replay(JsonNode step) {
    String op = step.get("op").asText();
    int i = step.get("i").asInt();
    switch (op) {
      case "put":
      case "del":
        mutate(i, op, step);
        break;
      case "get": {
        Cid got = pail.get(root, step.get("key").asText());
        assertThat(got).as("step %d get", i).isEqualTo(model.get(step.get("key").asText()));
        if (!Objects.equals(text(got), textOrNull(step.get("result")))) {
          differ(i, "get " + step.get("key") + " = " + got + " vs " + step.get("result"));
        }
        break;
      }
      case "entries":
        listing(i, step);
        break;
      case "snapshot":
        snapshots.put(step.get("name").asText(), root);
        snapshotModels.put(step.get("name").asText(), new TreeMap<>(model));
        break;
      case "checkout":
        root = snapshots.get(step.get("name").asText());
        model = new TreeMap<>(snapshotModels.get(step.get("name").asText()));
        break;
      case "diff":
        diff(i, step);
        break;
      case "merge":
        merge(i, step);
        break;
      default:
        throw new AssertionError("unknown op " + op);
    }
    if (step.has("root") && !root.toString().equals(step.get("root").asText())) {
      if (!diverged) {
        differ(i, op + " " + step.path("key") + ": root " + root + " vs "
            + step.get("root").asText());
      }
      diverged = true;
    } else {
      diverged = false;
    }
  }

  private void mutate(int i, String op, JsonNode step) {
    String key = step.get("key").asText();
    Pail p = step.has("maxShardSize") && !step.path("maxShardSize_ignored").asBoolean()
        ? pail.withOptions(pail.options().withMaxShardSize(step.get("maxShardSize").asInt()))
        : pail;
    Cid value = op.equals("put") ? Cid.parse(step.get("value_cid").asText()) : null;
    PailUpdate update;
    try {
      update = op.equals("put") ? p.put(root, key, value) : p.del(root, key);
    } catch (ShardLimitException e) {
      if (!step.has("error")) {
        differ(i, op + " " + key + ": threw " + e.getMessage());
      }
      return;
    }
    if (step.has("error")) {
      differ(i, op + " " + key + ": succeeded, pail 0.3.4 failed with " + step.get("error"));
    }
    if (op.equals("put")) {
      model.put(key, value);
    } else {
      model.remove(key);
    }
    assertThat(update.changed()).isEqualTo(!update.root().equals(root));
    if (!p.options().oneSplitPerPut()) {
      // Spec: every shard this put wrote fits, except ancestors that only changed a link.
      Set<Integer> relinked = new HashSet<>();
      update.removals().forEach(b -> relinked.add(b.size()));
      for (Block b : update.additions()) {
        assertThat(b.size() <= p.options().maxShardSize() || relinked.contains(b.size()))
            .as("step %d: shard %s of %d bytes fits %d", i, b.cid(), b.size(),
                p.options().maxShardSize()).isTrue();
      }
    }
    root = update.root();
    if (!diverged && step.has("additions") && !step.has("error")) {
      if (!cids(update.additions()).equals(texts(step.get("additions")))
          || !cids(update.removals()).equals(texts(step.get("removals")))) {
        differ(i, op + " " + key + ": additions/removals " + cids(update.additions()) + " / "
            + cids(update.removals()) + " vs " + step.get("additions") + " / "
            + step.get("removals"));
      }
    }
  }

  private void listing(int i, JsonNode step) {
    if (step.has("skipped")) {
      return;
    }
    JsonNode options = step.get("options");
    EntriesQuery query = options.has("prefix") ? EntriesQuery.prefix(options.get("prefix")
        .asText()) : EntriesQuery.all();
    List<PailEntry> got = pail.entries(root, query).toList();
    List<PailEntry> expected = new ArrayList<>();
    for (PailEntry e : modelEntries(model)) {
      if (query.matches(e.key())) {
        expected.add(e);
      }
    }
    assertThat(got).as("step %d entries %s", i, options).isEqualTo(expected);
    List<PailEntry> recorded = new ArrayList<>();
    for (JsonNode e : step.get("result")) {
      recorded.add(new PailEntry(e.get(0).asText(), Cid.parse(e.get(1).asText())));
    }
    if (!recorded.equals(got)) {
      differ(i, "entries " + options + " differ");
    }
  }

  private void diff(int i, JsonNode step) {
    Cid a = named(step.get("a").asText());
    Cid b = named(step.get("b").asText());
    PailDiff d = pail.diff(a, b);
    assertThat(d.keys()).as("step %d diff keys", i).isEqualTo(modelDiff(a, b));
    List<String> recorded = new ArrayList<>();
    for (JsonNode k : step.get("result").get("keys")) {
      recorded.add(k.get(0).asText() + ":" + textOrNull(k.get(1).get(0)) + "->"
          + textOrNull(k.get(1).get(1)));
    }
    List<String> got = new ArrayList<>();
    for (KeyChange k : d.keys()) {
      got.add(k.key() + ":" + text(k.before()) + "->" + text(k.after()));
    }
    if (!got.equals(recorded)) {
      differ(i, "diff " + step.get("a").asText() + "->" + step.get("b").asText() + " keys "
          + got + " vs " + recorded);
    }
    JsonNode shards = step.get("result").get("shards");
    if (!new HashSet<>(cids(d.additions())).equals(new HashSet<>(texts(shards.get("additions"))))
        || !new HashSet<>(cids(d.removals())).equals(
            new HashSet<>(texts(shards.get("removals"))))) {
      differ(i, "diff " + step.get("a").asText() + "->" + step.get("b").asText()
          + " shards differ");
    }
  }

  /** pail's merge: the key changes of each target's diff from base, applied as puts/dels. */
  private void merge(int i, JsonNode step) {
    Cid base = named(step.get("base").asText());
    Cid merged = root;
    for (JsonNode target : step.get("targets")) {
      for (KeyChange k : pail.diff(base, named(target.asText())).keys()) {
        merged = k.after() == null ? pail.del(merged, k.key()).root()
            : pail.put(merged, k.key(), k.after()).root();
        if (k.after() == null) {
          model.remove(k.key());
        } else {
          model.put(k.key(), k.after());
        }
      }
    }
    root = merged;
  }

  private Cid named(String name) {
    return name.equals("current") ? root : snapshots.get(name);
  }

  private List<KeyChange> modelDiff(Cid a, Cid b) {
    TreeMap<String, Cid> before = new TreeMap<>();
    pail.entries(a).forEach(e -> before.put(e.key(), e.value()));
    TreeMap<String, Cid> after = new TreeMap<>();
    pail.entries(b).forEach(e -> after.put(e.key(), e.value()));
    return changes(before, after);
  }

  /** The key changes from one model to another, ascending by key. */
  static List<KeyChange> changes(TreeMap<String, Cid> before, TreeMap<String, Cid> after) {
    Set<String> keys = new TreeSet<>(before.keySet());
    keys.addAll(after.keySet());
    List<KeyChange> out = new ArrayList<>();
    for (String k : keys) {
      if (!Objects.equals(before.get(k), after.get(k))) {
        out.add(new KeyChange(k, before.get(k), after.get(k)));
      }
    }
    return out;
  }

  private void compareFinalBlocks() {
    List<String> expected = new ArrayList<>();
    for (JsonNode b : scenario.get("final_blocks")) {
      expected.add(b.get("cid").asText() + "=" + b.get("bytes_hex").asText());
    }
    List<String> got = new ArrayList<>();
    preOrder(root, got, new LinkedHashSet<>());
    if (!got.equals(expected)) {
      differ("final blocks differ");
    }
  }

  private void preOrder(Cid cid, List<String> out, Set<Cid> seen) {
    if (!seen.add(cid)) {
      return;
    }
    Block block = store.require(cid);
    out.add(cid + "=" + HexFormat.of().formatHex(block.bytes()));
    for (ShardEntry e : pail.shard(cid).entries()) {
      if (e.isLink()) {
        preOrder(e.link(), out, seen);
      }
    }
  }

  static List<PailEntry> modelEntries(TreeMap<String, Cid> model) {
    List<PailEntry> out = new ArrayList<>();
    model.forEach((k, v) -> out.add(new PailEntry(k, v)));
    return out;
  }

  private static List<String> cids(List<Block> blocks) {
    return blocks.stream().map(b -> b.cid().toString()).toList();
  }

  private static List<String> texts(JsonNode array) {
    List<String> out = new ArrayList<>();
    array.forEach(n -> out.add(n.asText()));
    return out;
  }

  private static String text(Cid cid) {
    return cid == null ? null : cid.toString();
  }

  private static String textOrNull(JsonNode n) {
    return n == null || n.isNull() ? null : n.isTextual() ? n.asText() : n.toString();
  }

  private void differ(int step, String what) {
    differences.add(new Difference(step, what));
  }

  private void differ(String what) {
    differences.add(new Difference(Integer.MAX_VALUE, what));
  }

  /** Something pail 0.3.4 recorded differently; step MAX_VALUE is the final state. */
  record Difference(int step, String what) {
    @Override
    public String toString() {
      return (step == Integer.MAX_VALUE ? "final" : "step " + step) + ": "
          + (what.length() > 300 ? what.substring(0, 300) + "…" : what);
    }
  }

}
