package dev.kvasir.bench.chart;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Small multiples as standalone SVG: one panel per series, all on the same axes, so that a
 * series' course over many runs reads at a glance and no line hides another. Each panel draws
 * its points joined in order, a solid line at 1 (the baseline every value is a multiple of)
 * and, where the series has one, a dashed line at its target.
 */
public final class PanelChart {
  private static final int COLUMNS = 3;
  private static final int PANEL_WIDTH = 290;
  private static final int PANEL_HEIGHT = 190;
  private static final int LEFT = 44;
  private static final int TOP = 56;
  private static final int GAP_X = 20;
  private static final int GAP_Y = 44;
  private static final int BOTTOM = 40;
  private static final String POINT_COLOUR = Svg.colour(0);
  private static final String TARGET_COLOUR = "#d62728";

  /**
   * One panel. {@code values.get(i)} belongs to the run at {@code i + 1} on the x axis; NaN
   * marks a run that did not measure it. {@code target} is NaN where there is none.
   */
  public record Panel(String label, List<Double> values, double target) {
    public Panel {
      values = List.copyOf(values);
    }
  }

  private final String title;
  private final String xLabel;
  private final List<Panel> panels = new ArrayList<>();

  public PanelChart(String title, String xLabel) {
    this.title = title;
    this.xLabel = xLabel;
  }

  public PanelChart add(Panel panel) {
    panels.add(panel);
    return this;
  }

  /** The chart as an SVG document. */
  public String svg() {
    int runs = 0;
    double max = 1;
    for (Panel p : panels) {
      runs = Math.max(runs, p.values().size());
      for (double v : p.values()) {
        if (!Double.isNaN(v)) {
          max = Math.max(max, v);
        }
      }
      if (!Double.isNaN(p.target())) {
        max = Math.max(max, p.target());
      }
    }
    double yTop = Math.ceil(max * 2) / 2;
    int rows = (panels.size() + COLUMNS - 1) / COLUMNS;
    int width = LEFT + COLUMNS * PANEL_WIDTH + (COLUMNS - 1) * GAP_X + 16;
    int height = TOP + rows * PANEL_HEIGHT + (rows - 1) * GAP_Y + BOTTOM;
    StringBuilder out = new StringBuilder(Svg.open(width, height));
    out.append(Svg.text(width / 2.0, 24, title, "middle", 15));
    out.append(Svg.text(width / 2.0, height - 10, xLabel, "middle", 12));
    out.append(Svg.line(width - 250, 38, width - 226, 38, "#333", 1.5));
    out.append(Svg.text(width - 220, 42, "1 = the baseline", "start", 11));
    out.append(dashed(width - 120, 38, width - 96, 38));
    out.append(Svg.text(width - 90, 42, "target", "start", 11));
    for (int i = 0; i < panels.size(); i++) {
      double x0 = LEFT + (i % COLUMNS) * (PANEL_WIDTH + GAP_X);
      double y0 = TOP + (i / COLUMNS) * (PANEL_HEIGHT + GAP_Y);
      panel(out, panels.get(i), new Frame(x0, y0, runs, yTop));
    }
    return out.append("</svg>\n").toString();
  }

  /** Where a panel sits and what its axes span. */
  private record Frame(double x0, double y0, int runs, double yTop) {
    double px(int run) {
      return x0 + 8 + (runs <= 1 ? 0.5 : (run - 1.0) / (runs - 1)) * (PANEL_WIDTH - 16);
    }

    double py(double v) {
      return y0 + PANEL_HEIGHT - v / yTop * (PANEL_HEIGHT - 20);
    }

    double bottom() {
      return y0 + PANEL_HEIGHT;
    }
  }

  /**
   * The first run, the last, and every fifth that is not so close to the last that their
   * labels would run together (20 and 21 read as "2021").
   */
  static boolean labelled(int run, int runs) {
    return run == 1 || run == runs || (run % 5 == 0 && runs - run >= 3);
  }

  private static void panel(StringBuilder out, Panel p, Frame f) {
    out.append(Svg.text(f.x0(), f.y0() - 6, p.label(), "start", 13));
    for (double v = 0; v <= f.yTop() + 1e-9; v += 0.5) {
      out.append(Svg.line(f.x0(), f.py(v), f.x0() + PANEL_WIDTH, f.py(v), "#e8e8e8", 1));
      out.append(Svg.text(f.x0() - 6, f.py(v) + 4, String.format(Locale.ROOT, "%.1f", v),
          "end", 10));
    }
    for (int run = 1; run <= f.runs(); run++) {
      if (labelled(run, f.runs())) {
        out.append(Svg.text(f.px(run), f.bottom() + 14, Integer.toString(run), "middle", 10));
      }
    }
    out.append(Svg.line(f.x0(), f.bottom(), f.x0() + PANEL_WIDTH, f.bottom(), "#333", 1));
    out.append(Svg.line(f.x0(), f.py(1), f.x0() + PANEL_WIDTH, f.py(1), "#333", 1.5));
    if (!Double.isNaN(p.target())) {
      out.append(dashed(f.x0(), f.py(p.target()), f.x0() + PANEL_WIDTH, f.py(p.target())));
    }
    StringBuilder path = new StringBuilder();
    List<Double> values = p.values();
    for (int i = 0; i < values.size(); i++) {
      double v = values.get(i);
      if (Double.isNaN(v)) {
        continue;
      }
      double px = f.px(i + 1);
      double py = f.py(v);
      path.append(path.length() == 0 ? "M" : " L")
          .append(String.format(Locale.ROOT, "%.1f %.1f", px, py));
      out.append(String.format(Locale.ROOT, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\""
          + " fill=\"%s\"><title>%s, %d: %.2f</title></circle>%n", px, py, POINT_COLOUR,
          Svg.escape(p.label()), i + 1, v));
    }
    if (path.length() > 0) {
      out.append(String.format(Locale.ROOT, "<path d=\"%s\" fill=\"none\" stroke=\"%s\""
          + " stroke-width=\"1.5\"/>%n", path, POINT_COLOUR));
    }
  }

  private static String dashed(double x1, double y1, double x2, double y2) {
    return Svg.dashedLine(x1, y1, x2, y2, TARGET_COLOUR, 1.5);
  }
}
