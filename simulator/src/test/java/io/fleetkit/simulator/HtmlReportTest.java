package io.fleetkit.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import org.junit.jupiter.api.Test;

final class HtmlReportTest {
  static SimulationRun tiny(String podName) {
    List<Duration> times = List.of(Duration.ZERO, Duration.ofMinutes(1), Duration.ofMinutes(2));
    List<TimeSeries> series = List.of(
        new TimeSeries("pending pods", "Pods", "pods", List.of(0.0, 3.0, 1.0)),
        new TimeSeries("ready <b>x</b>", "Ready vs desired", "replicas", List.of(1.0, 2.0, 2.0)),
        new TimeSeries("cost per hour", "Cost", "$/h", List.of(1.5, 1.5, 2.0)),
        new TimeSeries("cumulative cost", "Cost", "$", List.of(0.0, 0.03, 0.05)));
    TimelineEvent created = new TimelineEvent(Duration.ofSeconds(5), "PodCreated", "Pod/default/" + podName,
        "created by \"me\" & you");
    TimelineEvent failed = new TimelineEvent(Duration.ofSeconds(60), "NodeFailed", "Node/n1", "fault injected");
    SimulationSummary summary = new SimulationSummary(Duration.ofMinutes(2),
        List.of(new WorkloadSummary("default/<web>", 2, 2)), List.of(), List.of(), List.of(),
        List.of(new PendingPodSummary("default/" + podName, "Unschedulable",
            "0/3 nodes are available: 3 Insufficient nvidia.com/gpu."), new PendingPodSummary("default/q", "", "")));
    return new SimulationRun("t<1>", 3, Duration.ofMinutes(2), times, series, List.of(created, failed),
        List.of(failed), summary);
  }

  /** A run without cost series (no NodePool had a price) says so instead of a total of 0. */
  @Test
  void render_withoutCostSeries_saysNoPoolHasAPrice() {
    SimulationRun priced = tiny("web-1");
    SimulationRun unpriced = new SimulationRun(priced.scenario(), priced.seed(), priced.duration(),
        priced.sampleTimes(), priced.series().stream().filter(s -> !s.chart().equals("Cost")).toList(),
        priced.timeline(), priced.markers(), priced.summary());
    assertThat(HtmlReport.render(priced)).contains("Total cost: <b>0.05 $</b>").doesNotContain(SimulationRun.NO_PRICE);
    assertThat(HtmlReport.render(unpriced)).contains("<li>Cost: no node pool has a price</li>")
        .doesNotContain("Total cost").doesNotContain("Highest cost");
  }

  @Test
  void render_escapesEveryTextFromTheRun() {
    String html = HtmlReport.render(tiny("<script>alert(1)</script>"));
    assertThat(html).doesNotContain("<script>alert").doesNotContain("<b>x</b>").doesNotContain("<web>")
        .doesNotContain("t<1>")
        .contains("default/&lt;script&gt;alert(1)&lt;/script&gt;") // the summary's pending pod
        .contains("ready &lt;b&gt;x&lt;/b&gt;")
        .contains("default/&lt;web&gt;")
        // the event table's data: JSON strings in which nothing reads as markup
        .contains("\"Pod/default/\\u003cscript\\u003ealert(1)\\u003c/script\\u003e\"")
        .contains("\"created by \\\"me\\\" \\u0026 you\"");
    // exactly two script elements, the event table's data and the report's script, and nothing in them ends one
    // early
    assertThat(Pattern.compile("<script").matcher(html).results().map(r -> html.substring(r.start(),
        html.indexOf('>', r.start()) + 1))).containsExactly("<script type=\"application/json\" id=\"event-data\">",
        "<script>");
    assertThat(Pattern.compile("</script").matcher(html).results().count()).isEqualTo(2);
  }

  @Test
  void render_oneChartPerGroupWithEveryPoint() {
    String html = HtmlReport.render(tiny("web-1"));
    assertThat(Pattern.compile("<figure class=\"chart\"").matcher(html).results().count()).isEqualTo(3);
    Matcher m = Pattern.compile("<polyline class=\"series\" data-series=\"([^\"]*)\" data-points=\"(\\d+)\"[^>]*"
        + "points=\"([^\"]*)\"").matcher(html);
    int lines = 0;
    while (m.find()) {
      lines++;
      assertThat(m.group(3).split(" ")).as(m.group(1)).hasSize(3);
      assertThat(m.group(2)).isEqualTo("3");
    }
    assertThat(lines).isEqualTo(4);
    assertThat(html).contains("<line class=\"marker\" data-kind=\"NodeFailed\"");
  }

  /** Each line carries its samples' values for the readout, as the report writes numbers, and its unit. */
  @Test
  void render_linesCarryTheirValuesAndUnit() {
    String html = HtmlReport.render(tiny("web-1"));
    assertThat(html).contains("data-series=\"pending pods\" data-points=\"3\" data-style=\"0\" data-unit=\"pods\" "
        + "data-v=\"0 3 1\" fill=")
        .contains("data-series=\"cost per hour\" data-points=\"3\" data-style=\"0\" data-unit=\"$/h\" "
        + "data-v=\"1.50 1.50 2\" fill=")
        .doesNotContain("data-i=")
        // the sample times, once, for the readout's time
        .contains("var S=[\"0:00\",\"0:01\",\"0:02\"];");
  }

  @Test
  void render_summaryNamesTheWorstMomentsAndTheTotal() {
    String html = HtmlReport.render(tiny("web-1"));
    assertThat(html).contains("Pending at the end: <b>2 pod(s)</b>: default/web-1 (Unschedulable: 0/3 nodes are "
        + "available: 3 Insufficient nvidia.com/gpu.); default/q</li>");
    // every moment named is a link that zooms the charts to it
    assertThat(html).contains("Most pending pods: <b>3</b> at <a class=\"at\" href=\"#charts\" data-s=\"60\">0:01</a>").contains("Total cost: <b>0.05 $</b>")
        .contains("<li>Faults: <a class=\"at\" href=\"#charts\" data-s=\"60\">node n1 failed from 0:01 on</a></li>\n<li>0 scaling decision(s)</li>");
  }

  /**
   * Each fault in a few words with its span; the nodes a zone failure stopped are that fault's, not faults of their
   * own; a node failing later on its own is.
   */
  @Test
  void faultLines_zoneWithItsNodes_nodeOnItsOwn_ongoing() {
    List<TimelineEvent> markers = List.of(
        new TimelineEvent(Duration.ofHours(15), "ZoneFailed", "Zone/zone-b", "2 node(s) stop: b-1, general-b-1"),
        new TimelineEvent(Duration.ofHours(15), "NodeFailed", "Node/b-1", "fault injected"),
        new TimelineEvent(Duration.ofHours(15), "NodeFailed", "Node/general-b-1", "fault injected"),
        new TimelineEvent(Duration.ofHours(15).plusMinutes(5), "ScaleUp", "NodePool/general-a", "launching 1"),
        new TimelineEvent(Duration.ofHours(16), "ZoneRecovered", "Zone/zone-b", "2 node(s) come back"),
        new TimelineEvent(Duration.ofHours(17), "NodeFailed", "Node/b-1", "fault injected"),
        new TimelineEvent(Duration.ofHours(18), "ApiSlow", "API", "every API round trip takes 200 ms"));
    assertThat(ReportSummary.faultLines(markers)).containsExactly(
        "zone zone-b down from 15:00 to 16:00 (2 node(s) stop: b-1, general-b-1)",
        "node b-1 failed from 17:00 on",
        "API slow from 18:00 on (every API round trip takes 200 ms)");
    assertThat(ReportSummary.faultLines(List.of())).isEmpty();
  }

  /**
   * Capacity stockouts: each ends at the restore of the same pool and zone, not at another zone's; one without an end
   * goes on.
   */
  @Test
  void faultLines_capacityStockouts_eachSpanItsOwnPoolAndZone() {
    List<TimelineEvent> markers = List.of(
        new TimelineEvent(Duration.ofHours(2), "CapacityStockout", "NodePool/gpu/zone-a", "out"),
        new TimelineEvent(Duration.ofHours(3), "CapacityStockout", "NodePool/gpu/zone-b", "out"),
        new TimelineEvent(Duration.ofHours(3).plusMinutes(30), "CapacityRestored", "NodePool/gpu/zone-b", "back"),
        new TimelineEvent(Duration.ofHours(4), "CapacityRestored", "NodePool/gpu/zone-a", "back"),
        new TimelineEvent(Duration.ofHours(5), "CapacityStockout", "NodePool/cpu", "out"));
    assertThat(ReportSummary.faultLines(markers)).containsExactly(
        "NodePool gpu out of capacity in zone zone-a from 2:00 to 4:00",
        "NodePool gpu out of capacity in zone zone-b from 3:00 to 3:30",
        "NodePool cpu out of capacity from 5:00 on");
  }

  /** A run whose only series is {@code pending pods}, one sample a minute. */
  /** The pending-pods line of a run of {@code pending}, one sample a minute, with its links as their text. */
  private static String pendingLine(Double... pending) {
    return pendingLink(pending).replaceAll("<a class=\"at\" href=\"#charts\" data-s=\"\\d+\">([^<]*)</a>", "$1");
  }

  /** The pending-pods line of a run of {@code pending}, one sample a minute, as the page has it. */
  private static String pendingLink(Double... pending) {
    List<Duration> times = new java.util.ArrayList<>();
    for (int i = 0; i < pending.length; i++) {
      times.add(Duration.ofMinutes(i));
    }
    SimulationRun t = tiny("web-1");
    SimulationRun run = new SimulationRun("p", 3, times.get(times.size() - 1), times,
        List.of(new TimeSeries("pending pods", "Pods", "pods", List.of(pending))), List.of(), List.of(), t.summary());
    Matcher m = Pattern.compile("<li>Most pending pods: .*?</li>").matcher(HtmlReport.render(run));
    assertThat(m.find()).isTrue();
    return m.group();
  }

  /**
   * The worst moment is not the first sample when that is just the start: the line says the value was there at the
   * start, how long, and names the worst moment after it.
   */
  @Test
  void render_worstMomentAtTheStart_saidSoWithTheWorstAfterIt() {
    assertThat(pendingLine(4.0, 4.0, 0.0, 2.0, 1.0)).isEqualTo("<li>Most pending pods: <b>4</b> at the start (0:00 to"
        + " 0:01); later at most <b>2</b> at 0:03</li>");
    // each time named is a link that zooms the charts to it
    assertThat(pendingLink(4.0, 4.0, 0.0, 2.0, 1.0)).isEqualTo("<li>Most pending pods: <b>4</b> at the start ("
        + "<a class=\"at\" href=\"#charts\" data-s=\"0\">0:00</a> to <a class=\"at\" href=\"#charts\" data-s=\"60\">"
        + "0:01</a>); later at most <b>2</b> at <a class=\"at\" href=\"#charts\" data-s=\"180\">0:03</a></li>");
    assertThat(pendingLine(4.0, 0.0, 0.0)).isEqualTo("<li>Most pending pods: <b>4</b> at the start (0:00); none later"
        + "</li>");
    assertThat(pendingLine(3.0, 3.0, 3.0)).isEqualTo("<li>Most pending pods: <b>3</b> throughout the run</li>");
    assertThat(pendingLine(1.0, 3.0, 3.0)).isEqualTo("<li>Most pending pods: <b>3</b> at 0:01</li>");
    assertThat(pendingLine(0.0, 0.0)).isEqualTo("<li>Most pending pods: <b>0</b></li>");
  }

  static SimulationRun withJobs(List<JobSummary> jobs) {
    SimulationRun t = tiny("web-1");
    SimulationSummary summary = new SimulationSummary(Duration.ofMinutes(2), List.of(), List.of(), jobs, List.of(),
        List.of());
    return new SimulationRun("jobs", 3, t.duration(), t.sampleTimes(), t.series(), List.of(), List.of(), summary);
  }

  @Test
  void render_fewJobs_eachWithItsStatus() {
    String html = HtmlReport.render(withJobs(List.of(new JobSummary("ml/train", 4, 0, "Complete"),
        new JobSummary("ml/eval", 0, 6, "Failed"))));
    assertThat(html).contains("<li>At the end: Job ml/train Complete, 4 succeeded, 0 failed; Job ml/eval Failed, "
        + "0 succeeded, 6 failed</li>");
  }

  @Test
  void render_manyJobs_countedByStatusWithTheFailedNamed() {
    List<JobSummary> jobs = new java.util.ArrayList<>();
    for (int i = 0; i < 20; i++) {
      jobs.add(new JobSummary("q/j-" + i, i < 12 ? 1 : 0, i == 3 || i == 17 ? 7 : 0,
          i == 3 || i == 17 ? "Failed" : i < 12 ? "Complete" : "Suspended"));
    }
    String html = HtmlReport.render(withJobs(jobs));
    assertThat(html).contains("<li>At the end: 20 Jobs: 11 Complete, 2 Failed, 7 Suspended (failed: q/j-3, q/j-17)"
        + "</li>");
    assertThat(html).doesNotContain("q/j-5");
  }

  /**
   * Faults and recoveries are dashed lines across the plot; scaling decisions are ticks under the time axis, one per
   * pixel column, whose tooltip names the first five and counts the rest.
   */
  @Test
  void render_scalingDecisionsAsTicksPerPixelColumn_faultsAcross() {
    SimulationRun t = tiny("web-1");
    List<TimelineEvent> markers = new java.util.ArrayList<>();
    for (int i = 0; i < 7; i++) { // 7 within one column (2 minutes over 800 pixels: 0.15 s per pixel)
      markers.add(new TimelineEvent(Duration.ofMillis(30_000 + i), "ScaleDown", "Node/n" + i, "empty"));
    }
    markers.add(new TimelineEvent(Duration.ofSeconds(60), "NodeFailed", "Node/n1", "fault injected"));
    markers.add(new TimelineEvent(Duration.ofSeconds(90), "ScaleUp", "NodePool/a", "1 node"));
    markers.add(new TimelineEvent(Duration.ofSeconds(100), "NodeRecovered", "Node/n1", "back"));
    SimulationRun run = new SimulationRun("ticks", 3, t.duration(), t.sampleTimes(), t.series().subList(0, 1),
        List.of(), markers, t.summary());
    String html = HtmlReport.render(run);
    assertThat(html).contains("<line class=\"marker\" data-kind=\"ScaleDown\" data-count=\"7\" x1=\"264\" x2=\"264\" "
        + "y1=\"225\" y2=\"231\" stroke=\"#777\" stroke-width=\"2\"><title>0:00:30 ScaleDown Node/n0 empty\n"
        + "0:00:30 ScaleDown Node/n1 empty\n0:00:30 ScaleDown Node/n2 empty\n0:00:30 ScaleDown Node/n3 empty\n"
        + "0:00:30 ScaleDown Node/n4 empty\nand 2 more</title></line>")
        .contains("<line class=\"marker\" data-kind=\"ScaleUp\" data-count=\"1\" x1=\"664\" x2=\"664\" y1=\"225\" "
            + "y2=\"231\"")
        .contains("<line class=\"marker\" data-kind=\"NodeFailed\" x1=\"464.0\" x2=\"464.0\" y1=\"16\" y2=\"224\" "
            + "stroke=\"#d62728\"")
        .contains("<line class=\"marker\" data-kind=\"NodeRecovered\" x1=\"730.7\" x2=\"730.7\" y1=\"16\" "
            + "y2=\"224\" stroke=\"#2ca02c\"");
    assertThat(Pattern.compile("data-kind=\"Scale").matcher(html).results().count()).isEqualTo(2);
  }

  static SimulationRun withLoads(List<LoadOutcome> loads, List<WorkloadSummary> deployments) {
    SimulationRun t = tiny("web-1");
    SimulationSummary summary = new SimulationSummary(Duration.ofMinutes(2), deployments, List.of(), List.of(),
        List.of(), List.of());
    return new SimulationRun("loads", 3, t.duration(), t.sampleTimes(), t.series(), List.of(), List.of(), summary,
        List.of(), loads);
  }

  @Test
  void render_fewLoadsAndDeployments_eachOnItsOwn() {
    String html = HtmlReport.render(withLoads(
        List.of(new LoadOutcome("Deployment/default/web", 1000, 0, null, 0),
            new LoadOutcome("Deployment/default/api", 1000, 10, Duration.ofMinutes(1), 10)),
        List.of(new WorkloadSummary("default/web", 2, 2), new WorkloadSummary("default/api", 2, 1))));
    assertThat(html).contains("<li>Load on Deployment/default/web: <b>1,000 requests, none beyond capacity</b></li>\n"
        // a load with a worst minute: a link that zooms the charts to it
        + "<li>Load on Deployment/default/api: <b><a class=\"at\" href=\"#charts\" data-s=\"60\">10 of 1,000 requests "
        + "beyond capacity (1.00 %), the most in the minute from 0:01 (10)</a></b></li>\n")
        .contains("<li>At the end: Deployment default/web 2/2 ready; Deployment default/api 1/2 ready</li>");
  }

  /** 100 Deployments under load (the 1,000-node day): one line for all, then the loads that missed, the most first. */
  @Test
  void render_manyLoadsAndDeployments_summedWithTheShortOnesNamed() {
    List<LoadOutcome> loads = new java.util.ArrayList<>();
    List<WorkloadSummary> deployments = new java.util.ArrayList<>();
    for (int i = 0; i < 100; i++) {
      loads.add(new LoadOutcome("Deployment/default/app-" + i, 1000, i % 10 == 3 ? i : 0, null, 0));
      deployments.add(new WorkloadSummary("default/app-" + i, 100, i == 7 || i == 42 ? 99 : 100));
    }
    String html = HtmlReport.render(withLoads(loads, deployments));
    assertThat(html).contains("<li>Loads on 100 workloads: <b>480 of 100,000 requests beyond capacity (0.48 %)</b>, "
        + "on 10 of them; the 8 with the most:</li>\n"
        + "<li>Load on Deployment/default/app-93: <b>93 of 1,000 requests beyond capacity (9.30 %)</b></li>\n"
        + "<li>Load on Deployment/default/app-83: ")
        .contains("<li>Load on Deployment/default/app-23: ")
        .doesNotContain("app-13:").doesNotContain("app-3:").doesNotContain("app-0:")
        .contains("<li>At the end: 100 Deployments, 98 with every replica ready (not: default/app-7 99/100, "
            + "default/app-42 99/100)</li>");
    assertThat(Pattern.compile("<li>Load on ").matcher(html).results().count()).isEqualTo(8);

    List<LoadOutcome> served = loads.stream().map(l -> new LoadOutcome(l.target(), l.requests(), 0, null, 0)).toList();
    assertThat(HtmlReport.render(withLoads(served, List.of())))
        .contains("<li>Loads on 100 workloads: <b>100,000 requests, none beyond capacity</b></li>\n")
        .doesNotContain("<li>Load on ");
  }

  /**
   * A chart of as many series as it draws (the nodes chart of four pools with start-up phases has more than eight):
   * every line has its own colour and dash pattern, and its legend entry shows the same ones.
   */
  @Test
  void render_manySeries_everyLineItsOwnColourAndDash() {
    SimulationRun t = tiny("web-1");
    List<TimeSeries> series = new java.util.ArrayList<>();
    for (int i = 0; i < HtmlReport.MAX_LINES_PER_CHART + 2; i++) {
      series.add(new TimeSeries("ready nodes pool-" + i, "Nodes", "nodes", List.of(1.0, 2.0, (double) i)));
    }
    SimulationRun many = new SimulationRun("many", 3, t.duration(), t.sampleTimes(), series, List.of(), List.of(),
        t.summary());
    String html = HtmlReport.render(many);
    Matcher line = Pattern.compile("<polyline class=\"series\" data-series=\"([^\"]*)\"[^>]* stroke=\"([^\"]*)\""
        + "( stroke-dasharray=\"([^\"]*)\")? points=").matcher(html);
    java.util.Set<String> styles = new java.util.HashSet<>();
    int k = 0;
    while (line.find()) {
      String dash = line.group(4) == null ? "" : line.group(4);
      assertThat(styles.add(line.group(2) + "/" + dash)).as("style of %s", line.group(1)).isTrue();
      assertThat(line.group(2)).isEqualTo(HtmlReport.color(k));
      assertThat(dash).isEqualTo(HtmlReport.dash(k));
      // the legend entry: the same colour, and a swatch of the same pattern
      String legend = "style=\"--c:" + line.group(2) + "\">" + line.group(1) + "</span>";
      assertThat(html).contains((dash.isEmpty() ? "<span " : "<span class=\"d" + (k / 8) + "\" ") + legend);
      k++;
    }
    assertThat(k).isEqualTo(HtmlReport.MAX_LINES_PER_CHART);
    assertThat(styles).hasSize(HtmlReport.MAX_LINES_PER_CHART);
    assertThat(HtmlReport.dash(0)).isEmpty();
    assertThat(HtmlReport.dash(8)).isNotEmpty();
    assertThat(HtmlReport.color(8)).isEqualTo(HtmlReport.color(0)); // the colours come round, with a dash
    assertThat(HtmlReport.distinctStyles()).isGreaterThanOrEqualTo(HtmlReport.MAX_LINES_PER_CHART);
  }

  /**
   * A chart of more series than it draws holds them all: the first {@link HtmlReport#MAX_LINES_PER_CHART} drawn, the
   * rest as hidden lines on the same axis (which reaches the highest of them), and a list with a checkbox per series,
   * those drawn checked, names escaped.
   */
  @Test
  void render_crowdedChart_holdsEverySeries_drawsTheFirst_listsAll() {
    SimulationRun t = tiny("web-1");
    int n = HtmlReport.MAX_LINES_PER_CHART + 2;
    List<TimeSeries> series = new java.util.ArrayList<>();
    for (int i = 0; i < n; i++) {
      // the last, not drawn at first, is the highest: 50 replicas
      series.add(new TimeSeries("ready <b>" + i + "</b>", "Workloads", "replicas",
          List.of(1.0, 2.0, i == n - 1 ? 50.0 : (double) i)));
    }
    SimulationRun many = new SimulationRun("many", 3, t.duration(), t.sampleTimes(), series, List.of(), List.of(),
        t.summary());
    String html = HtmlReport.render(many);
    assertThat(Pattern.compile("<polyline class=\"series\" ").matcher(html).results().count())
        .isEqualTo(HtmlReport.MAX_LINES_PER_CHART);
    Matcher off = Pattern.compile("<polyline class=\"series off\" data-series=\"([^\"]*)\"[^>]* points=\"([^\"]*)\"")
        .matcher(html);
    List<String> hidden = new java.util.ArrayList<>();
    while (off.find()) {
      hidden.add(off.group(1));
      assertThat(off.group(2).split(" ")).hasSize(3);
    }
    assertThat(hidden).containsExactly("ready &lt;b&gt;12&lt;/b&gt;", "ready &lt;b&gt;13&lt;/b&gt;");
    // the axis reaches the hidden line's 50: gridlines at 10, 20, ..., 50
    assertThat(html).contains("text-anchor=\"end\" fill=\"#555\">50</text>");
    assertThat(html).contains("<summary>Pick the lines: 12 of 14 series drawn</summary>");
    Matcher box = Pattern.compile("<label><input type=\"checkbox\" value=\"(\\d+)\"( checked)?>([^<]*)</label>")
        .matcher(html);
    int k = 0;
    while (box.find()) {
      assertThat(box.group(1)).isEqualTo(String.valueOf(k));
      assertThat(box.group(2) != null).as("box %d checked", k).isEqualTo(k < HtmlReport.MAX_LINES_PER_CHART);
      assertThat(box.group(3)).isEqualTo("ready &lt;b&gt;" + k + "&lt;/b&gt;");
      k++;
    }
    assertThat(k).isEqualTo(n);
    assertThat(html).doesNotContain("more series in the JSON output");
    // a chart that draws all its series has no list
    assertThat(HtmlReport.render(tiny("web-1"))).doesNotContain("<details class=\"pick\">");
  }

  /** A chart holds at most {@link ReportSeriesPicker#MAX_SERIES_IN_PAGE} series in the page and counts the rest. */
  @Test
  void render_moreSeriesThanThePageHolds_countsTheRest() {
    SimulationRun t = tiny("web-1");
    List<TimeSeries> series = new java.util.ArrayList<>();
    for (int i = 0; i < ReportSeriesPicker.MAX_SERIES_IN_PAGE + 3; i++) {
      series.add(new TimeSeries("ready web-" + i, "Workloads", "replicas", List.of(1.0, 2.0, 3.0)));
    }
    String html = HtmlReport.render(new SimulationRun("many", 3, t.duration(), t.sampleTimes(), series, List.of(),
        List.of(), t.summary()));
    assertThat(Pattern.compile("<polyline class=\"series").matcher(html).results().count())
        .isEqualTo(ReportSeriesPicker.MAX_SERIES_IN_PAGE);
    assertThat(Pattern.compile("<input type=\"checkbox\"").matcher(html).results().count())
        .isEqualTo(ReportSeriesPicker.MAX_SERIES_IN_PAGE);
    assertThat(html).contains("<p class=\"meta\">3 more series in the JSON output</p>")
        .contains("<summary>Pick the lines: 12 of 400 series drawn</summary>")
        .doesNotContain("data-series=\"ready web-400\"");
  }

  @Test
  void render_chartOfTwoUnits_namesBothInCaptionAndLegend() {
    String html = HtmlReport.render(tiny("web-1"));
    assertThat(html).contains("<figcaption>Cost ($/h, $)</figcaption>")
        .contains(">cost per hour ($/h)</span>").contains(">cumulative cost ($)</span>")
        .contains("<figcaption>Pods (pods)</figcaption>").contains(">pending pods</span>");
  }

  @Test
  void render_selfContained_noNetworkReference() {
    String html = HtmlReport.render(tiny("web-1"));
    assertThat(html).doesNotContain("http://", "https://", "src=", "<link", "@import", "url(");
  }

  @Test
  void render_sameRun_sameBytes() {
    assertThat(HtmlReport.render(tiny("a"))).isEqualTo(HtmlReport.render(tiny("a")));
  }

  @Test
  void clock_hoursAndMinutes() {
    assertThat(HtmlReport.clock(Duration.ofMinutes(5))).isEqualTo("0:05");
    assertThat(HtmlReport.clock(Duration.ofSeconds(3 * 3600 + 61))).isEqualTo("3:01:01");
    assertThat(HtmlReport.clock(Duration.ofHours(24))).isEqualTo("24:00");
  }

  @Test
  void axis_wholeSeriesGetWholeGridlines() {
    assertThat(HtmlReport.Axis.of(2, true)).isEqualTo(new HtmlReport.Axis(1, 2));
    assertThat(HtmlReport.Axis.of(17, true)).isEqualTo(new HtmlReport.Axis(5, 4));
    assertThat(HtmlReport.Axis.of(25, true)).isEqualTo(new HtmlReport.Axis(5, 5));
    assertThat(HtmlReport.Axis.of(7, true)).isEqualTo(new HtmlReport.Axis(2, 4));
    assertThat(HtmlReport.Axis.of(0, true)).isEqualTo(new HtmlReport.Axis(1, 1));
    assertThat(HtmlReport.Axis.of(1, false)).isEqualTo(new HtmlReport.Axis(0.2, 5));
  }

  @Test
  void axis_lowestTopThenMostGridlines() {
    assertThat(HtmlReport.Axis.of(5000, false)).isEqualTo(new HtmlReport.Axis(1000, 5));
    assertThat(HtmlReport.Axis.of(521.54, false)).isEqualTo(new HtmlReport.Axis(200, 3));
    assertThat(HtmlReport.Axis.of(75, false)).isEqualTo(new HtmlReport.Axis(25, 3));
    assertThat(HtmlReport.Axis.of(0.3, false)).isEqualTo(new HtmlReport.Axis(0.1, 3));
    assertThat(HtmlReport.Axis.of(0.3, false).tick(3)).isEqualTo(0.3);
    assertThat(HtmlReport.Axis.of(0.3, false).top()).isEqualTo(0.3);
  }

  @Property
  void axis_topReachesTheMaximumInOneToFiveSteps(@ForAll @DoubleRange(min = 0, max = 1e9) double max,
      @ForAll boolean whole) {
    HtmlReport.Axis a = HtmlReport.Axis.of(whole ? Math.rint(max) : max, whole);
    assertThat(a.top()).isGreaterThanOrEqualTo(whole ? Math.rint(max) : max);
    assertThat(a.intervals()).isBetween(1, 5);
    if (whole) {
      assertThat(a.step()).isEqualTo(Math.rint(a.step())).isGreaterThanOrEqualTo(1);
    }
  }
}
