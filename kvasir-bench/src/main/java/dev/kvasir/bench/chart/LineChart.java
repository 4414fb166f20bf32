package dev.kvasir.bench.chart;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A small line chart as standalone SVG, for benchmark results people would rather look at than
 * read: one or more series of (x, y) points, a logarithmic or linear x axis, a linear y axis
 * from zero, labelled ticks and a legend. No dependencies, so the file renders anywhere.
 */
public final class LineChart {
  private static final int WIDTH = 720;
  private static final int HEIGHT = 420;
  private static final int LEFT = 80;
  private static final int RIGHT = 24;
  private static final int TOP = 48;
  private static final int BOTTOM = 64;

  /** One line; {@code label} goes to the legend. */
  public record Series(String label, List<double[]> points) {}

  private final String title;
  private final String xLabel;
  private final String yLabel;
  private final boolean logX;
  private final List<Series> series = new ArrayList<>();

  public LineChart(String title, String xLabel, String yLabel, boolean logX) {
    this.title = title;
    this.xLabel = xLabel;
    this.yLabel = yLabel;
    this.logX = logX;
  }

  public LineChart add(Series s) {
    series.add(s);
    return this;
  }

  /** The chart as an SVG document. */
  public String svg() {
    double minX = Double.MAX_VALUE;
    double maxX = -Double.MAX_VALUE;
    double maxY = 0;
    for (Series s : series) {
      for (double[] p : s.points()) {
        minX = Math.min(minX, p[0]);
        maxX = Math.max(maxX, p[0]);
        maxY = Math.max(maxY, p[1]);
      }
    }
    double yTop = niceCeiling(maxY);
    StringBuilder out = new StringBuilder();
    out.append(Svg.open(WIDTH, HEIGHT));
    out.append(Svg.text(WIDTH / 2.0, 24, title, "middle", 15));
    out.append(Svg.text(WIDTH / 2.0, HEIGHT - 16, xLabel, "middle", 12));
    out.append(Svg.verticalText(18, (TOP + plotBottom()) / 2.0, yLabel));
    for (int i = 0; i <= 5; i++) {
      double y = yTop * i / 5;
      double py = py(y, yTop);
      out.append(Svg.line(LEFT, py, WIDTH - RIGHT, py, "#e0e0e0", 1));
      out.append(Svg.text(LEFT - 8, py + 4, format(y), "end", 11));
    }
    for (double x : xTicks(minX, maxX)) {
      double px = px(x, minX, maxX);
      out.append(Svg.line(px, TOP, px, plotBottom(), "#f0f0f0", 1));
      out.append(Svg.text(px, plotBottom() + 18, format(x), "middle", 11));
    }
    out.append(Svg.line(LEFT, plotBottom(), WIDTH - RIGHT, plotBottom(), "#333", 1));
    out.append(Svg.line(LEFT, TOP, LEFT, plotBottom(), "#333", 1));
    for (int i = 0; i < series.size(); i++) {
      Series s = series.get(i);
      String colour = Svg.colour(i);
      StringBuilder path = new StringBuilder();
      for (double[] p : s.points()) {
        double px = px(p[0], minX, maxX);
        double py = py(p[1], yTop);
        path.append(path.length() == 0 ? "M" : " L").append(String.format(Locale.ROOT,
            "%.1f %.1f", px, py));
        out.append(String.format(Locale.ROOT, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\""
            + " fill=\"%s\"><title>%s: %s</title></circle>%n", px, py, colour,
            Svg.escape(format(p[0])), Svg.escape(format(p[1]))));
        out.append(Svg.text(px + 6, py - 8, format(p[1]), "start", 11));
      }
      out.append(String.format(Locale.ROOT, "<path d=\"%s\" fill=\"none\" stroke=\"%s\""
          + " stroke-width=\"2\"/>%n", path, colour));
      double ly = TOP + 8 + 18 * i;
      out.append(Svg.line(LEFT + 16, ly, LEFT + 40, ly, colour, 1));
      out.append(Svg.text(LEFT + 46, ly + 4, s.label(), "start", 12));
    }
    return out.append("</svg>\n").toString();
  }

  private static int plotBottom() {
    return HEIGHT - BOTTOM;
  }

  private double px(double x, double minX, double maxX) {
    double f = maxX == minX ? 0.5 : logX ? (Math.log10(x) - Math.log10(minX))
        / (Math.log10(maxX) - Math.log10(minX)) : (x - minX) / (maxX - minX);
    return LEFT + 20 + f * (WIDTH - LEFT - RIGHT - 40);
  }

  private static double py(double y, double yTop) {
    return plotBottom() - (yTop == 0 ? 0 : y / yTop) * (plotBottom() - TOP - 24);
  }

  private List<Double> xTicks(double minX, double maxX) {
    List<Double> ticks = new ArrayList<>();
    if (logX) {
      for (double x = Math.pow(10, Math.floor(Math.log10(minX))); x <= maxX * 1.0001; x *= 10) {
        if (x >= minX * 0.9999) {
          ticks.add(x);
        }
      }
    } else {
      for (int i = 0; i <= 5; i++) {
        ticks.add(minX + (maxX - minX) * i / 5);
      }
    }
    return ticks;
  }

  /** 1, 2 or 5 times a power of ten, at or above {@code v}. */
  static double niceCeiling(double v) {
    if (v <= 0) {
      return 1;
    }
    double power = Math.pow(10, Math.floor(Math.log10(v)));
    for (double m : new double[] {1, 2, 5, 10}) {
      if (m * power >= v) {
        return m * power;
      }
    }
    return 10 * power;
  }

  /** 1 234, 12.5k, 3M: short labels. */
  static String format(double v) {
    double a = Math.abs(v);
    if (a >= 1e6) {
      return trim(v / 1e6) + "M";
    }
    if (a >= 1e4) {
      return trim(v / 1e3) + "k";
    }
    return trim(v);
  }

  private static String trim(double v) {
    return v == Math.rint(v) ? String.format(Locale.ROOT, "%.0f", v)
        : String.format(Locale.ROOT, "%.1f", v);
  }



}
