package dev.kvasir.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kvasir.KvKey;
import dev.kvasir.base.Hex;
import dev.kvasir.base.KvTypeException;
import dev.kvasir.spi.Mutation;
import dev.kvasir.spi.RawKey;
import dev.kvasir.value.EncodedValue;
import dev.kvasir.value.KvU64;
import dev.kvasir.value.V8;
import dev.kvasir.value.ValueEncoding;
import java.math.BigInteger;
import org.junit.jupiter.api.Test;

class ArithmeticTest {
  private static final RawKey K = KvKey.of("k").raw();

  private static EncodedValue v8(Object v) {
    return EncodedValue.of(ValueEncoding.V8, V8.serialize(v));
  }

  private static EncodedValue sum(EncodedValue current, EncodedValue operand) {
    return Arithmetic.apply(new Mutation.Sum(K, operand), current);
  }

  @Test
  void u64_wrapsAndComparesUnsigned() {
    EncodedValue twelve = EncodedValue.of(KvU64.of(12));
    assertThat(sum(twelve, EncodedValue.of(KvU64.MAX)).decode()).isEqualTo(KvU64.of(11));
    assertThat(Arithmetic.apply(new Mutation.Min(K, EncodedValue.of(KvU64.MAX)), twelve))
        .isEqualTo(twelve);
    assertThat(Arithmetic.apply(new Mutation.Max(K, EncodedValue.of(KvU64.MAX)), twelve).decode())
        .isEqualTo(KvU64.MAX);
    assertThat(sum(null, twelve)).isEqualTo(twelve);
  }

  @Test
  void v8_resultsAreEncodedAsDenokvDoes() {
    // docs/atomic.md: numbers always as N with header ff 0f; bigints minimal.
    assertThat(Hex.encode(sum(v8(1.0), v8(2.0)).bytes())).isEqualTo("ff0f4e0000000000000840");
    assertThat(Hex.encode(sum(null, v8(BigInteger.valueOf(-10))).bytes()))
        .isEqualTo("ff0f5a030a");
    assertThat(Hex.encode(sum(v8(BigInteger.ONE), v8(BigInteger.ONE.negate())).bytes()))
        .isEqualTo("ff0f5a00");
    assertThat(sum(v8(BigInteger.ONE.shiftLeft(70)), v8(BigInteger.ONE)).decode())
        .isEqualTo(BigInteger.ONE.shiftLeft(70).add(BigInteger.ONE));
  }

  @Test
  void wrongTypes_failWithDenosMessages() {
    assertThatThrownBy(() -> sum(v8("s"), EncodedValue.of(KvU64.of(1))))
        .isInstanceOf(KvTypeException.class)
        .hasMessage("Failed to perform 'sum' mutation on a non-U64 value in the database");
    assertThatThrownBy(() -> Arithmetic.apply(new Mutation.Min(K, v8(1.0)), null))
        .hasMessage("Failed to perform 'min' mutation on a non-U64 operand");
    assertThatThrownBy(() -> sum(null, v8("x")))
        .hasMessage("Some of the parameters are not valid V8 values");
    assertThatThrownBy(() -> sum(null, EncodedValue.of(new byte[] {1})))
        .hasMessage("Some of the parameters are not valid V8 values");
    assertThatThrownBy(() -> sum(v8(BigInteger.ONE), v8(1.0)))
        .hasMessage("Cannot sum BigInt with Number");
    assertThatThrownBy(() -> sum(v8("text"), v8(1.0)))
        .hasMessage("Failed to perform 'sum' mutation on a non-number value in the database");
  }
}
