package dev.kvasir.testkit;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Samples read off a scrape of {@code GET /metrics}, in Prometheus's text format. */
public final class PrometheusText {
  private PrometheusText() {}

  /**
   * The value of the sample {@code name{labels…}}: the first whose labels start with {@code
   * labels} (any labels if empty), or −1 if the scrape has none.
   */
  public static double sample(String text, String name, String labels) {
    String labelled = labels.isEmpty() ? "(\\{[^}]*\\})?"
        : Pattern.quote("{" + labels) + "[^}]*\\}";
    Matcher m = Pattern.compile("(?m)^" + Pattern.quote(name) + labelled + " ([0-9.eE+-]+)$")
        .matcher(text);
    return m.find() ? Double.parseDouble(m.group(m.groupCount())) : -1;
  }
}
