package io.fleetkit.simulator;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The HTML report's event table: every timeline event, filterable by object, event kind or message, listed a page at
 * a time.
 *
 * <p>The events go into the page as data, not as table rows: a 1,000-node day with pod events has some 140,000 of
 * them, more than a browser lays out as a table. The data is one JSON object in a script element of its own
 * ({@code type="application/json"}, which the page's script reads with {@code JSON.parse}: a browser reads a large
 * JSON text faster than the same data as a script's literal): the distinct times (also in seconds), kinds, objects
 * and messages each once, then four numbers per event (its time, kind, object and message by index; a 5,000-node
 * day's 886,504 events have 19,600 distinct messages, which written with each event were half of its 44 MB page).
 * The script lists the events whose object, kind or message contains the filter's text, ignoring case (all of them
 * while it is empty; a node's name finds the pods placed on it, as their messages name it), in time order, the first
 * {@link #PAGE_ROWS}, and a button adds the next page. Every string from the run is written as a JSON string with
 * {@code <}, {@code >}, {@code &} and the line and paragraph separators as {@code \}{@code u} escapes, so nothing in
 * it can close the script element, and the script puts it into the table as text (DOM {@code textContent}), so
 * nothing in it becomes markup. A click on an event's time zooms the charts to a twelfth of the run about it
 * ({@link ReportZoom}), from the seconds of each distinct time.
 *
 * <p>Stateless; thread-safe.
 */
final class ReportEventTable {
  /** The table lists this many of the matching events, then a button adds as many more. */
  static final int PAGE_ROWS = 1_000;

  private ReportEventTable() {}

  /** The table's section: the filter, the count of matching events, the empty table and the button. */
  static void section(StringBuilder sb, int events) {
    sb.append("<section id=\"events\">\n<h2>Events</h2>\n<p><label for=\"filter\">Filter by object, event or ")
        .append("message: </label><input id=\"filter\" type=\"search\" ")
        .append("placeholder=\"e.g. Node/, web, ScaleDown or exit code\"> ")
        .append("<span id=\"shown\">")
        .append(events).append("</span> of ").append(events).append(" events match; the table lists them in time")
        .append(" order, ").append(PAGE_ROWS).append(" at a time. Click an event's time to zoom the charts")
        .append(" to it.</p>\n")
        .append("<noscript><p>The event table needs JavaScript; the same events are in the command's table and JSON")
        .append(" output.</p></noscript>\n")
        .append("<table id=\"event-table\">\n<thead><tr><th title=\"Click an event's time to zoom the charts to it\">")
        .append("Time</th><th>Event</th><th>Object</th>")
        .append("<th>Message</th></tr></thead>\n<tbody></tbody>\n</table>\n")
        .append("<p><button id=\"more\" type=\"button\" hidden></button></p>\n</section>\n");
  }

  /** The element that holds the table's data for {@code events}, before the page's script. */
  static void data(StringBuilder sb, List<TimelineEvent> events) {
    Strings times = new Strings();
    StringBuilder seconds = new StringBuilder();
    Strings kinds = new Strings();
    Strings objects = new Strings();
    Strings messages = new Strings();
    StringBuilder rows = new StringBuilder(events.size() * 48);
    for (TimelineEvent e : events) {
      int known = times.list.size();
      int time = times.index(HtmlReport.clock(e.at()));
      if (times.list.size() > known) { // a time not seen before: its seconds, for the zoom to it
        seconds.append(known == 0 ? "" : ",").append(e.at().toSeconds());
      }
      rows.append(rows.length() == 0 ? "" : ",").append(time).append(',')
          .append(kinds.index(e.kind())).append(',').append(objects.index(e.object())).append(',')
          .append(messages.index(e.message()));
    }
    sb.append("<script type=\"application/json\" id=\"event-data\">{\"t\":");
    times.append(sb);
    sb.append(",\n\"s\":[").append(seconds).append("]");
    sb.append(",\n\"k\":");
    kinds.append(sb);
    sb.append(",\n\"m\":[");
    for (int i = 0; i < kinds.list.size(); i++) {
      sb.append(i == 0 ? "" : ",").append(ClusterSimulation.MARKER_KINDS.contains(kinds.list.get(i)) ? 1 : 0);
    }
    sb.append("],\n\"o\":");
    objects.append(sb);
    sb.append(",\n\"g\":");
    messages.append(sb);
    sb.append(",\n\"r\":[").append(rows).append("]}</script>\n");
  }

  /**
   * The script that fills the table from the data ({@link #data}). A link ending in {@code #filter=TEXT} opens with
   * the filter set.
   */
  static void script(StringBuilder sb) {
    sb.append("var D=JSON.parse(document.getElementById('event-data').textContent);\n");
    sb.append("var PAGE=").append(PAGE_ROWS).append(";\n")
        .append("var f=document.getElementById('filter'),n=document.getElementById('shown'),")
        .append("body=document.querySelector('#event-table tbody'),more=document.getElementById('more');\n")
        .append("function low(s){return s.toLowerCase();}")
        .append("var lower=D.o.map(low),lowerKinds=D.k.map(low),lowerMessages=D.g.map(low),hits=[],at=0;\n")
        .append("function cell(tr,text){var td=document.createElement('td');td.textContent=text;tr.appendChild(td);}\n")
        .append("function row(i){var tr=document.createElement('tr'),k=D.r[i+1],o=D.o[D.r[i+2]];")
        .append("if(D.m[k]){tr.className='marker';}tr.setAttribute('data-object',o);tr.fkRow=i;")
        .append("cell(tr,D.t[D.r[i]]);cell(tr,D.k[k]);cell(tr,o);cell(tr,D.g[D.r[i+3]]);return tr;}\n")
        .append("function page(){var end=Math.min(hits.length,at+PAGE),rows=document.createDocumentFragment();")
        .append("for(;at<end;at++){rows.appendChild(row(hits[at]));}body.appendChild(rows);var left=hits.length-at;")
        .append("more.hidden=left===0;more.textContent='Show '+Math.min(PAGE,left)+' more ('+left+' not listed)';}\n")
        .append("function apply(){var q=f.value.trim().toLowerCase();function has(s){return q===''||s.indexOf(q)>=0;}")
        .append("var hit=lower.map(has),hitKind=lowerKinds.map(has),hitMessage=lowerMessages.map(has);hits=[];")
        .append("for(var i=0;i<D.r.length;i+=4){if(hit[D.r[i+2]]||hitKind[D.r[i+1]]||hitMessage[D.r[i+3]]){")
        .append("hits.push(i);}}n.textContent=String(hits.length);")
        .append("body.textContent='';at=0;page();}\n")
        .append("var h=location.hash;if(h.indexOf('#filter=')===0){f.value=decodeURIComponent(h.substring(8));}\n")
        .append("f.addEventListener('input',apply);more.addEventListener('click',page);apply();\n")
        // a click on an event's time asks the charts to zoom to it (ReportZoom)
        .append("body.addEventListener('click',function(e){var td=e.target.closest('td');")
        .append("if(!td||td.cellIndex!==0){return;}document.dispatchEvent(new CustomEvent('fleetkit:zoom-at',")
        .append("{detail:D.s[D.r[td.parentNode.fkRow]]}));});\n");
  }

  /**
   * Appends {@code s} as a JSON string that is also safe inside an HTML script element: quotes, backslashes and
   * control characters escaped as JSON requires, and {@code <}, {@code >}, {@code &}, U+2028 and U+2029 as
   * {@code \}{@code u} escapes.
   */
  static void json(StringBuilder sb, String s) {
    sb.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> sb.append("\\\"");
        case '\\' -> sb.append("\\\\");
        case '\n' -> sb.append("\\n");
        case '\t' -> sb.append("\\t");
        case '\r' -> sb.append("\\r");
        default -> {
          if (c < 0x20 || c == '<' || c == '>' || c == '&' || c == '\u2028' || c == '\u2029') {
            sb.append("\\u").append(String.format(Locale.ROOT, "%04x", (int) c));
          } else {
            sb.append(c);
          }
        }
      }
    }
    sb.append('"');
  }

  /** Distinct strings in order of first use, each with its index. */
  private static final class Strings {
    final List<String> list = new ArrayList<>();
    final Map<String, Integer> index = new HashMap<>();

    int index(String s) {
      Integer i = index.get(s);
      if (i == null) {
        i = list.size();
        index.put(s, i);
        list.add(s);
      }
      return i;
    }

    void append(StringBuilder sb) {
      sb.append('[');
      for (int i = 0; i < list.size(); i++) {
        if (i > 0) {
          sb.append(',');
        }
        json(sb, list.get(i));
      }
      sb.append(']');
    }
  }
}
