package dev.kvasir.testkit.contract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kvasir.Kv;
import dev.kvasir.KvKey;
import dev.kvasir.testkit.mapping.MappedTypes.Sample;
import dev.kvasir.testkit.mapping.MappedTypes;
import java.util.Arrays;
import java.util.Objects;
import org.junit.jupiter.api.Test;

/**
 * Every mapped Java type (docs/mapping.md, {@link MappedTypes}) written through the engine and
 * read back equal, as a top-level value and inside a record.
 */
public abstract class MappingContract extends ContractBase {
  @Test
  void everyMappedType_readsBackEqual() {
    Kv mapped = Kv.builder(engine).mapper(MappedTypes.MAPPER).open();
    for (Sample s : MappedTypes.samples()) {
      KvKey key = key("mapped", s.name());
      mapped.set(key, s.value());
      Object back = mapped.mapper().read(mapped.get(key).value(), s.type());
      assertThat(same(back, s.value())).as("%s: wrote %s, read %s", s.name(), s.value(), back)
          .isTrue();
    }
  }

  @Test
  void aSampleOfEachType_readsBackInsideAList() {
    Kv mapped = Kv.builder(engine).mapper(MappedTypes.MAPPER).open();
    for (Sample s : MappedTypes.samples()) {
      KvKey key = key("listed", s.name());
      mapped.set(key, java.util.Collections.singletonList(s.value()));
      Object back = mapped.mapper().read(
          ((java.util.List<?>) mapped.get(key).value()).get(0), s.type());
      assertThat(same(back, s.value())).as("%s in a list: read %s", s.name(), back).isTrue();
    }
  }

  private static boolean same(Object a, Object b) {
    return a instanceof byte[] x && b instanceof byte[] y ? Arrays.equals(x, y)
        : Objects.equals(a, b);
  }
}
