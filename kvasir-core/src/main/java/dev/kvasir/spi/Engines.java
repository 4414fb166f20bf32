package dev.kvasir.spi;

import dev.kvasir.base.KvException;
import dev.kvasir.base.KvOptions;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.stream.Collectors;

/**
 * The one way to an engine: the {@link EngineProvider} services visible to this module and to
 * the calling thread's context class loader (an application server's or a plugin's), and the
 * provider that takes a location.
 */
public final class Engines {
  private Engines() {}

  /** Every provider found, each class once. */
  public static List<EngineProvider> providers() {
    Map<String, EngineProvider> byClass = new LinkedHashMap<>();
    ServiceLoader.load(EngineProvider.class, Engines.class.getClassLoader())
        .forEach(p -> byClass.putIfAbsent(p.getClass().getName(), p));
    ClassLoader context = Thread.currentThread().getContextClassLoader();
    if (context != null && context != Engines.class.getClassLoader()) {
      ServiceLoader.load(EngineProvider.class, context)
          .forEach(p -> byClass.putIfAbsent(p.getClass().getName(), p));
    }
    return new ArrayList<>(byClass.values());
  }

  /**
   * The provider that takes {@code location} with the highest priority.
   *
   * @throws KvException naming the engines found if none takes it
   */
  public static EngineProvider provider(String location) {
    List<EngineProvider> providers = providers();
    return providers.stream()
        .filter(p -> p.priority(location) >= 0)
        .max(Comparator.comparingInt(p -> p.priority(location)))
        .orElseThrow(() -> new KvException("no engine opens '" + redact(location)
            + "'; engines found: " + (providers.isEmpty() ? "none" : providers.stream()
                .map(p -> p.name() + " (" + p.locations() + ")")
                .collect(Collectors.joining(", "))) + jdbcHint(location)));
  }

  /** For a JDBC URL, the location Kvasir takes for the same database. */
  private static String jdbcHint(String location) {
    if (!location.regionMatches(true, 0, "jdbc:", 0, 5)) {
      return "";
    }
    return ". This is a JDBC URL; Kvasir takes the database's location: without 'jdbc:' for"
        + " PostgreSQL (postgresql://host/db), the file's path for SQLite (jdbc:sqlite:app.db"
        + " is app.db)";
  }

  /** Opens the database at {@code location} with the provider that takes it. */
  public static KvEngine open(String location, KvOptions options) {
    return provider(location).open(location, options);
  }

  /**
   * {@code location} with its passwords hidden: a URL's user information, and the {@code
   * password} and {@code sslpassword} parameters that libpq and the PostgreSQL driver also take.
   */
  public static String redact(String location) {
    return location.replaceAll("(://[^:@/]*:)[^@/]*@", "$1***@")
        .replaceAll("(?i)([?&](?:ssl)?password=)[^&]*", "$1***");
  }
}
