package dev.kvasir.arch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kvasir.Kv;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.spi.ToolProvider;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;

/**
 * Core's packages import each other only downwards, as docs/architecture.md ("Which package may
 * import which") draws them, so they form no cycle. Read off the compiled classes by the JDK's
 * {@code jdeps}, so an import that only a javadoc comment names does not count, and one made
 * through a fully qualified name does.
 */
class PackageLayersTest {
  /** Each package of core and the packages of core it may use; the order is the layering. */
  private static final Map<String, Set<String>> ALLOWED = Map.of(
      "dev.kvasir.base", Set.of(),
      "dev.kvasir.internal", Set.of(),
      "dev.kvasir.value", Set.of("dev.kvasir.base", "dev.kvasir.internal"),
      "dev.kvasir.key", Set.of("dev.kvasir.base", "dev.kvasir.value"),
      "dev.kvasir.spi", Set.of("dev.kvasir.base", "dev.kvasir.value", "dev.kvasir.key"),
      "dev.kvasir.engine", Set.of("dev.kvasir.base", "dev.kvasir.value", "dev.kvasir.key",
          "dev.kvasir.spi", "dev.kvasir.internal"),
      "dev.kvasir.memory", Set.of("dev.kvasir.base", "dev.kvasir.value", "dev.kvasir.key",
          "dev.kvasir.spi", "dev.kvasir.engine"),
      "dev.kvasir.mapping", Set.of("dev.kvasir.base", "dev.kvasir.value", "dev.kvasir.internal"),
      "dev.kvasir", Set.of("dev.kvasir.base", "dev.kvasir.value", "dev.kvasir.key",
          "dev.kvasir.spi", "dev.kvasir.mapping"));

  @Test
  void everyImportBetweenCorePackages_isAllowed() {
    Map<String, Set<String>> uses = packageUses();
    assertThat(uses.keySet()).as("core's packages").isEqualTo(new TreeSet<>(ALLOWED.keySet()));
    uses.forEach((from, to) -> assertThat(to).as("packages that %s uses", from)
        .isSubsetOf(ALLOWED.get(from)));
  }

  @Test
  void theAllowedImports_formNoCycle() {
    for (String start : ALLOWED.keySet()) {
      assertThat(reachable(start)).as("packages reachable from %s", start).doesNotContain(start);
    }
  }

  private static Set<String> reachable(String from) {
    Set<String> seen = new TreeSet<>();
    List<String> todo = new ArrayList<>(ALLOWED.get(from));
    while (!todo.isEmpty()) {
      String next = todo.remove(todo.size() - 1);
      if (seen.add(next)) {
        todo.addAll(ALLOWED.get(next));
      }
    }
    return seen;
  }

  /** {@code jdeps -verbose:package} on core's classes: package → core packages it uses. */
  private static Map<String, Set<String>> packageUses() {
    Path classes = Path.of(Kv.class.getProtectionDomain().getCodeSource().getLocation().getPath());
    ToolProvider jdeps = ToolProvider.findFirst("jdeps").orElseThrow(
        () -> new AssertionError("this JDK has no jdeps (module jdk.jdeps)"));
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    // Core's module requires SLF4J's, which jdeps must find to read core as a module.
    String slf4j = Logger.class.getProtectionDomain().getCodeSource().getLocation().getPath();
    int status = jdeps.run(new PrintWriter(out), new PrintWriter(err), "--multi-release", "17",
        "--module-path", slf4j, "-verbose:package", "-filter:none", classes.toString());
    assertThat(status).as("jdeps: %s %s", err, out).isZero();
    // Package lines are indented: "   dev.kvasir.spi   -> dev.kvasir.base   dev.kvasir.core";
    // the module's own line ("dev.kvasir.core -> java.base") is not.
    Map<String, Set<String>> uses = new TreeMap<>();
    for (String line : out.toString().split("\n")) {
      String[] f = line.trim().split("\\s+");
      if (line.startsWith(" ") && f.length == 4 && f[1].equals("->")) {
        Set<String> to = uses.computeIfAbsent(f[0], k -> new TreeSet<>());
        if (f[2].startsWith("dev.kvasir") && !f[2].equals(f[0])) {
          to.add(f[2]);
        }
      }
    }
    return uses.entrySet().stream().collect(Collectors.toMap(Map.Entry::getKey,
        Map.Entry::getValue, (a, b) -> a, TreeMap::new));
  }
}
