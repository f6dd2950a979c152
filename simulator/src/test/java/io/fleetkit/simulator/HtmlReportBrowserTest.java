package io.fleetkit.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.adapter.kubernetes.yaml.KubernetesYaml;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.simulation.Scenario;
import io.fleetkit.api.simulation.ScenarioFeatures;
import io.fleetkit.api.simulation.ScenarioScheduler;
import io.fleetkit.api.simulation.ScenarioSpec;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Renders every example's report in real headless Chromium ({@code -Dfleetkit.chromium=/usr/bin/chromium}, set by
 * .ci/run through scripts/chromium.sh): examples/cluster and examples/batch as their scenarios run them, the
 * cluster's first hour under GPU policy GapFill compared with FGD (the comparison section), its first hour compared
 * with that of examples/what-if/aggressive-scale-down.yaml (other cluster autoscaler options, as
 * {@code fleetkit simulate examples/cluster --compare-with} runs it), and
 * examples/simulate without a scenario (as {@code fleetkit simulate DIR --report} runs plain manifests). Each page:
 * no console message at all, every chart drawn with a line per series of all the samples, and a screenshot saved as
 * {@code target/report-browser/NAME.png} for review; on the cluster's page the event table's script applies a filter
 * from the URL. A page of 12,000 events checks that the table lists one page of them and that a filter reaches the
 * last. Skipped when the property is unset; fails when it is set and the browser cannot run.
 */
final class HtmlReportBrowserTest {
  private static final Path OUT = Path.of("target", "report-browser");
  private static HeadlessChromium chromium;
  /** Per page: its file and the charts it must show, in order. */
  private static final Map<String, Page> PAGES = new LinkedHashMap<>();

  private record Page(Path file, List<String> charts, int samples) {}

  @BeforeAll
  static void renderTheExamples() throws IOException {
    chromium = HeadlessChromium.fromSystemProperty();
    Files.createDirectories(OUT);
    List<ApiObject<?>> cluster = Examples.clusterObjects();
    page("cluster", ClusterSimulation.builder().objects(cluster).podEvents(false).build().run(), null);
    List<ApiObject<?>> batch = KubernetesYaml.load(List.of(Examples.cluster().resolveSibling("batch"))).objects();
    page("batch", ClusterSimulation.builder().objects(batch).podEvents(false).build().run(), null);
    Scenario oneHour = Examples.scenario(cluster, Duration.ofHours(1));
    SimulationRun gapFill = ClusterSimulation.builder().objects(Examples.withoutScenario(cluster))
        .scenario(withGpuPolicy(oneHour, "GapFill")).podEvents(false).build().run();
    SimulationRun fgd = ClusterSimulation.builder().objects(Examples.withoutScenario(cluster))
        .scenario(withGpuPolicy(oneHour, "FGD")).podEvents(false).build().run();
    page("cluster-gpu-policies", gapFill, new RunComparison("GapFill", gapFill, "FGD", fgd));
    Scenario whatIf = KubernetesYaml.load(List.of(Examples.cluster().resolveSibling("what-if")
        .resolve("aggressive-scale-down.yaml"))).ofType(Scenario.class).get(0);
    Scenario whatIfHour = new Scenario(whatIf.metadata(), Examples.scenario(List.of(whatIf), Duration.ofHours(1))
        .spec().withClusterAutoscaler(whatIf.spec().clusterAutoscaler()));
    SimulationRun shopDay = ClusterSimulation.builder().objects(Examples.withoutScenario(cluster)).scenario(oneHour)
        .podEvents(false).build().run();
    SimulationRun aggressive = ClusterSimulation.builder().objects(Examples.withoutScenario(cluster))
        .scenario(whatIfHour).podEvents(false).build().run();
    page("cluster-what-if", shopDay, new RunComparison(oneHour.metadata().name(), shopDay, whatIf.metadata().name(),
        aggressive));
    List<ApiObject<?>> plain = KubernetesYaml.load(List.of(Examples.cluster().resolveSibling("simulate"))).objects();
    Scenario commandLine = new Scenario(ObjectMeta.builder().name("command-line").build(), new ScenarioSpec(
        Duration.ofMinutes(10), 0, Duration.ofSeconds(10), List.of(), List.of(), ScenarioFeatures.ALL));
    page("simulate", ClusterSimulation.builder().objects(plain).scenario(commandLine).build().run(), null);
  }

  private static Scenario withGpuPolicy(Scenario s, String policy) {
    return new Scenario(s.metadata(), s.spec().withScheduler(new ScenarioScheduler("default", policy)));
  }

  private static void page(String name, SimulationRun run, RunComparison comparison) throws IOException {
    List<String> charts = new ArrayList<>();
    if (comparison != null) {
      comparison.overlays().forEach(pair -> charts.add(pair.get(0).chart()));
    }
    charts.addAll(run.charts());
    Path file = OUT.resolve(name + ".html").toAbsolutePath();
    Files.writeString(file, comparison == null ? HtmlReport.render(run) : HtmlReport.render(comparison),
        StandardCharsets.UTF_8);
    PAGES.put(name, new Page(file, charts, run.sampleTimes().size()));
  }

  @Test
  void consoleDetection_seesAnErrorOnAControlPage() throws Exception {
    Path control = OUT.resolve("control.html").toAbsolutePath();
    Files.writeString(control, "<!DOCTYPE html><html><body><script>console.error('control error');"
        + "undefinedFunction();</script></body></html>");
    HeadlessChromium.Run b = chromium.run("--dump-dom", control.toUri().toString());
    assertThat(b.exit()).as(b.stderr()).isZero();
    assertThat(b.consoleLines()).as("console lines of the control page in:%n%s", b.stderr())
        .anyMatch(l -> l.contains("control error")).anyMatch(l -> l.contains("undefinedFunction"));
  }

  @ParameterizedTest
  @ValueSource(strings = {"cluster", "batch", "cluster-gpu-policies", "cluster-what-if", "simulate"})
  void report_noConsoleMessage_everyChartWithData_screenshotSaved(String name) throws Exception {
    Page page = PAGES.get(name);
    String hash = name.equals("cluster") ? "#filter=Zone%2F" : "";
    HeadlessChromium.Run b = chromium.run("--dump-dom", page.file().toUri() + hash);
    assertThat(b.exit()).as(b.stderr()).isZero();
    assertThat(b.consoleLines()).as("console messages of %s", name).isEmpty();
    String dom = b.stdout();
    Matcher figures = Pattern.compile("<figure class=\"chart\" data-chart=\"([^\"]+)\">(.*?)</figure>",
        Pattern.DOTALL).matcher(dom);
    Set<String> seen = new LinkedHashSet<>();
    while (figures.find()) {
      String chart = figures.group(1).replace("&amp;", "&");
      seen.add(chart);
      Matcher line = Pattern.compile("<polyline [^>]*points=\"([^\"]+)\"").matcher(figures.group(2));
      int lines = 0;
      while (line.find()) {
        lines++;
        assertThat(line.group(1).split(" ")).as("points of a line of chart %s", chart).hasSize(page.samples());
      }
      assertThat(lines).as("lines of chart %s", chart).isPositive();
    }
    assertThat(seen).as("charts of %s", name).containsExactlyElementsOf(page.charts());
    if (name.equals("cluster")) {
      assertThat(seen).hasSizeGreaterThanOrEqualTo(7);
      // the filter from the URL ran: only the zone events are shown
      Matcher shown = Pattern.compile("<span id=\"shown\">(\\d+)</span>").matcher(dom);
      assertThat(shown.find()).isTrue();
      assertThat(Integer.parseInt(shown.group(1))).isEqualTo(2); // ZoneFailed, ZoneRecovered
      assertThat(dom).contains("<tr class=\"marker\" data-object=\"Zone/zone-b\">");
      assertThat(tableRows(dom)).hasSize(2).allMatch(r -> r.contains("data-object=\"Zone/zone-b\""));
    }
    if (name.equals("batch")) {
      assertThat(seen).contains(SeriesRecorder.QUEUES, SeriesRecorder.QUEUE_WAIT, SeriesRecorder.JOBS,
          SeriesRecorder.GPU);
    }
    if (name.equals("cluster-gpu-policies")) {
      assertThat(dom).contains("<section id=\"comparison\">").contains("GapFill compared with FGD");
    }
    if (name.equals("cluster-what-if")) {
      assertThat(dom).contains("<section id=\"comparison\">").contains("shop-day compared with aggressive-scale-down")
          .contains("cumulative cost (aggressive-scale-down)");
    }
    Path shot = OUT.resolve(name + ".png").toAbsolutePath();
    Files.deleteIfExists(shot);
    HeadlessChromium.Run s = chromium.run("--hide-scrollbars",
        "--window-size=1280,4000", "--screenshot=" + shot, page.file().toUri().toString());
    assertThat(s.exit()).as(s.stderr()).isZero();
    assertThat(s.consoleLines()).isEmpty();
    byte[] png = Files.readAllBytes(shot);
    assertThat(png.length).isGreaterThan(20_000);
    assertThat(new String(png, 1, 3, StandardCharsets.US_ASCII)).isEqualTo("PNG");
  }

  /**
   * A run with more events than the table lists at once: it lists the first page in time order and offers the rest;
   * a filter by object, by event kind or by message finds an event far past that page (the last of 12,000: a
   * 1,000-node day has over 100,000), and text from the run shows as text.
   */
  @Test
  void eventTable_moreEventsThanAPage_listsAPage_filterReachesTheLast() throws Exception {
    List<TimelineEvent> events = new ArrayList<>();
    for (int i = 0; i < 11_999; i++) {
      events.add(new TimelineEvent(Duration.ofSeconds(i), "PodCreated", "Pod/default/p-" + i, "created"));
    }
    events.add(new TimelineEvent(Duration.ofSeconds(11_999), "NodeFailed", "Node/<late>", "fault </script> & more"));
    SimulationRun tiny = HtmlReportTest.tiny("web-1");
    SimulationRun run = new SimulationRun(tiny.scenario(), tiny.seed(), tiny.duration(), tiny.sampleTimes(),
        tiny.series(), events, List.of(events.get(events.size() - 1)), tiny.summary());
    Path file = OUT.resolve("event-table.html").toAbsolutePath();
    Files.writeString(file, HtmlReport.render(run), StandardCharsets.UTF_8);

    HeadlessChromium.Run all = chromium.run("--dump-dom", file.toUri().toString());
    assertThat(all.exit()).as(all.stderr()).isZero();
    assertThat(all.consoleLines()).isEmpty();
    List<String> rows = tableRows(all.stdout());
    assertThat(rows).hasSize(ReportEventTable.PAGE_ROWS);
    assertThat(rows.get(0)).contains("data-object=\"Pod/default/p-0\"").contains("<td>0:00</td>");
    assertThat(rows.get(rows.size() - 1)).contains("data-object=\"Pod/default/p-999\"");
    assertThat(all.stdout()).contains("<span id=\"shown\">12000</span>")
        .contains("<button id=\"more\" type=\"button\">Show 1000 more (11000 not listed)</button>");

    HeadlessChromium.Run late = chromium.run("--dump-dom", file.toUri() + "#filter=node%2F%3Clate");
    assertThat(late.exit()).as(late.stderr()).isZero();
    assertThat(late.consoleLines()).isEmpty();
    assertThat(tableRows(late.stdout())).containsExactly("<tr class=\"marker\" data-object=\"Node/&lt;late&gt;\">"
        + "<td>3:19:59</td><td>NodeFailed</td><td>Node/&lt;late&gt;</td><td>fault &lt;/script&gt; &amp; more</td></tr>");
    assertThat(late.stdout()).contains("<span id=\"shown\">1</span>").contains("<button id=\"more\" type=\"button\" "
        + "hidden=\"\">");

    // by event kind, case ignored: the one NodeFailed, whose object does not contain the text
    HeadlessChromium.Run kind = chromium.run("--dump-dom", file.toUri() + "#filter=nodefailed");
    assertThat(kind.exit()).as(kind.stderr()).isZero();
    assertThat(kind.consoleLines()).isEmpty();
    assertThat(tableRows(kind.stdout())).hasSize(1).allMatch(r -> r.contains("<td>NodeFailed</td>"));
    assertThat(kind.stdout()).contains("<span id=\"shown\">1</span>");

    // by message, case ignored: "</SCRIPT> &" is in the last event's message only
    HeadlessChromium.Run message = chromium.run("--dump-dom", file.toUri() + "#filter=%3C%2FSCRIPT%3E%20%26");
    assertThat(message.exit()).as(message.stderr()).isZero();
    assertThat(message.consoleLines()).isEmpty();
    assertThat(tableRows(message.stdout())).hasSize(1).allMatch(r -> r.contains("<td>NodeFailed</td>"));
    assertThat(message.stdout()).contains("<span id=\"shown\">1</span>");
  }

  /**
   * A crowded chart's list, used as a reader would (a script added to a copy of the page ticks and unticks boxes and
   * types a filter, then the DOM is dumped): a ticked series is drawn in a style no other drawn line has, an unticked
   * one is hidden, the legend names exactly the drawn lines, and the filter hides the other names.
   */
  @Test
  void crowdedChart_pickLines_drawsAndHides_legendFollows_filterNarrowsTheList() throws Exception {
    SimulationRun tiny = HtmlReportTest.tiny("web-1");
    List<TimeSeries> series = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      series.add(new TimeSeries("ready default/app-" + i, "Ready vs desired per workload", "replicas",
          List.of(1.0, 2.0, (double) i)));
    }
    series.add(new TimeSeries("ready default/<b>", "Ready vs desired per workload", "replicas",
        List.of(1.0, 2.0, 3.0)));
    SimulationRun run = new SimulationRun(tiny.scenario(), tiny.seed(), tiny.duration(), tiny.sampleTimes(), series,
        List.of(), List.of(), tiny.summary());
    String html = HtmlReport.render(run);
    // untick app-0 (style 0 is free again), tick app-20 (takes style 0) and app-33 (the first style after the
    // drawn 1..11: 12), then the <b> one; filter the list by "APP-3"
    String reader = "(function(){var d=document.querySelector('details.pick');"
        + "function set(k,on){var b=d.querySelectorAll('.pick-list input')[k];b.checked=on;"
        + "b.dispatchEvent(new Event('change',{bubbles:true}));}"
        + "set(0,false);set(20,true);set(33,true);set(40,true);"
        + "var f=d.querySelector('.pick-filter');f.value='APP-3';f.dispatchEvent(new Event('input',{bubbles:true}));"
        + "})();"
        // and the pointer at the last sample: the readout reads the lines drawn now
        + pointer("Ready vs desired per workload", "pointermove", 860, "mouse");
    String dom = dumpWith(html, "pick-lines.html", reader);
    Map<String, String> drawn = new LinkedHashMap<>();
    Matcher line = Pattern.compile("<polyline class=\"series\" data-series=\"([^\"]*)\"[^>]* data-style=\"(\\d+)\"")
        .matcher(dom);
    while (line.find()) {
      drawn.put(line.group(1), line.group(2));
    }
    List<String> expected = new ArrayList<>();
    for (int i = 1; i < HtmlReport.MAX_LINES_PER_CHART; i++) {
      expected.add("ready default/app-" + i);
    }
    expected.addAll(List.of("ready default/app-20", "ready default/app-33", "ready default/&lt;b&gt;"));
    assertThat(drawn.keySet()).containsExactlyElementsOf(expected);
    assertThat(drawn).containsEntry("ready default/app-20", "0").containsEntry("ready default/app-33", "12")
        .containsEntry("ready default/&lt;b&gt;", "13");
    assertThat(new java.util.HashSet<>(drawn.values())).hasSize(drawn.size());
    // the lines drawn in their new styles: app-33 is style 12, colour 12 % 8 with the second dash pattern
    Matcher app33 = Pattern.compile("<polyline class=\"series\" data-series=\"ready default/app-33\"[^>]*>")
        .matcher(dom);
    assertThat(app33.find()).isTrue();
    assertThat(app33.group()).contains(" stroke=\"" + HtmlReport.color(12) + "\"")
        .contains(" stroke-dasharray=\"" + HtmlReport.dash(12) + "\"");
    Matcher legend = Pattern.compile("<div class=\"legend\">(.*?)</div>", Pattern.DOTALL).matcher(dom);
    assertThat(legend.find()).isTrue();
    List<String> named = Pattern.compile("<span[^>]*>([^<]*)</span>").matcher(legend.group(1)).results()
        .map(r -> r.group(1)).toList();
    assertThat(named).containsExactlyElementsOf(expected);
    assertThat(legend.group(1)).contains("<span class=\"d1\" style=\"--c: " + HtmlReport.color(12)
        + ";\">ready default/app-33</span>");
    assertThat(dom).contains("<summary>Pick the lines: 14 of 41 series drawn</summary>");
    Matcher readout = Pattern.compile("<div class=\"readout\"[^>]*><b>0:02</b>(.*?)</div></div>").matcher(dom);
    assertThat(readout.find()).as("the readout").isTrue();
    List<String> read = Pattern.compile("<span[^>]*>([^<]*)</span>").matcher(readout.group(1)).results()
        .map(r -> r.group(1)).toList();
    assertThat(read).hasSize(expected.size()).contains("ready default/app-33: 33 replicas",
        "ready default/app-20: 20 replicas", "ready default/&lt;b&gt;: 3 replicas");
    assertThat(readout.group(1)).contains("<span class=\"d1\" style=\"--c: " + HtmlReport.color(12)
        + ";\">ready default/app-33: 33 replicas</span>");
    List<String> listed = Pattern.compile("<label>(<input[^>]*>)([^<]*)</label>").matcher(dom).results()
        .map(r -> r.group(2)).toList();
    assertThat(listed).containsExactly("ready default/app-3", "ready default/app-30", "ready default/app-31",
        "ready default/app-32", "ready default/app-33", "ready default/app-34", "ready default/app-35",
        "ready default/app-36", "ready default/app-37", "ready default/app-38", "ready default/app-39");
  }

  /**
   * The readout, as a reader's pointer brings it up (a script added to a copy of the page moves a mouse over the
   * Pods chart at its second sample, touches the Ready chart at its last and moves over the Cost chart's left
   * margin): the time and each drawn line's value with its unit, and the guide at that sample; outside the plot
   * nothing.
   */
  @Test
  void readout_pointerOverAChart_givesTheTimeAndEachLinesValue() throws Exception {
    String html = HtmlReport.render(HtmlReportTest.tiny("web-1"));
    String dom = dumpWith(html, "readout.html", pointer("Pods", "pointermove", 470, "mouse")
        + pointer("Ready vs desired", "pointerdown", 850, "touch") + pointer("Cost", "pointermove", 20, "mouse"));
    Matcher pods = Pattern.compile("<figure class=\"chart\" data-chart=\"Pods\">(.*?)</figure>", Pattern.DOTALL)
        .matcher(dom);
    assertThat(pods.find()).isTrue();
    assertThat(pods.group(1)).contains("<div class=\"readout\" style=\"left: ")
        .contains("<b>0:01</b><div><span style=\"--c: " + HtmlReport.color(0) + ";\">pending pods: 3 pods</span></div>")
        .containsPattern("<line class=\"guide\" x1=\"464(\\.0)?\" x2=\"464(\\.0)?\" y1=\"16\" y2=\"224\" "
            + "stroke=\"#444\" visibility=\"visible\"");
    Matcher ready = Pattern.compile("<figure class=\"chart\" data-chart=\"Ready vs desired\">(.*?)</figure>",
        Pattern.DOTALL).matcher(dom);
    assertThat(ready.find()).isTrue();
    assertThat(ready.group(1)).contains("<b>0:02</b><div><span style=\"--c: " + HtmlReport.color(0)
        + ";\">ready &lt;b&gt;x&lt;/b&gt;: 2 replicas</span></div>");
    assertThat(dom).contains("<p id=\"zoom\" hidden=\"\">"); // a touch reads, it does not zoom
    Matcher cost = Pattern.compile("<figure class=\"chart\" data-chart=\"Cost\">(.*?)</figure>", Pattern.DOTALL)
        .matcher(dom);
    assertThat(cost.find()).isTrue();
    assertThat(cost.group(1)).contains("<div class=\"readout\" hidden=\"\"></div>")
        .contains("visibility=\"hidden\"");
  }

  /**
   * The readout and the zoom from the keyboard (a script added to a copy of the page): the Pods chart takes the focus
   * and reads 0:00, Right, End and Left bring it to 0:01; {@code +} zooms every chart to half the run about 0:01;
   * Right reads 0:01 again (the only sample in view). On another page {@code -} and {@code 0} show the whole run.
   */
  @Test
  void keyboard_focusAndArrowsRead_plusMinusZeroZoom() throws Exception {
    String html = HtmlReport.render(HtmlReportTest.tiny("web-1"));
    String focus = "var svg=document.querySelector('figure[data-chart=\"Pods\"] > svg');svg.focus();"
        + "function key(k){svg.dispatchEvent(new KeyboardEvent('keydown',{key:k,bubbles:true,cancelable:true}));}";
    String read = dumpWith(html, "keyboard.html", focus + "var first=document.querySelector("
        + "'figure[data-chart=\"Pods\"] .readout b').textContent;key('ArrowRight');key('End');key('ArrowLeft');"
        + "var second=document.querySelector('figure[data-chart=\"Pods\"] .readout b').textContent;"
        + "document.body.setAttribute('data-read',first+' '+second);key('+');key('ArrowRight');");
    assertThat(read).contains("<body data-read=\"0:00 0:01\">")
        .contains("<span id=\"zoom-span\">Showing 0:00:30 to 0:01:30</span>")
        .containsPattern("<div class=\"readout\" style=\"[^\"]*\"><b>0:01</b><div><span style=\"--c: "
            + HtmlReport.color(0) + ";\">pending pods: 3 pods</span></div>");
    assertThat(Pattern.compile("<svg class=\"plot\"[^>]* viewBox=\"([^\"]*)\"").matcher(read).results()
        .map(r -> r.group(1)).toList()).containsOnly("264 0 400 260");
    for (String out : List.of("key('+');key('-');", "key('+');key('+');key('0');")) {
      String whole = dumpWith(html, "keyboard-out.html", focus + out);
      assertThat(whole).as(out).contains("<p id=\"zoom\" hidden=\"\">");
      assertThat(Pattern.compile("<svg class=\"plot\"[^>]* viewBox=\"([^\"]*)\"").matcher(whole).results()
          .map(r -> r.group(1)).toList()).as(out).containsOnly("64 0 800 260");
    }
  }

  /**
   * A click on an event's time in the table (the NodeFailed at 0:01 of the 2-minute run) zooms every chart to a
   * twelfth of the run about it, 0:00:55-0:01:05, and marks 0:01 on each; a click on another cell zooms nothing; a
   * click on a moment the summary names does as the event's time; the whole run again hides the mark.
   */
  @Test
  void eventTime_click_zoomsTheChartsToIt_andMarksIt() throws Exception {
    String html = HtmlReport.render(HtmlReportTest.tiny("web-1"));
    String rows = "var rows=document.querySelectorAll('#event-table tbody tr');";
    String other = dumpWith(html, "event-click-other.html", rows + "rows[1].cells[2].click();");
    assertThat(other).contains("<p id=\"zoom\" hidden=\"\">");
    String zoomed = dumpWith(html, "event-click.html", rows + "rows[1].cells[0].click();");
    assertThat(tableRows(zoomed).get(1)).contains("<td>NodeFailed</td>");
    assertThat(zoomed).contains("<span id=\"zoom-span\">Showing 0:00:55 to 0:01:05</span>");
    List<String> views = Pattern.compile("<svg class=\"plot\"[^>]* viewBox=\"([^\"]*)\"").matcher(zoomed).results()
        .map(r -> r.group(1)).toList();
    assertThat(views).hasSize(3).allMatch(v -> v.matches("430\\.6+\\d* 0 66\\.6+\\d* 260"));
    List<String> marks = Pattern.compile("<line class=\"at\"[^>]*>").matcher(zoomed).results().map(r -> r.group())
        .toList();
    assertThat(marks).hasSize(3).allMatch(l -> l.contains("x1=\"464\"") && l.contains("visibility=\"visible\""));
    // the summary's moments do the same: its first link is the most pending pods' 0:01
    String summary = dumpWith(html, "summary-click.html", "document.querySelector('#summary a.at').click();");
    assertThat(summary).contains("<span id=\"zoom-span\">Showing 0:00:55 to 0:01:05</span>");
    assertThat(Pattern.compile("<line class=\"at\"[^>]*>").matcher(summary).results().map(r -> r.group()))
        .hasSize(3).allMatch(l -> l.contains("x1=\"464\"") && l.contains("visibility=\"visible\""));
    String whole = dumpWith(html, "event-click-whole.html", rows + "rows[1].cells[0].click();"
        + "document.getElementById('zoom-out').click();");
    assertThat(Pattern.compile("<line class=\"at\"[^>]*>").matcher(whole).results().map(r -> r.group()))
        .hasSize(3).allMatch(l -> l.contains("visibility=\"hidden\""));
  }

  /** A mouse's pointer event of {@code type} at column {@code x} of chart {@code chart}, as page script. */
  private static String mouse(String chart, String type, int x) {
    return pointer(chart, type, x, "mouse");
  }

  /**
   * A pointer event of {@code type} from a pointer of {@code kind} (mouse, touch, pen) at column {@code x} of chart
   * {@code chart} (its main button), as page script.
   */
  private static String pointer(String chart, String type, int x, String kind) {
    return "(function(){var svg=document.querySelector('figure[data-chart=\"" + chart + "\"] > svg'),"
        + "m=svg.getScreenCTM();svg.dispatchEvent(new PointerEvent('" + type + "',{clientX:m.a*" + x
        + "+m.e,clientY:m.d*120+m.f,pointerType:'" + kind + "',button:0,bubbles:true}));})();";
  }

  /** {@code html} with {@code script} run after the page's own, saved as {@code name} and dumped by Chromium. */
  private static String dumpWith(String html, String name, String script) throws Exception {
    Path file = OUT.resolve(name).toAbsolutePath();
    Files.writeString(file, html.replace("</body>", "<script>" + script + "</script></body>"), StandardCharsets.UTF_8);
    HeadlessChromium.Run b = chromium.run("--dump-dom", file.toUri().toString());
    assertThat(b.exit()).as(b.stderr()).isZero();
    assertThat(b.consoleLines()).as("console of %s", name).isEmpty();
    return b.stdout();
  }

  /**
   * The time zoom, as a mouse drives it (a script added to a copy of the page): a click zooms nothing; a drag across
   * the Pods chart from a quarter of its width to half zooms every chart to 0:00:30-0:01 of the 2-minute run, with
   * the time labels written for that span and the "Whole run" bar shown; the readout then reads the zoomed time under
   * the pointer. A double-click on any chart, or the bar's button, shows the whole run again.
   */
  @Test
  void zoom_dragAcrossAChart_zoomsEveryChart_doubleClickOrButtonShowsTheWholeRun() throws Exception {
    String html = HtmlReport.render(HtmlReportTest.tiny("web-1"));
    String drag = mouse("Cost", "pointerdown", 300) + mouse("Cost", "pointerup", 301)
        + mouse("Pods", "pointerdown", 264) + mouse("Pods", "pointermove", 400) + mouse("Pods", "pointerup", 464);
    String zoomed = dumpWith(html, "zoom.html", drag + mouse("Pods", "pointermove", 860));
    List<String> views = Pattern.compile("<svg class=\"plot\"[^>]* viewBox=\"([^\"]*)\"").matcher(zoomed).results()
        .map(r -> r.group(1)).toList();
    assertThat(views).hasSize(3).containsOnly("264 0 200 260");
    Matcher labels = Pattern.compile("<figure class=\"chart\" data-chart=\"Cost\">(.*?)</figure>", Pattern.DOTALL)
        .matcher(zoomed);
    assertThat(labels.find()).isTrue();
    // labelled every 5 s, at the labels' places
    assertThat(Pattern.compile("<text class=\"xlabel\" x=\"([^\"]*)\"[^>]*>([^<]*)</text>").matcher(labels.group(1))
        .results().map(r -> r.group(1) + " " + r.group(2)).toList())
        .containsExactly("64 0:00:30", "197.3 0:00:35", "330.7 0:00:40", "464 0:00:45", "597.3 0:00:50",
            "730.7 0:00:55", "864 0:01");
    assertThat(zoomed).contains("<p id=\"zoom\"><button id=\"zoom-out\" type=\"button\">Whole run</button> "
        + "<span id=\"zoom-span\">Showing 0:00:30 to 0:01</span></p>")
        // the pointer near the plot's right edge is near 0:01 now, the second sample (unzoomed, 0:02, the third)
        .containsPattern("<div class=\"readout\" style=\"[^\"]*\"><b>0:01</b><div><span style=\"--c: "
            + HtmlReport.color(0) + ";\">pending pods: 3 pods</span></div>");
    assertThat(Pattern.compile("<rect class=\"drag\"[^>]*>").matcher(zoomed).results().map(r -> r.group()))
        .hasSize(3).allMatch(r -> r.contains("visibility=\"hidden\""));

    String dbl = "(function(){var svg=document.querySelector('figure[data-chart=\"Cost\"] > svg');"
        + "svg.dispatchEvent(new MouseEvent('dblclick',{bubbles:true}));})();";
    String button = "document.getElementById('zoom-out').click();";
    for (String out : List.of(dbl, button)) {
      String whole = dumpWith(html, "zoom-out.html", drag + out);
      assertThat(Pattern.compile("<svg class=\"plot\"[^>]* viewBox=\"([^\"]*)\"").matcher(whole).results()
          .map(r -> r.group(1)).toList()).as(out).hasSize(3).containsOnly("64 0 800 260");
      assertThat(whole).as(out).contains("<p id=\"zoom\" hidden=\"\">").doesNotContain(">0:00:30</text>");
      // the page's own labels again, in their places
      assertThat(Pattern.compile("<text class=\"xlabel\" x=\"([^\"]*)\"[^>]*>([^<]*)</text>").matcher(whole)
          .results().map(r -> r.group(1) + " " + r.group(2)).toList()).hasSize(21)
          .containsSequence("64.0 0:00", "197.3 0:00:20", "330.7 0:00:40", "464.0 0:01", "597.3 0:01:20",
              "730.7 0:01:40", "864.0 0:02");
    }
    // the labels of a longer zoom: whole minutes and hours
    String dayHtml = HtmlReport.render(day());
    String day = dumpWith(dayHtml, "zoom-day.html", mouse("Pods", "pointerdown", 64) + mouse("Pods", "pointerup", 264));
    Matcher dayLabels = Pattern.compile("<figure class=\"chart\" data-chart=\"Pods\">(.*?)</figure>", Pattern.DOTALL)
        .matcher(day);
    assertThat(dayLabels.find()).isTrue();
    assertThat(Pattern.compile("<text class=\"xlabel\"[^>]*>([^<]*)</text>").matcher(dayLabels.group(1)).results()
        .map(r -> r.group(1)).toList()).containsExactly("0:00", "1:00", "2:00", "3:00", "4:00", "5:00", "6:00");
    assertThat(day).contains("<span id=\"zoom-span\">Showing 0:00 to 6:00</span>");
  }

  /**
   * A zoom fits each chart's y axis to what the chart draws in the span: a 2-hour run whose lines peak in its first
   * ten minutes, zoomed to 1:00-1:30, gets the axis 0-4 pods (whole steps) on the Pods chart and 0-0.30 on the Cost
   * chart, its lines stretched to it with the bottom row kept; on a crowded chart the hidden line at 50 does not count
   * until it is ticked in the list, which brings back the page's axis. The whole run restores every page axis.
   */
  @Test
  void zoom_fitsEachChartsYAxisToTheLinesItDrawsInTheSpan() throws Exception {
    SimulationRun tiny = HtmlReportTest.tiny("web-1");
    List<Duration> times = new ArrayList<>();
    List<Double> pods = new ArrayList<>();
    List<Double> cost = new ArrayList<>();
    for (int i = 0; i <= 120; i++) {
      times.add(Duration.ofMinutes(i));
      pods.add(i <= 10 ? 100.0 : i % 5);
      cost.add(i <= 10 ? 10.0 : 0.1 * (i % 4));
    }
    List<TimeSeries> series = new ArrayList<>(List.of(new TimeSeries("pending pods", "Pods", "pods", pods),
        new TimeSeries("cost per hour", "Cost", "$/h", cost)));
    for (int i = 0; i <= HtmlReport.MAX_LINES_PER_CHART; i++) {
      series.add(new TimeSeries("ready default/app-" + i, "Ready vs desired per workload", "replicas",
          java.util.Collections.nCopies(times.size(), i < HtmlReport.MAX_LINES_PER_CHART ? 2.0 : 50.0)));
    }
    String html = HtmlReport.render(new SimulationRun("quiet", 1, Duration.ofHours(2), times, series, List.of(),
        List.of(), tiny.summary()));
    // 1:00 and 1:30 of the 2 hours drawn over columns 64-864
    String drag = mouse("Pods", "pointerdown", 464) + mouse("Pods", "pointerup", 664);
    String zoomed = dumpWith(html, "zoom-y.html", drag);
    assertThat(zoomed).contains("<span id=\"zoom-span\">Showing 1:00 to 1:30</span>");
    assertThat(yLabels(zoomed, "Pods")).containsExactly("0", "1", "2", "3", "4");
    assertThat(Pattern.compile("<line class=\"ygrid\"[^>]* y1=\"([^\"]*)\"").matcher(figure(zoomed, "Pods"))
        .results().map(r -> r.group(1)).toList()).containsExactly("224", "172", "120", "68", "16");
    // the page's axis is 0-100: stretched 25 times about row 224
    assertThat(linesTransform(zoomed, "Pods")).isEqualTo("matrix(1 0 0 25 0 -5376)");
    assertThat(yLabels(zoomed, "Cost")).containsExactly("0", "0.10", "0.20", "0.30");
    assertThat(linesTransform(zoomed, "Cost")).startsWith("matrix(1 0 0 33.33");
    assertThat(yLabels(zoomed, "Ready vs desired per workload")).containsExactly("0", "1", "2");

    String tick = "(function(){var b=document.querySelectorAll('details.pick .pick-list input')["
        + HtmlReport.MAX_LINES_PER_CHART + "];b.checked=true;b.dispatchEvent(new Event('change',{bubbles:true}));})();";
    String picked = dumpWith(html, "zoom-y-pick.html", drag + tick);
    assertThat(yLabels(picked, "Ready vs desired per workload")).containsExactly("0", "10", "20", "30", "40", "50");
    assertThat(linesTransform(picked, "Ready vs desired per workload")).isNull();
    assertThat(yLabels(picked, "Pods")).containsExactly("0", "1", "2", "3", "4");

    String whole = dumpWith(html, "zoom-y-out.html", drag + "document.getElementById('zoom-out').click();");
    assertThat(yLabels(whole, "Pods")).containsExactly("0", "20", "40", "60", "80", "100");
    assertThat(yLabels(whole, "Cost")).containsExactly("0", "2", "4", "6", "8", "10");
    assertThat(linesTransform(whole, "Pods")).isNull();
    assertThat(linesTransform(whole, "Cost")).isNull();
    assertThat(yLabels(html, "Pods")).containsExactly("0", "20", "40", "60", "80", "100");
  }

  /** The figure of chart {@code chart} in {@code dom}. */
  private static String figure(String dom, String chart) {
    Matcher m = Pattern.compile("<figure class=\"chart\" data-chart=\"" + Pattern.quote(chart)
        + "\">(.*?)</figure>", Pattern.DOTALL).matcher(dom);
    assertThat(m.find()).as("chart %s", chart).isTrue();
    return m.group(1);
  }

  /** The y labels of chart {@code chart} in {@code dom}, from the bottom up. */
  private static List<String> yLabels(String dom, String chart) {
    return Pattern.compile("<text class=\"ylabel\"[^>]*>([^<]*)</text>").matcher(figure(dom, chart)).results()
        .map(r -> r.group(1)).toList();
  }

  /** The transform of chart {@code chart}'s lines in {@code dom}, or null. */
  private static String linesTransform(String dom, String chart) {
    Matcher g = Pattern.compile("<g class=\"lines\"[^>]*>").matcher(figure(dom, chart));
    assertThat(g.find()).isTrue();
    Matcher t = Pattern.compile(" transform=\"([^\"]*)\"").matcher(g.group());
    return t.find() ? t.group(1) : null;
  }

  /** A 24-hour run sampled every 5 minutes, one series. */
  private static SimulationRun day() {
    SimulationRun t = HtmlReportTest.tiny("web-1");
    List<java.time.Duration> times = new ArrayList<>();
    List<Double> values = new ArrayList<>();
    for (int i = 0; i <= 288; i++) {
      times.add(java.time.Duration.ofMinutes(5L * i));
      values.add((double) (i % 7));
    }
    return new SimulationRun("day", 1, java.time.Duration.ofHours(24), times,
        List.of(new TimeSeries("pending pods", "Pods", "pods", values)), List.of(), List.of(), t.summary());
  }

  /** The event table's rows in {@code dom}, each as the browser serialised it. */
  private static List<String> tableRows(String dom) {
    Matcher body = Pattern.compile("<table id=\"event-table\">.*?<tbody>(.*?)</tbody>", Pattern.DOTALL).matcher(dom);
    assertThat(body.find()).as("the event table in the page").isTrue();
    return Pattern.compile("<tr.*?</tr>", Pattern.DOTALL).matcher(body.group(1)).results().map(r -> r.group())
        .toList();
  }
}
