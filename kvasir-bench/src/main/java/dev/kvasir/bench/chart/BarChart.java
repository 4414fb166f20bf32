package dev.kvasir.bench.chart;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Grouped bars as standalone SVG: for each group (a workload) one bar per series (a peer), on a
 * logarithmic y axis so that 0.05× and 5× are as readable as 1×, with a line at 1 (the
 * baseline) and the value above each bar.
 */
public final class BarChart {
  private static final int HEIGHT = 440;
  private static final int LEFT = 70;
  private static final int TOP = 56;
  private static final int BOTTOM = 70;
  private static final int BAR = 16;
  private static final int GAP = 22;

  private final String title;
  private final String yLabel;
  private final List<String> groups;
  private final List<String> series = new ArrayList<>();
  private final List<double[]> values = new ArrayList<>();

  public BarChart(String title, String yLabel, List<String> groups) {
    this.title = title;
    this.yLabel = yLabel;
    this.groups = List.copyOf(groups);
  }

  /** One bar per group, in group order; NaN leaves the bar out. */
  public BarChart add(String label, double[] perGroup) {
    series.add(label);
    values.add(perGroup.clone());
    return this;
  }

  public String svg() {
    double min = 1;
    double max = 1;
    for (double[] v : values) {
      for (double x : v) {
        if (!Double.isNaN(x) && x > 0) {
          min = Math.min(min, x);
          max = Math.max(max, x);
        }
      }
    }
    double lo = Math.pow(10, Math.floor(Math.log10(min)));
    double hi = Math.pow(10, Math.ceil(Math.log10(max)));
    int groupWidth = series.size() * BAR + GAP;
    int width = LEFT + groups.size() * groupWidth + 40;
    int bottom = HEIGHT - BOTTOM;
    StringBuilder out = new StringBuilder();
    out.append(Svg.open(width, HEIGHT));
    out.append(Svg.text(width / 2.0, 24, title, "middle", 15));
    out.append(Svg.verticalText(18, (TOP + bottom) / 2.0, yLabel));
    for (double t = lo; t <= hi * 1.0001; t *= 10) {
      double y = y(t, lo, hi, bottom);
      out.append(Svg.line(LEFT, y, width - 20, y, t == 1 ? "#333" : "#e0e0e0",
          t == 1 ? 1.5 : 1));
      out.append(Svg.text(LEFT - 8, y + 4, ratio(t) + "×", "end", 11));
    }
    for (int g = 0; g < groups.size(); g++) {
      double x0 = LEFT + GAP / 2.0 + g * groupWidth;
      for (int s = 0; s < series.size(); s++) {
        double v = values.get(s)[g];
        if (Double.isNaN(v) || v <= 0) {
          continue;
        }
        double x = x0 + s * BAR;
        double yv = y(v, lo, hi, bottom);
        double y1 = y(1, lo, hi, bottom);
        out.append(String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%d\""
            + " height=\"%.1f\" fill=\"%s\"><title>%s %s: %s×</title></rect>%n", x,
            Math.min(yv, y1), BAR - 2, Math.max(1, Math.abs(y1 - yv)),
            Svg.colour(s), Svg.escape(series.get(s)), Svg.escape(groups.get(g)),
            ratio(v)));
        out.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"9\""
            + " text-anchor=\"start\" transform=\"rotate(-90 %.1f %.1f)\">%s</text>%n",
            x + BAR / 2.0 + 3, Math.min(yv, y1) - 3, x + BAR / 2.0 + 3, Math.min(yv, y1) - 3,
            ratio(v)));
      }
      out.append(Svg.text(x0 + series.size() * BAR / 2.0, bottom + 18, groups.get(g), "middle",
          12));
    }
    for (int s = 0; s < series.size(); s++) {
      double lx = LEFT + (s % 4) * 150;
      double ly = bottom + 40 + (s / 4) * 16;
      out.append(String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"%.1f\" width=\"12\""
          + " height=\"12\" fill=\"%s\"/>%n", lx, ly - 10, Svg.colour(s)));
      out.append(Svg.text(lx + 16, ly, series.get(s), "start", 12));
    }
    return out.append("</svg>\n").toString();
  }

  private static double y(double v, double lo, double hi, int bottom) {
    double f = (Math.log10(v) - Math.log10(lo)) / (Math.log10(hi) - Math.log10(lo));
    return bottom - f * (bottom - TOP);
  }

  private static String ratio(double v) {
    return v >= 10 ? String.format(Locale.ROOT, "%.0f", v) : v >= 0.1
        ? String.format(Locale.ROOT, "%.2f", v) : String.format(Locale.ROOT, "%.3f", v);
  }



}
