package io.fleetkit.api.rollouts;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.ValidationException;
import io.fleetkit.api.meta.ObjectMeta;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Metric rules of AnalysisTemplates: the subtests of Argo Rollouts' {@code utils/analysis/factory_test.go}
 * TestValidateMetrics, each with Argo's message under the field it concerns.
 */
final class AnalysisMetricValidationTest {
  private static final MetricProvider PROVIDER = new MetricProvider.Simulated("error-rate");

  private static AnalysisTemplate template(Metric... metrics) {
    return new AnalysisTemplate(ObjectMeta.of("default", "success-rate"), List.of(metrics), List.of());
  }

  private static Metric metric() {
    return Metric.of("success-rate", PROVIDER);
  }

  private static void refused(Metric m, String field, String message) {
    assertThatThrownBy(() -> template(m)).isInstanceOf(ValidationException.class)
        .hasMessageContaining("AnalysisTemplate default/success-rate")
        .hasMessageContaining("spec.metrics[0]." + field).hasMessageContaining(message);
  }

  // "Ensure count >= failureLimit + consecutiveSuccessLimit"
  @Test
  void count_belowFailureLimitPlusConsecutiveSuccessLimit_refused_zeroCountAccepted() {
    refused(metric().withCount(1).withLimits(2, 0, 4, 0), "count",
        "count (1) must be >= failureLimit + consecutiveSuccessLimit (2 + 0) if both >= 0");
    assertThatCode(() -> template(metric().withCount(0).withLimits(2, 0, 4, 0))).doesNotThrowAnyException();
  }

  // "Ensure count must be >= inconclusiveLimit"
  @Test
  void count_belowInconclusiveLimit_refused_zeroCountAccepted() {
    refused(metric().withCount(1).withLimits(0, 2, 4, 0), "count", "count must be >= inconclusiveLimit");
    assertThatCode(() -> template(metric().withCount(0).withLimits(0, 2, 4, 0))).doesNotThrowAnyException();
  }

  // "Validate metric"
  @Test
  void validMetric_accepted() {
    assertThatCode(() -> template(metric().withCount(2).withInterval(Duration.ofSeconds(60))
        .withLimits(2, 0, 4, 0))).doesNotThrowAnyException();
  }

  // "Ensure metric provider listed"
  @Test
  void noMetrics_refused() {
    assertThatThrownBy(AnalysisMetricValidationTest::template).isInstanceOf(ValidationException.class)
        .hasMessageContaining("spec.metrics").hasMessageContaining("at least one metric is required");
  }

  // "Ensure interval set when count > 1"
  @Test
  void countAboveOneWithoutInterval_refused() {
    refused(metric().withCount(2), "interval", "interval must be specified when count > 1");
  }

  // "Ensure no duplicate metric names"
  @Test
  void duplicateNames_refusedAtTheSecond() {
    assertThatThrownBy(() -> template(metric(), metric())).isInstanceOf(ValidationException.class)
        .hasMessageContaining("spec.metrics[1].name").hasMessageContaining("success-rate");
  }

  // "Ensure failureLimit >= -1"
  @Test
  void failureLimitBelowMinusOne_refused() {
    refused(metric().withLimits(-2, 0, 4, 0), "failureLimit", "failureLimit must be >= 0, or -1 to be disabled");
  }

  // "Ensure inconclusiveLimit >= 0"
  @Test
  void negativeInconclusiveLimit_refused() {
    refused(metric().withLimits(0, -1, 4, 0), "inconclusiveLimit", "inconclusiveLimit must be >= 0");
  }

  // "Ensure consecutiveErrorLimit >= 0"
  @Test
  void negativeConsecutiveErrorLimit_refused() {
    refused(metric().withLimits(0, 0, -1, 0), "consecutiveErrorLimit", "consecutiveErrorLimit must be >= 0");
  }

  // "Ensure consecutiveSuccessLimit >= 0"
  @Test
  void negativeConsecutiveSuccessLimit_refused() {
    refused(metric().withLimits(0, 0, 4, -1), "consecutiveSuccessLimit", "consecutiveSuccessLimit must be >= 0");
  }

  // "Ensure consecutiveSuccessLimit and failureLimit are not both disabled"
  @Test
  void failureLimitAndConsecutiveSuccessLimitBothDisabled_refused() {
    refused(metric().withLimits(-1, 0, 4, 0), "failureLimit",
        "failureLimit and consecutiveSuccessLimit cannot both be disabled");
  }
}
