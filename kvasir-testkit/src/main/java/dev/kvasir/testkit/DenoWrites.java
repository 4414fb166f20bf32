package dev.kvasir.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.kvasir.Kv;
import dev.kvasir.KvEntry;
import dev.kvasir.KvKey;
import dev.kvasir.base.Versionstamp;
import dev.kvasir.golden.ValueDescriptions;
import dev.kvasir.golden.Vectors;
import dev.kvasir.golden.Vectors.ValueVector;
import dev.kvasir.value.JsValues;

/** Checks of what the real Deno wrote with the testkit's scripts. */
public final class DenoWrites {
  private DenoWrites() {}

  /**
   * Every value vector that {@code write_all.ts} wrote under {@code ["v", id]} reads back in
   * {@code kv} as the vector describes it, with the versionstamp the script printed for it in
   * {@code stamps}.
   */
  public static void assertEveryValueVector(Kv kv, JsonNode stamps) {
    for (ValueVector v : Vectors.values()) {
      KvEntry e = kv.get(KvKey.of("v", v.id()));
      Object expected = ValueDescriptions.build(v.description());
      assertThat(JsValues.deepEquals(e.value(), expected))
          .as("%s: read %s, expected %s", v, e.value(), expected).isTrue();
      assertThat(e.versionstamp()).as("%s", v)
          .isEqualTo(Versionstamp.parse(stamps.get("v" + v.id()).asText()));
    }
  }
}
