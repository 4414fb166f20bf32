package dev.kvasir.value;

import java.math.BigInteger;

/**
 * A boxed primitive ({@code new Number(1)}, {@code new String("s")}, {@code new Boolean(true)},
 * {@code Object(1n)}): an object wrapping a primitive, which structured clone keeps distinct
 * from the primitive itself.
 */
public sealed interface JsBoxed permits JsBoxed.Num, JsBoxed.Str, JsBoxed.Bool, JsBoxed.BigInt {
  /** The wrapped primitive. */
  Object primitive();

  record Num(double value) implements JsBoxed {
    @Override
    public Object primitive() {
      return value;
    }
  }

  record Str(String value) implements JsBoxed {
    @Override
    public Object primitive() {
      return value;
    }
  }

  record Bool(boolean value) implements JsBoxed {
    @Override
    public Object primitive() {
      return value;
    }
  }

  record BigInt(BigInteger value) implements JsBoxed {
    @Override
    public Object primitive() {
      return value;
    }
  }
}
