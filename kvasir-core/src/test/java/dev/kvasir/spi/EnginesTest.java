package dev.kvasir.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kvasir.base.KvException;
import dev.kvasir.base.KvOptions;
import dev.kvasir.memory.MemoryEngine;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EnginesTest {
  /** A provider that no service file of the class path names. */
  public static final class HiddenProvider implements EngineProvider {
    public HiddenProvider() {}

    @Override
    public String name() {
      return "hidden";
    }

    @Override
    public String locations() {
      return "hidden:";
    }

    @Override
    public int priority(String location) {
      return location.startsWith("hidden:") ? 10 : -1;
    }

    @Override
    public KvEngine open(String location, KvOptions options) {
      return MemoryEngine.open();
    }
  }

  @Test
  void aLocationNoEngineTakes_failsNamingTheEngines_withoutItsPassword() {
    assertThatThrownBy(() -> Engines.open("nope://user:secret@host/db", KvOptions.defaults()))
        .isInstanceOf(KvException.class)
        .hasMessageContaining("no engine opens 'nope://user:***@host/db'")
        .hasMessageContaining("memory (\":memory:\")")
        .hasMessageNotContaining("secret");
  }

  @Test
  void providersOfTheContextClassLoader_areFoundToo(@TempDir Path dir) throws Exception {
    Path services = dir.resolve("META-INF/services");
    Files.createDirectories(services);
    Files.writeString(services.resolve(EngineProvider.class.getName()),
        HiddenProvider.class.getName() + "\n");
    assertThat(Engines.providers()).noneMatch(p -> p.name().equals("hidden"));
    Thread thread = Thread.currentThread();
    ClassLoader before = thread.getContextClassLoader();
    try (URLClassLoader plugin = new URLClassLoader(new URL[] {dir.toUri().toURL()}, before)) {
      thread.setContextClassLoader(plugin);
      assertThat(Engines.provider("hidden:x").name()).isEqualTo("hidden");
      try (KvEngine engine = Engines.open("hidden:x", KvOptions.defaults())) {
        assertThat(engine).isInstanceOf(MemoryEngine.class);
      }
    } finally {
      thread.setContextClassLoader(before);
    }
  }

  @Test
  void redact_hidesOnlyThePassword() {
    assertThat(Engines.redact("postgresql://kv:hunter2@db:5432/app?schema=s"))
        .isEqualTo("postgresql://kv:***@db:5432/app?schema=s");
    assertThat(Engines.redact("./kv.sqlite3")).isEqualTo("./kv.sqlite3");
    assertThat(Engines.redact("postgresql://db/app?password=hunter2&sslmode=require"
        + "&sslpassword=k3y&PASSWORD=x")).isEqualTo("postgresql://db/app?password=***"
        + "&sslmode=require&sslpassword=***&PASSWORD=***");
  }
}
