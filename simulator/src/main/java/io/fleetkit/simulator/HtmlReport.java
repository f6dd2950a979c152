package io.fleetkit.simulator;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * Renders a {@link SimulationRun} as one self-contained HTML page: a summary with the worst moments, one inline SVG
 * chart per chart group with the faults and scaling decisions marked on the time axis, a readout of the values
 * under the pointer ({@link ReportReadout}) and, on a crowded one, a list to pick its lines from
 * ({@link ReportSeriesPicker}), and a table of every event with a filter by object, event kind or message, listed
 * 1,000 at a time (a link ending in {@code #filter=TEXT} opens with the filter set; {@link ReportEventTable}). No
 * network access is needed to open it (no external script, style, font or image). Every text taken from the run is
 * escaped: HTML-escaped in the page, and written as JSON strings that cannot end the script element in the event
 * table's data. Same run, same bytes. Stateless; thread-safe.
 */
public final class HtmlReport {
  /**
   * At most this many series are drawn in one chart at once; a chart of more lists them all for the reader to pick
   * from ({@link ReportSeriesPicker}).
   */
  public static final int MAX_LINES_PER_CHART = 12;

  private static final int W = 880;
  private static final int H = 260;
  private static final int LEFT = 64;
  private static final int RIGHT = 16;
  private static final int TOP = 16;
  private static final int BOTTOM = 36;
  /**
   * Eight colours that read apart on white (the first eight of Tableau 10; its last two and the darker ones after
   * them look like the blue and green again). A chart's series {@code k} takes colour {@code k % 8} and dash pattern
   * {@code k / 8}: every line a chart draws has its own colour and pattern.
   */
  private static final String[] COLORS = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b",
      "#e377c2", "#7f7f7f"};
  /** Solid, dashed, dotted, dash-dot: the {@code stroke-dasharray} of each round of the colours. */
  private static final String[] DASHES = {"", "8 4", "2 3", "8 3 2 3"};

  private HtmlReport() {}

  /** The page for {@code run}. */
  public static String render(SimulationRun run) {
    return render(run, null);
  }

  /**
   * The page for {@code comparison.run()} with, after the summary, the comparison with {@code comparison.other()}:
   * a table of both runs' figures and one chart per overlaid series (both runs' lines).
   */
  public static String render(RunComparison comparison) {
    return render(comparison.run(), comparison);
  }

  private static String render(SimulationRun run, @Nullable RunComparison comparison) {
    StringBuilder sb = new StringBuilder(64 * 1024);
    sb.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
        .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
        .append("<title>FleetKit simulation: ").append(esc(run.scenario())).append("</title>\n<style>\n")
        .append("body{font-family:system-ui,-apple-system,'Segoe UI',sans-serif;margin:0 auto;max-width:960px;"
            + "padding:16px;color:#222}\n")
        .append("h1{font-size:1.5em}h2{font-size:1.2em;margin-top:1.6em}\n")
        .append(".meta{color:#555}figure{margin:16px 0}figcaption{font-weight:600;margin-bottom:4px}\n")
        .append("svg{width:100%;height:auto;background:#fff;border:1px solid #ddd}\n")
        .append(".legend{display:flex;flex-wrap:wrap;gap:4px 16px;font-size:.85em;margin-top:4px}\n")
        .append(".legend span::before,.readout span::before{content:'';display:inline-block;width:18px;height:3px;"
            + "margin-right:4px;vertical-align:middle;background:var(--c)}\n")
        // the swatches of dashed, dotted and dash-dot lines (legend and readout), as the lines' stroke-dasharray
        // draws them
        .append(".legend span.d1::before,.readout span.d1::before{background:repeating-linear-gradient(90deg,"
            + "var(--c) 0 6px,transparent 6px 9px)}\n")
        .append(".legend span.d2::before,.readout span.d2::before{background:repeating-linear-gradient(90deg,"
            + "var(--c) 0 2px,transparent 2px 4px)}\n")
        .append(".legend span.d3::before,.readout span.d3::before{background:repeating-linear-gradient(90deg,"
            + "var(--c) 0 6px,transparent 6px 8px,var(--c) 8px 10px,transparent 10px 12px)}\n")
        .append("table{border-collapse:collapse;width:100%;font-size:.85em}th,td{text-align:left;padding:2px 6px;"
            + "border-bottom:1px solid #eee;vertical-align:top}\n")
        .append("tr.marker td{background:#fff4e5}input{font-size:1em;padding:4px;width:60%}\n");
    ReportSeriesPicker.style(sb);
    ReportReadout.style(sb);
    ReportZoom.style(sb);
    sb.append("</style>\n</head>\n<body>\n");
    sb.append("<h1>Simulation ").append(esc(run.scenario())).append("</h1>\n");
    sb.append("<p class=\"meta\">").append(esc(clock(run.duration()))).append(" simulated, seed ").append(run.seed())
        .append(", ").append(run.sampleTimes().size()).append(" samples, ").append(run.timeline().size())
        .append(" events</p>\n");
    ReportSummary.append(sb, run);
    if (comparison != null) {
      comparison(sb, comparison);
    }
    sb.append("<section id=\"charts\">\n<h2>Charts</h2>\n<p class=\"meta\">Faults are red dashed lines across each "
        + "chart, recoveries green; scaling decisions are grey ticks under the time axis. Hover over one for what "
        + "happened. A chart of more than " + MAX_LINES_PER_CHART + " series draws the first " + MAX_LINES_PER_CHART
        + " (per workload, those that fell short first); pick others from the list under it. Point at a chart for "
        + "its values; drag across one to zoom every chart to that time, double-click to see the whole run (from the "
        + "keyboard: Tab to a chart, then the arrows, Home, End, + and -, 0 for the whole run).</p>\n");
    ReportZoom.bar(sb);
    for (String chart : run.charts()) {
      chart(sb, run, chart, run.series().stream().filter(s -> s.chart().equals(chart)).toList());
    }
    sb.append("</section>\n");
    ReportEventTable.section(sb, run.timeline().size());
    // the page's one script: each part in a function of its own, so that none sees another's names
    ReportEventTable.data(sb, run.timeline());
    sb.append("<script>\n(function(){\n");
    ReportEventTable.script(sb);
    sb.append("})();\n(function(){\n");
    ReportSeriesPicker.script(sb, List.of(COLORS), List.of(DASHES));
    sb.append("})();\n(function(){\n");
    ReportReadout.script(sb, run.sampleTimes(), LEFT, W - RIGHT, COLORS.length, DASHES.length);
    sb.append("})();\n(function(){\n");
    ReportZoom.script(sb, LEFT, W - LEFT - RIGHT, Math.max(1, run.duration().toMillis()), TOP, H - BOTTOM);
    sb.append("})();\n</script>\n</body>\n</html>\n");
    return sb.toString();
  }

  private static void comparison(StringBuilder sb, RunComparison c) {
    sb.append("<section id=\"comparison\">\n<h2>").append(esc(c.label())).append(" compared with ")
        .append(esc(c.otherLabel())).append("</h2>\n<table id=\"comparison-table\">\n<thead><tr><th>Figure</th><th>")
        .append(esc(c.label())).append("</th><th>").append(esc(c.otherLabel())).append("</th></tr></thead>\n<tbody>\n");
    for (RunComparison.Row r : c.rows()) {
      sb.append("<tr><td>").append(esc(r.figure())).append("</td><td>").append(num(r.value())).append(' ')
          .append(esc(r.unit())).append("</td><td>").append(num(r.otherValue())).append(' ').append(esc(r.unit()))
          .append("</td></tr>\n");
    }
    sb.append("</tbody>\n</table>\n");
    for (List<TimeSeries> pair : c.overlays()) {
      chart(sb, c.run(), pair.get(0).chart(), pair);
    }
    sb.append("</section>\n");
  }

  private static void chart(StringBuilder sb, SimulationRun run, String chart, List<TimeSeries> all) {
    List<TimeSeries> inPage = all.subList(0, Math.min(all.size(), ReportSeriesPicker.MAX_SERIES_IN_PAGE));
    List<TimeSeries> drawn = inPage.subList(0, Math.min(inPage.size(), MAX_LINES_PER_CHART));
    // one axis for every series in the page, so that a line picked from the list fits it
    double max = 0;
    boolean whole = true;
    for (TimeSeries s : inPage) {
      max = Math.max(max, s.max());
      for (double v : s.values()) {
        whole &= v == Math.rint(v);
      }
    }
    Axis axis = Axis.of(max, whole);
    double top = axis.top();
    long span = Math.max(1, run.duration().toMillis());
    int plotW = W - LEFT - RIGHT;
    int plotH = H - TOP - BOTTOM;
    // one axis for the chart's series; when they are in different units (cost per hour and cumulative cost), the
    // caption names each and so does every legend entry
    List<String> units = inPage.stream().map(TimeSeries::unit).distinct().toList();
    String unit = String.join(", ", units);
    sb.append("<figure class=\"chart\" data-chart=\"").append(esc(chart)).append("\">\n<figcaption>")
        .append(esc(chart)).append(" (").append(esc(unit)).append(")</figcaption>\n")
        .append("<svg viewBox=\"0 0 ").append(W).append(' ').append(H)
        .append("\" role=\"img\" tabindex=\"0\" aria-label=\"").append(esc(chart)).append("\">\n");
    // grid and y labels
    for (int g = 0; g <= axis.intervals(); g++) {
      double y = TOP + plotH - plotH * g / (double) axis.intervals();
      sb.append("<line class=\"ygrid\" x1=\"").append(LEFT).append("\" x2=\"").append(W - RIGHT).append("\" y1=\"")
          .append(fmt(y)).append("\" y2=\"").append(fmt(y)).append("\" stroke=\"#eee\"/>")
          .append("<text class=\"ylabel\" x=\"").append(LEFT - 6).append("\" y=\"").append(fmt(y + 4))
          .append("\" font-size=\"11\" text-anchor=\"end\" fill=\"#555\">").append(num(axis.tick(g)))
          .append("</text>\n");
    }
    // x labels
    for (int g = 0; g <= 6; g++) {
      double x = LEFT + plotW * g / 6.0;
      sb.append("<text class=\"xlabel\" x=\"").append(fmt(x)).append("\" y=\"").append(H - BOTTOM + 16)
          .append("\" font-size=\"11\" text-anchor=\"middle\" fill=\"#555\">")
          .append(esc(clock(Duration.ofMillis(span * g / 6)))).append("</text>\n");
    }
    sb.append("<line x1=\"").append(LEFT).append("\" x2=\"").append(W - RIGHT).append("\" y1=\"").append(TOP + plotH)
        .append("\" y2=\"").append(TOP + plotH).append("\" stroke=\"#888\"/>\n");
    // what is drawn against time, in a view of the plot's columns that zooming narrows (ReportZoom)
    ReportZoom.openPlot(sb, LEFT, plotW, H);
    // faults red and recoveries green, as dashed lines across the plot; scaling decisions as grey ticks under the
    // time axis, one per pixel column: a day with hundreds of them would otherwise cover the plot
    List<TimelineEvent> column = new ArrayList<>();
    long columnX = 0;
    for (TimelineEvent e : run.markers()) {
      double x = LEFT + plotW * (double) Math.min(span, e.at().toMillis()) / span;
      boolean fault = ClusterSimulation.FAULT_KINDS.contains(e.kind());
      if (fault || ClusterSimulation.RECOVERY_KINDS.contains(e.kind())) {
        sb.append("<line class=\"marker\" data-kind=\"").append(esc(e.kind())).append("\" x1=\"").append(fmt(x))
            .append("\" x2=\"").append(fmt(x)).append("\" y1=\"").append(TOP).append("\" y2=\"").append(TOP + plotH)
            .append("\" stroke=\"").append(fault ? "#d62728" : "#2ca02c").append("\" stroke-dasharray=\"3 3\"><title>")
            .append(esc(clock(e.at()) + " " + e.kind() + " " + e.object() + " " + e.message()))
            .append("</title></line>\n");
        continue;
      }
      long px = Math.round(x);
      if (px != columnX && !column.isEmpty()) {
        scalingTick(sb, columnX, column);
        column.clear();
      }
      columnX = px;
      column.add(e);
    }
    if (!column.isEmpty()) {
      scalingTick(sb, columnX, column);
    }
    ReportZoom.openLines(sb, top, whole);
    for (int k = 0; k < inPage.size(); k++) {
      TimeSeries s = inPage.get(k);
      int[] kept = kept(run.sampleTimes(), s.values(), span);
      sb.append(k < drawn.size() ? "<polyline class=\"series\"" : "<polyline class=\"series off\"")
          .append(" data-series=\"").append(esc(s.name())).append("\" data-points=\"").append(s.values().size())
          .append("\" data-style=\"").append(k).append("\" data-unit=\"").append(esc(s.unit())).append('"');
      ReportReadout.values(sb, s.values(), kept);
      sb.append(" fill=\"none\" stroke-width=\"1.6\" stroke=\"").append(color(k))
          .append(dash(k).isEmpty() ? "" : "\" stroke-dasharray=\"" + dash(k)).append("\" points=\"");
      points(sb, run.sampleTimes(), s.values(), kept, span, top);
      sb.append("\"><title>").append(esc(s.name())).append("</title></polyline>\n");
    }
    sb.append("</g>\n");
    List<String> labels = inPage.stream().map(s -> s.name() + (units.size() > 1 ? " (" + s.unit() + ")" : ""))
        .toList();
    ReportReadout.guide(sb, TOP, TOP + plotH);
    ReportZoom.closePlot(sb, TOP, plotH);
    sb.append("</svg>\n<div class=\"legend\">");
    for (int k = 0; k < drawn.size(); k++) {
      int round = k / COLORS.length % DASHES.length;
      sb.append("<span").append(round == 0 ? "" : " class=\"d" + round + "\"").append(" style=\"--c:").append(color(k))
          .append("\">").append(esc(labels.get(k))).append("</span>");
    }
    sb.append("</div>\n");
    if (inPage.size() > drawn.size()) {
      ReportSeriesPicker.list(sb, labels, drawn.size());
    }
    if (all.size() > inPage.size()) {
      sb.append("<p class=\"meta\">").append(all.size() - inPage.size())
          .append(" more series in the JSON output</p>\n");
    }
    sb.append("</figure>\n");
  }

  /** Scaling decisions a tick's tooltip names; it counts the rest. */
  static final int MAX_TICK_EVENTS = 5;

  /**
   * One tick under the time axis at {@code x} for the scaling decisions of one pixel column ({@code events}, in time
   * order): its tooltip names the first {@link #MAX_TICK_EVENTS} and counts the rest.
   */
  private static void scalingTick(StringBuilder sb, long x, List<TimelineEvent> events) {
    int y = H - BOTTOM;
    sb.append("<line class=\"marker\" data-kind=\"").append(esc(events.get(0).kind())).append("\" data-count=\"")
        .append(events.size()).append("\" x1=\"").append(x).append("\" x2=\"").append(x).append("\" y1=\"")
        .append(y + 1).append("\" y2=\"").append(y + 7).append("\" stroke=\"#777\" stroke-width=\"2\"><title>");
    List<String> lines = new ArrayList<>();
    for (TimelineEvent e : events.subList(0, Math.min(events.size(), MAX_TICK_EVENTS))) {
      lines.add(clock(e.at()) + " " + e.kind() + " " + e.object() + " " + e.message());
    }
    if (events.size() > MAX_TICK_EVENTS) {
      lines.add("and " + (events.size() - MAX_TICK_EVENTS) + " more");
    }
    sb.append(esc(String.join("\n", lines))).append("</title></line>\n");
  }

  /** Columns per unit of the charts' width that a long series is reduced to (a screen at twice the width loses none). */
  private static final int COLUMNS_PER_UNIT = 2;

  /**
   * A series' polyline points. A series with more samples than four per column of {@link #COLUMNS_PER_UNIT} is drawn
   * from the first, lowest, highest and last sample of each column, in time order (the M4 reduction: the line
   * rasterises as the full one does, every peak kept); a shorter one from every sample.
   */
  static void points(StringBuilder sb, List<Duration> times, List<Double> values, long span, double top) {
    points(sb, times, values, kept(times, values, span), span, top);
  }

  /** The polyline points of the samples {@code kept} ({@link #kept}). */
  private static void points(StringBuilder sb, List<Duration> times, List<Double> values, int[] kept, long span,
      double top) {
    int plotW = W - LEFT - RIGHT;
    int plotH = H - TOP - BOTTOM;
    for (int j = 0; j < kept.length; j++) {
      int i = kept[j];
      double x = LEFT + plotW * (double) times.get(i).toMillis() / span;
      double y = TOP + plotH - (top == 0 ? 0 : plotH * values.get(i) / top);
      sb.append(j == 0 ? "" : " ").append(fmt(x)).append(',').append(fmt(y));
    }
  }

  /**
   * The samples a series' line is drawn through, in time order: every one, or for a series with more samples than
   * four per column of {@link #COLUMNS_PER_UNIT}, the first, lowest, highest and last of each column.
   */
  static int[] kept(List<Duration> times, List<Double> values, long span) {
    int plotW = W - LEFT - RIGHT;
    int n = values.size();
    int columns = plotW * COLUMNS_PER_UNIT;
    boolean reduce = n > 4 * columns;
    int[] out = new int[reduce ? 4 * (columns + 1) : n];
    int count = 0;
    int first = 0;
    while (first < n) {
      double x0 = plotW * (double) times.get(first).toMillis() / span;
      int column = (int) Math.floor(x0 * COLUMNS_PER_UNIT);
      int end = first + 1;
      if (reduce) {
        while (end < n && (int) Math.floor(plotW * (double) times.get(end).toMillis() / span * COLUMNS_PER_UNIT)
            == column) {
          end++;
        }
      }
      int low = first;
      int high = first;
      for (int i = first + 1; i < end; i++) {
        if (values.get(i) < values.get(low)) {
          low = i;
        }
        if (values.get(i) > values.get(high)) {
          high = i;
        }
      }
      int last = end - 1;
      int[] keep = {first, Math.min(low, high), Math.max(low, high), last};
      int previous = -1;
      for (int i : keep) {
        if (i != previous) {
          if (count == out.length) {
            out = Arrays.copyOf(out, 2 * count);
          }
          out[count++] = i;
          previous = i;
        }
      }
      first = end;
    }
    return count == out.length ? out : Arrays.copyOf(out, count);
  }

  /** The colour of a chart's series {@code k}. */
  static String color(int k) {
    return COLORS[k % COLORS.length];
  }

  /** The {@code stroke-dasharray} of a chart's series {@code k} ("" for a solid line). */
  static String dash(int k) {
    return DASHES[k / COLORS.length % DASHES.length];
  }

  /** How many series a chart can draw each in its own colour and dash pattern. */
  static int distinctStyles() {
    return COLORS.length * DASHES.length;
  }

  /**
   * A chart's y axis: gridlines every {@code step} from 0 to {@code step × intervals}, the top. Of the steps 1, 2, 2.5
   * and 5 × 10^k that reach the largest value in one to five intervals, the one with the lowest top, then the most
   * gridlines; for series of whole numbers (pods, nodes, replicas) only whole steps, so no gridline reads 0.50 pods.
   */
  record Axis(double step, int intervals) {
    private static final double[] MANTISSAS = {1, 2, 2.5, 5};

    static Axis of(double max, boolean whole) {
      double v = max > 0 ? max : 1;
      Axis best = null;
      for (int k = (int) Math.floor(Math.log10(v / 5)); k <= (int) Math.floor(Math.log10(v)) + 1; k++) {
        for (double m : MANTISSAS) {
          double step = Double.parseDouble(String.format(Locale.ROOT, "%.10g", m * Math.pow(10, k)));
          if (whole && step != Math.rint(step)) {
            continue;
          }
          int intervals = (int) Math.ceil(v / step - 1e-9);
          if (intervals < 1 || intervals > 5) {
            continue;
          }
          Axis a = new Axis(step, intervals);
          if (best == null || a.top() < best.top() - 1e-9 * v
              || (Math.abs(a.top() - best.top()) <= 1e-9 * v && step < best.step())) {
            best = a;
          }
        }
      }
      return best;
    }

    double top() {
      return tick(intervals);
    }

    /** The value of gridline {@code g} (0 at the bottom), rounded so that 0.1 × 3 reads 0.3. */
    double tick(int g) {
      return Double.parseDouble(String.format(Locale.ROOT, "%.10g", g * step));
    }
  }

  private static String fmt(double v) {
    return String.format(Locale.ROOT, "%.1f", v);
  }

  static String num(double v) {
    if (v == Math.rint(v) && Math.abs(v) < 1e15) {
      return Long.toString((long) v);
    }
    return String.format(Locale.ROOT, "%.2f", v);
  }

  /** {@code d} as {@code H:MM} (with {@code :SS} when not on a whole minute), unambiguous on a day axis. */
  static String clock(Duration d) {
    long s = d.toSeconds();
    String hm = String.format(Locale.ROOT, "%d:%02d", s / 3600, s / 60 % 60);
    return s % 60 == 0 ? hm : hm + String.format(Locale.ROOT, ":%02d", s % 60);
  }

  /** HTML-escapes text for element content and double- or single-quoted attributes. */
  public static String esc(String s) {
    StringBuilder out = new StringBuilder(s.length() + 16);
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '&' -> out.append("&amp;");
        case '<' -> out.append("&lt;");
        case '>' -> out.append("&gt;");
        case '"' -> out.append("&quot;");
        case '\'' -> out.append("&#39;");
        default -> out.append(c);
      }
    }
    return out.toString();
  }
}
