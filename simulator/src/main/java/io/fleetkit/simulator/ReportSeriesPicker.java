package io.fleetkit.simulator;

import java.util.List;

/**
 * The HTML report's choice of lines for a crowded chart: one with more series than it draws at once
 * ({@link HtmlReport#MAX_LINES_PER_CHART}), such as the per-workload chart of a run with a hundred Deployments.
 *
 * <p>Such a chart holds up to {@link #MAX_SERIES_IN_PAGE} series as lines in its SVG, all on one axis; the first
 * {@link HtmlReport#MAX_LINES_PER_CHART} are drawn and the rest hidden. Under its legend a list with a checkbox per
 * series, and a box that narrows the list by name, lets the reader draw any of them and hide any other. A line drawn
 * this way takes the first colour and dash pattern that no other drawn line of its chart has (while there is one), and
 * the legend is written again for the lines drawn. The page without its script shows the first lines and their legend,
 * as it would without the list.
 *
 * <p>Series names are written as HTML-escaped text; the script reads them back as text ({@code textContent}), so
 * nothing from the run becomes markup. Stateless; thread-safe.
 */
final class ReportSeriesPicker {
  /**
   * A chart holds at most this many series in the page: the per-workload lines of 200 workloads. The rest are in the
   * JSON output, and the chart says how many.
   */
  static final int MAX_SERIES_IN_PAGE = 400;

  private ReportSeriesPicker() {}

  /**
   * The list for a chart that holds {@code labels.size()} series in the page, of which the first {@code drawn} are
   * drawn; {@code labels} are the series' legend texts, unescaped.
   */
  static void list(StringBuilder sb, List<String> labels, int drawn) {
    sb.append("<details class=\"pick\"><summary>").append(summary(drawn, labels.size())).append("</summary>\n")
        .append("<input class=\"pick-filter\" type=\"search\" placeholder=\"Series name contains\" ")
        .append("aria-label=\"Series name contains\">\n<div class=\"pick-list\">");
    for (int k = 0; k < labels.size(); k++) {
      sb.append("<label><input type=\"checkbox\" value=\"").append(k).append('"').append(k < drawn ? " checked" : "")
          .append('>').append(HtmlReport.esc(labels.get(k))).append("</label>");
    }
    sb.append("</div>\n</details>\n");
  }

  /** The list's summary line: how many of the chart's series are drawn. */
  static String summary(int drawn, int series) {
    return "Pick the lines: " + drawn + " of " + series + " series drawn";
  }

  /** The list's style rules. */
  static void style(StringBuilder sb) {
    sb.append("polyline.off{display:none}details.pick{font-size:.85em;margin-top:4px}")
        .append("details.pick summary{cursor:pointer;color:#555}")
        .append(".pick-list{max-height:240px;overflow:auto;columns:3 220px;margin-top:4px}")
        .append(".pick-list label{display:block;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}")
        .append(".pick-list input{margin:0 4px 0 0;padding:0;width:auto}.pick-list label[hidden]{display:none}")
        .append("input.pick-filter{width:40%}\n");
  }

  /**
   * The code that draws and hides lines from each chart's list; {@code colors} and {@code dashes} are the charts'
   * line styles, style {@code s} being colour {@code s % colors} with dash pattern {@code s / colors % dashes}, as
   * {@link HtmlReport#color} and {@link HtmlReport#dash} give them.
   */
  static void script(StringBuilder sb, List<String> colors, List<String> dashes) {
    sb.append("var COLORS=");
    strings(sb, colors);
    sb.append(",DASHES=");
    strings(sb, dashes);
    sb.append(";\n")
        .append("Array.prototype.forEach.call(document.querySelectorAll('details.pick'),function(d){\n")
        .append("var fig=d.parentNode,lines=fig.querySelectorAll('polyline.series'),")
        .append("legend=fig.querySelector('.legend'),boxes=d.querySelectorAll('.pick-list input'),")
        .append("sum=d.querySelector('summary'),total=boxes.length,styles=COLORS.length*DASHES.length;\n")
        .append("function round(s){return Math.floor(s/COLORS.length)%DASHES.length;}\n")
        // the zoom fits a zoomed chart's y axis to the lines it draws (ReportZoom)
        .append("function drawn(){document.dispatchEvent(new CustomEvent('fleetkit:lines'));}\n")
        .append("function restyle(line,s){line.setAttribute('data-style',String(s));")
        .append("line.setAttribute('stroke',COLORS[s%COLORS.length]);var dash=DASHES[round(s)];")
        .append("if(dash){line.setAttribute('stroke-dasharray',dash);}")
        .append("else{line.removeAttribute('stroke-dasharray');}}\n")
        .append("function relegend(){legend.textContent='';var n=0;for(var k=0;k<total;k++){if(!boxes[k].checked){")
        .append("continue;}n++;var s=Number(lines[k].getAttribute('data-style')),span=document.createElement('span');")
        .append("if(round(s)){span.className='d'+round(s);}span.style.setProperty('--c',COLORS[s%COLORS.length]);")
        .append("span.textContent=boxes[k].parentNode.textContent;legend.appendChild(span);}")
        .append("sum.textContent='Pick the lines: '+n+' of '+total+' series drawn';}\n")
        .append("d.addEventListener('change',function(e){var k=Number(e.target.value),line=lines[k];")
        .append("if(!e.target.checked){line.classList.add('off');relegend();drawn();return;}var used={};")
        .append("for(var j=0;j<total;j++){if(j!==k&&boxes[j].checked){used[lines[j].getAttribute('data-style')]=1;}}")
        .append("var s=0;while(s<styles&&used[s]){s++;}restyle(line,s<styles?s:k%styles);")
        .append("line.classList.remove('off');relegend();drawn();});\n")
        .append("d.querySelector('.pick-filter').addEventListener('input',function(e){")
        .append("var q=e.target.value.trim().toLowerCase();for(var k=0;k<total;k++){var label=boxes[k].parentNode;")
        .append("label.hidden=q!==''&&label.textContent.toLowerCase().indexOf(q)<0;}});\n")
        .append("});\n");
  }

  private static void strings(StringBuilder sb, List<String> values) {
    sb.append('[');
    for (int i = 0; i < values.size(); i++) {
      sb.append(i == 0 ? "" : ",");
      ReportEventTable.json(sb, values.get(i));
    }
    sb.append(']');
  }
}
