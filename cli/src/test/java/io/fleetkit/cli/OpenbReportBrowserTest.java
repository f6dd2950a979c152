package io.fleetkit.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.scheduler.plugins.gpu.GpuPolicy;
import io.fleetkit.simulator.HeadlessChromium;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * Renders the page of {@code fleetkit trace openb --report} in real headless Chromium
 * ({@code -Dfleetkit.chromium=/usr/bin/chromium}, set by .ci/run through scripts/chromium.sh), as the simulation
 * report's browser test does: no console message at all, one line per policy and the bound drawn with data, and a
 * screenshot saved as {@code target/report-browser/openb.png} for review. Skipped when the property is unset; fails
 * when it is set and the browser cannot run.
 */
final class OpenbReportBrowserTest {
  private static final Path OUT = Path.of("target", "report-browser");
  private static HeadlessChromium chromium;
  private static Path page;

  @BeforeAll
  static void renderTheReport() throws IOException {
    chromium = HeadlessChromium.fromSystemProperty();
    Files.createDirectories(OUT);
    page = OUT.resolve("openb.html").toAbsolutePath();
    StringWriter err = new StringWriter();
    CommandLine cli = FleetKitCli.commandLine();
    cli.setOut(new PrintWriter(new StringWriter(), true));
    cli.setErr(new PrintWriter(err, true));
    assertThat(cli.execute("trace", "openb", "--policy", "FGD", "--report", page.toString())).as(err.toString())
        .isZero();
  }

  @Test
  void report_noConsoleMessageEveryPolicyAndTheBoundDrawn() throws Exception {
    HeadlessChromium.Run b = chromium.run("--dump-dom", page.toUri().toString());
    assertThat(b.exit()).as(b.stderr()).isZero();
    assertThat(b.consoleLines()).as("console messages").isEmpty();
    String dom = b.stdout();
    assertThat(dom).contains("<svg class=\"chart\"");
    for (GpuPolicy policy : GpuPolicy.values()) {
      Matcher line = Pattern.compile("<polyline class=\"series\" data-name=\"" + Pattern.quote(policy.displayName())
          + "\"[^>]* points=\"([^\"]+)\"").matcher(dom);
      assertThat(line.find()).as("a line for %s", policy.displayName()).isTrue();
      assertThat(line.group(1).split(" ").length).as("points of %s", policy.displayName()).isGreaterThan(50);
    }
    Matcher bound = Pattern.compile("<polyline class=\"bound\"[^>]* points=\"([^\"]+)\"").matcher(dom);
    assertThat(bound.find()).isTrue();
    assertThat(bound.group(1).split(" ").length).isGreaterThanOrEqualTo(10);
  }

  @Test
  void report_screenshotSaved() throws Exception {
    Path shot = OUT.resolve("openb.png").toAbsolutePath();
    Files.deleteIfExists(shot);
    HeadlessChromium.Run b = chromium.run("--hide-scrollbars", "--window-size=1280,1400", "--screenshot=" + shot,
        page.toUri().toString());
    assertThat(b.exit()).as(b.stderr()).isZero();
    assertThat(b.consoleLines()).isEmpty();
    byte[] png = Files.readAllBytes(shot);
    assertThat(png.length).isGreaterThan(20_000);
    assertThat(new String(png, 1, 3, StandardCharsets.US_ASCII)).isEqualTo("PNG");
  }
}
