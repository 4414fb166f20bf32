package dev.kvasir.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class Utf8LinesTest {
  private static List<String> lines(String text) throws Exception {
    Utf8Lines reader = new Utf8Lines(
        new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)));
    List<String> out = new ArrayList<>();
    for (String line; (line = reader.next()) != null; ) {
      out.add(line);
    }
    return out;
  }

  @Test
  void aByteOrderMarkBeforeTheFirstLine_isDropped_andOnlyThere() throws Exception {
    // As PowerShell 5's Out-File -Encoding utf8 writes; the import failed on line 1.
    assertThat(lines("\uFEFF{\"a\":1}\r\n\uFEFF{\"b\":2}\n"))
        .containsExactly("{\"a\":1}", "\uFEFF{\"b\":2}");
    assertThat(lines("{\"a\":1}\n")).containsExactly("{\"a\":1}");
  }
}
