package dev.kvasir.bench.chart;

import java.util.Locale;

/** The SVG pieces the charts draw with. */
final class Svg {
  /** Series colours, in order (the "tab10" palette). */
  static final String[] COLOURS = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e",
      "#8c564b", "#17becf", "#7f7f7f"};

  private Svg() {}

  static String colour(int series) {
    return COLOURS[series % COLOURS.length];
  }

  /** The opening tag and a white background. */
  static String open(int width, int height) {
    return String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\""
        + " height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\">%n"
        + "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>%n", width, height, width, height,
        width, height);
  }

  /** A label turned a quarter to the left, centred on {@code (x, y)}. */
  static String verticalText(double x, double y, String s) {
    return String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\""
        + " transform=\"rotate(-90 %.1f %.1f)\">%s</text>%n", x, y, x, y, escape(s));
  }

  static String line(double x1, double y1, double x2, double y2, String colour, double width) {
    return line(x1, y1, x2, y2, colour, width, "");
  }

  /** A line drawn in dashes, as a target is drawn against the values. */
  static String dashedLine(double x1, double y1, double x2, double y2, String colour,
      double width) {
    return line(x1, y1, x2, y2, colour, width, " stroke-dasharray=\"6 4\"");
  }

  private static String line(double x1, double y1, double x2, double y2, String colour,
      double width, String extra) {
    return String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\""
        + " stroke=\"%s\" stroke-width=\"%.1f\"%s/>%n", x1, y1, x2, y2, colour, width, extra);
  }

  static String text(double x, double y, String s, String anchor, int size) {
    return String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\""
        + " font-size=\"%d\">%s</text>%n", x, y, anchor, size, escape(s));
  }

  static String escape(String s) {
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
  }
}
