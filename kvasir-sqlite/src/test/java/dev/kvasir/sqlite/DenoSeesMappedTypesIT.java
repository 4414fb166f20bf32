package dev.kvasir.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.kvasir.Kv;
import dev.kvasir.KvKey;
import dev.kvasir.testkit.DenoPeer;
import dev.kvasir.testkit.mapping.MappedTypes;
import dev.kvasir.testkit.mapping.MappedTypes.Sample;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the real Deno sees of every mapped Java type (docs/mapping.md): Kvasir writes the samples
 * of {@link MappedTypes} into a SQLite file, Deno reads them, and each is what the table (and
 * the README's) says.
 */
class DenoSeesMappedTypesIT {
  @TempDir Path dir;

  @Test
  void denoReadsEveryMappedType_asTheTableSays() throws Exception {
    DenoPeer deno = DenoPeer.require(dir.resolve("deno"));
    String file = dir.resolve("mapped.sqlite3").toString();
    try (Kv kv = Kv.builder(file).mapper(MappedTypes.MAPPER).open()) {
      for (Sample s : MappedTypes.samples()) {
        kv.set(KvKey.of("mapped", s.name()), s.value());
      }
    }
    JsonNode seen = new ObjectMapper().readTree(deno.run("describe.ts", file, "mapped"));
    for (Sample s : MappedTypes.samples()) {
      assertThat(seen.path(s.name()).asText()).as(s.name()).isEqualTo(s.denoSees());
    }
    assertThat(seen.size()).isEqualTo(MappedTypes.samples().size());
  }
}
