package io.fleetkit.cli;

import static io.fleetkit.simulator.HtmlReport.esc;

import io.fleetkit.lab.gpu.ReplayResult;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The HTML page of {@code fleetkit trace openb --report FILE}: the GPU allocation ratio against the arrived GPU
 * demand (0-130% of the cluster's GPUs) for every policy on one inline SVG chart, with the provable upper bound
 * ({@code AllocationBound}) as a dashed line, as the FGD paper's figure; then the same as a table. Self-contained (no
 * script, no network) and every text escaped.
 */
final class OpenbReport {
  private static final int W = 900;
  private static final int H = 420;
  private static final int LEFT = 60;
  private static final int RIGHT = 160;
  private static final int TOP = 20;
  private static final int BOTTOM = 50;
  private static final String[] COLORS = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b",
      "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};

  private OpenbReport() {}

  /**
   * @param trace the pod list's name
   * @param results one replay per policy, same seed and inflation
   * @param bound the upper bound (%) per arrival percentage where it was computed
   */
  static String render(String trace, long seed, double inflate, List<ReplayResult> results,
      Map<Integer, Double> bound) {
    StringBuilder sb = new StringBuilder();
    sb.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>openb ")
        .append(esc(trace)).append(": GPU allocation by policy</title>\n<style>\n")
        .append("body{font:14px/1.4 system-ui,sans-serif;margin:1.5em auto;max-width:960px;color:#222}\n")
        .append("svg{width:100%;height:auto;background:#fff;border:1px solid #ddd}\n")
        .append("table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:2px 8px;text-align:right}\n")
        .append("</style></head><body>\n<h1>openb trace <code>").append(esc(trace))
        .append("</code>: GPU allocation against arrived demand</h1>\n<p>Seed ").append(seed)
        .append(", arrivals until ").append(fmt(inflate * 100)).append("% of the cluster's GPUs. Each line is the")
        .append(" share of GPU capacity allocated (%) when the arrived pods ask for x% of it; the dashed line is")
        .append(" the provable upper bound for any policy.</p>\n");
    int maxX = ReplayResult.MAX_PERCENT;
    sb.append("<svg class=\"chart\" viewBox=\"0 0 ").append(W).append(' ').append(H)
        .append("\" role=\"img\" aria-label=\"GPU allocation by policy\">\n");
    int pw = W - LEFT - RIGHT;
    int ph = H - TOP - BOTTOM;
    for (int y = 0; y <= 100; y += 20) {
      double py = TOP + ph - ph * y / 100.0;
      sb.append("<line x1=\"").append(LEFT).append("\" x2=\"").append(LEFT + pw).append("\" y1=\"").append(fmt(py))
          .append("\" y2=\"").append(fmt(py)).append("\" stroke=\"#eee\"/>")
          .append("<text x=\"").append(LEFT - 6).append("\" y=\"").append(fmt(py + 4))
          .append("\" text-anchor=\"end\" font-size=\"11\">").append(y).append("%</text>\n");
    }
    for (int x = 0; x <= maxX; x += 10) {
      double px = LEFT + pw * x / (double) maxX;
      sb.append("<text x=\"").append(fmt(px)).append("\" y=\"").append(TOP + ph + 16)
          .append("\" text-anchor=\"middle\" font-size=\"11\">").append(x).append("</text>\n");
    }
    sb.append("<text x=\"").append(LEFT + pw / 2).append("\" y=\"").append(H - 8)
        .append("\" text-anchor=\"middle\" font-size=\"12\">arrived GPU demand (% of capacity)</text>\n");
    int i = 0;
    for (ReplayResult r : results) {
      String color = COLORS[i % COLORS.length];
      double[] a = r.allocation();
      StringBuilder pts = new StringBuilder();
      for (int x = 0; x < a.length; x++) {
        if (!Double.isNaN(a[x])) {
          pts.append(fmt(LEFT + pw * x / (double) maxX)).append(',').append(fmt(TOP + ph - ph * a[x] / 100.0))
              .append(' ');
        }
      }
      sb.append("<polyline class=\"series\" data-name=\"").append(esc(r.policy())).append("\" fill=\"none\" stroke=\"")
          .append(color).append("\" stroke-width=\"1.5\" points=\"").append(pts.toString().strip()).append("\"/>\n");
      sb.append("<text x=\"").append(LEFT + pw + 8).append("\" y=\"").append(TOP + 14 + 16 * i)
          .append("\" font-size=\"12\" fill=\"").append(color).append("\">").append(esc(r.policy())).append(' ')
          .append(fmt(r.finalAllocation())).append("%</text>\n");
      i++;
    }
    if (!bound.isEmpty()) {
      StringBuilder pts = new StringBuilder();
      bound.forEach((x, v) -> pts.append(fmt(LEFT + pw * x / (double) maxX)).append(',')
          .append(fmt(TOP + ph - ph * v / 100.0)).append(' '));
      sb.append("<polyline class=\"bound\" fill=\"none\" stroke=\"#000\" stroke-dasharray=\"5 4\" points=\"")
          .append(pts.toString().strip()).append("\"/>\n<text x=\"").append(LEFT + pw + 8).append("\" y=\"")
          .append(TOP + 14 + 16 * i).append("\" font-size=\"12\">bound (dashed)</text>\n");
    }
    sb.append("</svg>\n<h2>Allocation (%) at each 10% of arrived demand</h2>\n<table><tr><th>policy</th>");
    for (int x = 10; x <= maxX; x += 10) {
      sb.append("<th>").append(x).append("%</th>");
    }
    sb.append("<th>final</th></tr>\n");
    for (ReplayResult r : results) {
      sb.append("<tr><th>").append(esc(r.policy())).append("</th>");
      for (int x = 10; x <= maxX; x += 10) {
        double v = r.allocationAt(x);
        sb.append("<td>").append(Double.isNaN(v) ? "" : fmt(v)).append("</td>");
      }
      sb.append("<td>").append(fmt(r.finalAllocation())).append("</td></tr>\n");
    }
    if (!bound.isEmpty()) {
      sb.append("<tr><th>bound</th>");
      for (int x = 10; x <= maxX; x += 10) {
        Double v = bound.get(x);
        sb.append("<td>").append(v == null ? "" : fmt(v)).append("</td>");
      }
      sb.append("<td></td></tr>\n");
    }
    sb.append("</table>\n</body></html>\n");
    return sb.toString();
  }

  private static String fmt(double v) {
    return String.format(Locale.ROOT, "%.2f", v);
  }
}
