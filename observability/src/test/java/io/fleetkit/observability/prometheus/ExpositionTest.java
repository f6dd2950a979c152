package io.fleetkit.observability.prometheus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The Prometheus text format reader: the format documentation's example, and the lines it refuses (each found by
 * {@link ExpositionFuzzTest}, whose corpus keeps them: {@code bucket-le-not-a-number.txt}, {@code odd-names.txt}).
 */
final class ExpositionTest {
  @Test
  void parse_formatDocumentationExample_escapesTimestampsAndInfinities() {
    Exposition e = Exposition.parse("""
        # HELP http_requests_total The total number of HTTP requests.
        # TYPE http_requests_total counter
        http_requests_total{method="post",code="200"} 1027 1395066363000
        msdos_file_access_time_seconds{path="C:\\\\DIR\\\\FILE.TXT",\
        error="Cannot find file:\\n\\"FILE.TXT\\""} 1.458255915e9
        metric_without_timestamp_and_labels 12.47
        something_weird{problem="division by zero"} +Inf -3982045
        # TYPE h histogram
        h_bucket{le="0.05"} 24054
        h_bucket{le="+Inf"} 144320
        """);
    assertThat(e.types()).containsEntry("http_requests_total", "counter").containsEntry("h", "histogram");
    assertThat(e.value("http_requests_total", Map.of("method", "post", "code", "200"))).contains(1027.0);
    assertThat(e.samples("msdos_file_access_time_seconds").get(0).labels())
        .containsEntry("path", "C:\\DIR\\FILE.TXT").containsEntry("error", "Cannot find file:\n\"FILE.TXT\"");
    assertThat(e.value("something_weird", Map.of("problem", "division by zero"))).contains(Double.POSITIVE_INFINITY);
    assertThat(e.bucketBounds("h", Map.of())).containsExactly(0.05, Double.POSITIVE_INFINITY);
  }

  /** A histogram bucket whose le is not a number was read, and bucketBounds then threw NumberFormatException. */
  @Test
  void bucketLeNotAFloat_refusedInAHistogram_documentedErrorOtherwise() {
    assertThatThrownBy(() -> Exposition.parse("# TYPE x histogram\nx_bucket{le=\"abc\"} 1\n"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("prometheus exposition line 2 \"x_bucket{le=\"abc\"} 1\": a histogram bucket's le label must be"
            + " a float, not abc");
    Exposition untyped = Exposition.parse("x_bucket{le=\"abc\"} 1\n");
    assertThatThrownBy(() -> untyped.bucketBounds("x", Map.of())).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("x_bucket {le=abc}: le value abc must be a float");
  }

  /** Each was read: a sample without a name, a label without one, a label twice, words after the value. */
  @Test
  void malformedLines_refusedNamingLineAndRule() {
    for (List<String> c : List.of(
        List.of("{a=\"1\"} 2", "a sample must start with a metric name"),
        List.of("x{=\"\"} 3", "label name at column 3 must match"),
        List.of("x{a=\"1\",a=\"2\"} 1", "label a given twice"),
        List.of("x{a=\"\\t\"} 1", "invalid escape sequence \\t"),
        List.of("x{a=\"1\" b=\"2\"} 1", "label a must be followed by , or }"),
        List.of("x 1 2 3", "after the value only a timestamp"),
        List.of("x 1 later", "after the value only a timestamp"),
        List.of("x 1d", "value 1d must be a float"),
        List.of("x 0x1p3", "value 0x1p3 must be a float"),
        List.of("x", "no value"),
        List.of("# TYPE x countr", "type countr of x must be one of"),
        List.of("# TYPE x counter\n# TYPE x gauge", "second TYPE line for metric name x"))) {
      assertThatThrownBy(() -> Exposition.parse(c.get(0))).as(c.get(0)).isInstanceOf(IllegalArgumentException.class)
          .hasMessageStartingWith("prometheus exposition line ").hasMessageContaining(c.get(1));
    }
  }
}
