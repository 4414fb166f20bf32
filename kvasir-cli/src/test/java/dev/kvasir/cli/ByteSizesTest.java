package dev.kvasir.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine.TypeConversionException;

class ByteSizesTest {
  @ParameterizedTest
  @CsvSource({"1048576,1048576", "512k,524288", "64m,67108864", "64M,67108864",
      "2g,2147483648", " 3m ,3145728", "64MB,67108864", "64MiB,67108864", "64Mi,67108864",
      "512KB,524288", "100b,100"})
  void sizes_areReadAsTheJvmReadsXmx_withTheSuffixesPeopleAdd(String text, long bytes) {
    assertThat(new ByteSizes().convert(text)).isEqualTo(bytes);
  }

  @ParameterizedTest
  @ValueSource(strings = {"64x", "1.5g", "64ib", "m", "", "64 MB"})
  void otherText_isNotASize(String text) {
    assertThatThrownBy(() -> new ByteSizes().convert(text)).isInstanceOf(
        TypeConversionException.class).hasMessageStartingWith("'" + text + "' is not a size");
  }
}
