package io.fleetkit.observability.prometheus;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Fuzzes {@link Exposition#parse}, the Prometheus text format reader: any text gives an exposition or an
 * {@link IllegalArgumentException} naming the line; what it gives holds only names the format allows (metric names
 * {@code [a-zA-Z_:][a-zA-Z0-9_:]*}, label names {@code [a-zA-Z_][a-zA-Z0-9_]*}), its queries ({@code labelNames},
 * {@code bucketBounds}) answer or give their documented exception, and its samples written back in the format read
 * back equal; never another exception, never a hang. The corpus holds a scrape of the scheduler's metrics, the
 * format documentation's escapes and timestamps, and broken lines.
 */
final class ExpositionFuzzTest {
  @FuzzTest(maxDuration = "30s")
  void parse_anyText_expositionOrError(byte[] data) {
    String text = new String(data, StandardCharsets.UTF_8);
    Exposition e;
    try {
      e = Exposition.parse(text);
    } catch (IllegalArgumentException ex) {
      assertThat(ex.getMessage()).startsWith("prometheus exposition line ");
      return;
    }
    StringBuilder written = new StringBuilder();
    for (Exposition.Sample s : e.samples()) {
      assertThat(s.name()).matches("[a-zA-Z_:][a-zA-Z0-9_:]*");
      assertThat(s.labels().keySet()).allSatisfy(k -> assertThat(k).matches("[a-zA-Z_][a-zA-Z0-9_]*"));
      e.labelNames(s.name());
      if (s.name().endsWith("_bucket")) {
        Map<String, String> labels = new LinkedHashMap<>(s.labels());
        labels.remove("le");
        try {
          e.bucketBounds(s.name().substring(0, s.name().length() - "_bucket".length()), labels);
        } catch (IllegalArgumentException ex) {
          assertThat(ex.getMessage()).startsWith("prometheus exposition: ").contains(" le ");
        }
      }
      written.append(s.name()).append('{');
      s.labels().forEach((k, v) -> written.append(k).append("=\"").append(v.replace("\\", "\\\\")
          .replace("\"", "\\\"").replace("\n", "\\n")).append("\","));
      double v = s.value();
      written.append("} ").append(Double.isNaN(v) ? "NaN" : v == Double.POSITIVE_INFINITY ? "+Inf"
          : v == Double.NEGATIVE_INFINITY ? "-Inf" : Double.toString(v)).append('\n');
    }
    assertThat(Exposition.parse(written.toString()).samples()).isEqualTo(e.samples());
  }
}
