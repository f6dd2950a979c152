package io.fleetkit.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
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

  @Test
  void render_escapesEveryTextFromTheRun() {
    String html = HtmlReport.render(tiny("<script>alert(1)</script>"));
    assertThat(html).doesNotContain("<script>alert").doesNotContain("<b>x</b>").doesNotContain("<web>")
        .doesNotContain("t<1>")
        .contains("Pod/default/&lt;script&gt;alert(1)&lt;/script&gt;")
        .contains("created by &quot;me&quot; &amp; you")
        .contains("ready &lt;b&gt;x&lt;/b&gt;")
        .contains("default/&lt;web&gt;");
    // exactly one script element: the report's own filter
    assertThat(Pattern.compile("<script").matcher(html).results().count()).isEqualTo(1);
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

  @Test
  void render_summaryNamesTheWorstMomentsAndTheTotal() {
    String html = HtmlReport.render(tiny("web-1"));
    assertThat(html).contains("Pending at the end: <b>2 pod(s)</b>: default/web-1 (Unschedulable: 0/3 nodes are "
        + "available: 3 Insufficient nvidia.com/gpu.); default/q</li>");
    assertThat(html).contains("Most pending pods: <b>3</b> at 0:01").contains("Total cost: <b>0.05 $</b>")
        .contains("1 fault(s), 0 scaling decision(s)");
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
  void niceCeiling_oneTwoFive() {
    assertThat(HtmlReport.niceCeiling(0)).isEqualTo(1);
    assertThat(HtmlReport.niceCeiling(3)).isEqualTo(5);
    assertThat(HtmlReport.niceCeiling(17)).isEqualTo(20);
    assertThat(HtmlReport.niceCeiling(100)).isEqualTo(100);
    assertThat(HtmlReport.niceCeiling(101)).isEqualTo(200);
  }
}
