package io.fleetkit.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Renders the bundled example's report in real headless Chromium ({@code -Dfleetkit.chromium=/usr/bin/chromium},
 * set by .ci/run through scripts/chromium.sh): no console message at all, every chart drawn with data, the filter
 * script applied, and a screenshot saved as {@code target/report-browser/cluster.png} for review. Skipped when the
 * property is unset; fails when it is set and the browser cannot run.
 */
final class HtmlReportBrowserTest {
  private static final int TIMEOUT_SECONDS = 120;
  private static final Path OUT = Path.of("target", "report-browser");
  private static String chromium;
  private static Path page;
  private static int charts;

  private record Browser(int exit, String stdout, String stderr) {}

  @BeforeAll
  static void renderTheExample() throws IOException {
    chromium = System.getProperty("fleetkit.chromium", "");
    assumeTrue(!chromium.isBlank(), "-Dfleetkit.chromium not set (scripts/chromium.sh env)");
    assertThat(Path.of(chromium)).as("-Dfleetkit.chromium=%s", chromium).isExecutable();
    SimulationRun run = ClusterSimulation.builder().objects(Examples.clusterObjects()).podEvents(false).build().run();
    charts = run.charts().size();
    Files.createDirectories(OUT);
    page = OUT.resolve("cluster.html").toAbsolutePath();
    Files.writeString(page, HtmlReport.render(run), StandardCharsets.UTF_8);
  }

  private static Browser chromium(Path profile, String... args) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>(List.of(chromium, "--headless", "--no-sandbox", "--disable-gpu",
        "--disable-dev-shm-usage", "--no-first-run", "--enable-logging=stderr", "--v=0",
        "--user-data-dir=" + profile.toAbsolutePath()));
    cmd.addAll(List.of(args));
    Path stdout = Files.createTempFile("chromium", ".out");
    Path stderr = Files.createTempFile("chromium", ".err");
    Process p = new ProcessBuilder(cmd).redirectOutput(stdout.toFile()).redirectError(stderr.toFile()).start();
    if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new AssertionError("chromium did not finish within " + TIMEOUT_SECONDS + " s: " + cmd);
    }
    return new Browser(p.exitValue(), Files.readString(stdout), Files.readString(stderr));
  }

  private static List<String> consoleLines(String log) {
    return log.lines().filter(l -> l.contains(":CONSOLE")).toList();
  }

  @Test
  void consoleDetection_seesAnErrorOnAControlPage() throws Exception {
    Path control = OUT.resolve("control.html").toAbsolutePath();
    Files.writeString(control, "<!DOCTYPE html><html><body><script>console.error('control error');"
        + "undefinedFunction();</script></body></html>");
    Browser b = chromium(Files.createTempDirectory("chromium-profile"), "--dump-dom", control.toUri().toString());
    assertThat(b.exit()).as(b.stderr()).isZero();
    assertThat(consoleLines(b.stderr())).as("console lines of the control page in:%n%s", b.stderr())
        .anyMatch(l -> l.contains("control error")).anyMatch(l -> l.contains("undefinedFunction"));
  }

  @Test
  void report_noConsoleMessageEveryChartWithDataFilterApplied() throws Exception {
    Browser b = chromium(Files.createTempDirectory("chromium-profile"), "--dump-dom",
        page.toUri() + "#filter=Zone%2F");
    assertThat(b.exit()).as(b.stderr()).isZero();
    assertThat(consoleLines(b.stderr())).as("console messages").isEmpty();
    String dom = b.stdout();
    Matcher figures = Pattern.compile("<figure class=\"chart\" data-chart=\"([^\"]+)\">(.*?)</figure>",
        Pattern.DOTALL).matcher(dom);
    int seen = 0;
    while (figures.find()) {
      seen++;
      Matcher line = Pattern.compile("<polyline [^>]*points=\"([^\"]+)\"").matcher(figures.group(2));
      assertThat(line.find()).as("chart %s has a line", figures.group(1)).isTrue();
      assertThat(line.group(1).split(" ").length).as("points of chart %s", figures.group(1)).isEqualTo(24 * 12 + 1);
    }
    assertThat(seen).isEqualTo(charts).isGreaterThanOrEqualTo(7);
    // the filter from the URL ran: only the zone events are shown
    Matcher shown = Pattern.compile("<span id=\"shown\">(\\d+)</span>").matcher(dom);
    assertThat(shown.find()).isTrue();
    assertThat(Integer.parseInt(shown.group(1))).isEqualTo(2); // ZoneFailed, ZoneRecovered
    assertThat(dom).contains("<tr class=\"marker\" data-object=\"Zone/zone-b\">");
    assertThat(Pattern.compile("<tr[^>]* hidden=\"\"").matcher(dom).results().count()).isPositive();
  }

  @Test
  void report_screenshotSaved() throws Exception {
    Path shot = OUT.resolve("cluster.png").toAbsolutePath();
    Files.deleteIfExists(shot);
    Browser b = chromium(Files.createTempDirectory("chromium-profile"), "--hide-scrollbars",
        "--window-size=1280,4000", "--screenshot=" + shot, page.toUri().toString());
    assertThat(b.exit()).as(b.stderr()).isZero();
    assertThat(consoleLines(b.stderr())).isEmpty();
    assertThat(shot).exists();
    byte[] png = Files.readAllBytes(shot);
    assertThat(png.length).isGreaterThan(20_000);
    assertThat(new String(png, 1, 3, StandardCharsets.US_ASCII)).isEqualTo("PNG");
  }
}
