package dev.kvasir.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** What {@code kvasir serve} printed before "Ctrl-C stops.", and the URL it serves at. */
record Banner(List<String> lines, String url) {
  /**
   * Reads the banner of {@code serve} (standard output, or both streams when merged); the URL
   * is group 1 of {@code urlLine} on the line that matches it, null if none did.
   */
  static Banner read(Process serve, Pattern urlLine) throws IOException {
    BufferedReader out = new BufferedReader(
        new InputStreamReader(serve.getInputStream(), StandardCharsets.UTF_8));
    List<String> lines = new ArrayList<>();
    String url = null;
    for (String line; (line = out.readLine()) != null && !line.equals("Ctrl-C stops."); ) {
      lines.add(line);
      Matcher m = urlLine.matcher(line);
      if (m.find()) {
        url = m.group(1);
      }
    }
    return new Banner(lines, url);
  }
}
