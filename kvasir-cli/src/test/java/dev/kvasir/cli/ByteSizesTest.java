package dev.kvasir.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ByteSizesTest {
  @ParameterizedTest
  @CsvSource({"1048576,1048576", "512k,524288", "64m,67108864", "64M,67108864",
      "2g,2147483648", " 3m ,3145728"})
  void sizes_areReadAsTheJvmReadsXmx(String text, long bytes) {
    assertThat(new ByteSizes().convert(text)).isEqualTo(bytes);
  }
}
