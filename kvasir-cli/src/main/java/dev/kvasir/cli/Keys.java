package dev.kvasir.cli;

import dev.kvasir.KvKey;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** Converts key arguments written in {@link KeySyntax}. */
final class Keys implements ITypeConverter<KvKey> {
  @Override
  public KvKey convert(String value) {
    try {
      return KeySyntax.parse(value);
    } catch (IllegalArgumentException e) {
      throw new TypeConversionException(e.getMessage());
    }
  }
}
