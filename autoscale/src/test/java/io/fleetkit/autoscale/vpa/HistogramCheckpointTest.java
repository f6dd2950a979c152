package io.fleetkit.autoscale.vpa;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.autoscaling.HistogramCheckpoint;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

/**
 * Ports of the checkpoint cases of kubernetes/autoscaler {@code vertical-pod-autoscaler/pkg/recommender/util/}
 * {@code histogram_test.go} and {@code decaying_histogram_test.go} (master 55c37cd5), with upstream's test options:
 * linear buckets of 1 up to 10, epsilon 1e-15. Upstream's {@code anyTime} (Go's zero time) is the epoch here.
 */
final class HistogramCheckpointTest {
  private static final double WEIGHT_EPSILON = 1e-15;
  private static final HistogramOptions TEST_OPTIONS = HistogramOptions.linear(10.0, 1.0, WEIGHT_EPSILON);
  private static final Instant ANY_TIME = Instant.EPOCH;
  private static final Instant START = Instant.ofEpochSecond(1234567890);
  private static final int MAX = DecayingHistogram.MAX_CHECKPOINT_WEIGHT;
  /** How far saving can move a cumulative fraction of a 10-bucket histogram (see saveThenLoad_keepsPercentiles). */
  private static final double ROUNDING = 0.001;

  private static DecayingHistogram plain() {
    return DecayingHistogram.of(TEST_OPTIONS);
  }

  @Test // TestHistogramSaveToCheckpointEmpty
  void save_empty() {
    HistogramCheckpoint s = plain().saveToCheckpoint();
    assertThat(s.totalWeight()).isZero();
    assertThat(s.bucketWeights()).isEmpty();
    assertThat(s.referenceTimestamp()).as("a plain histogram has no decay reference").isNull();
  }

  @Test // TestHistogramSaveToCheckpoint
  void save_oneSample() {
    DecayingHistogram h = plain();
    h.addSample(1, 1, ANY_TIME);
    HistogramCheckpoint s = h.saveToCheckpoint();
    int bucket = TEST_OPTIONS.findBucket(1);
    assertThat(s.totalWeight()).isEqualTo(1.0);
    assertThat(s.bucketWeights()).containsExactly(Map.entry(bucket, MAX));
  }

  @Test // TestHistogramSaveToCheckpointDropsRelativelySmallValues
  void save_dropsRelativelySmallValues() {
    DecayingHistogram h = plain();
    double v1 = 1;
    double w1 = 1;
    double v2 = 2;
    double w2 = 100000;
    h.addSample(v1, w1, ANY_TIME);
    h.addSample(v2, w2, ANY_TIME);
    int bucket1 = TEST_OPTIONS.findBucket(v1);
    int bucket2 = TEST_OPTIONS.findBucket(v2);
    assertThat(bucket1).isNotEqualTo(bucket2);
    assertThat(w1 < (w2 / MAX) / 2).isTrue();
    HistogramCheckpoint s = h.saveToCheckpoint();
    assertThat(s.totalWeight()).isEqualTo(100001.0);
    assertThat(s.bucketWeights()).containsExactly(Map.entry(bucket2, MAX));
  }

  @Test // TestHistogramSaveToCheckpointForMultipleValues
  void save_multipleValues() {
    DecayingHistogram h = plain();
    h.addSample(1, 1, ANY_TIME);
    h.addSample(2, 10000, ANY_TIME);
    h.addSample(3, 50, ANY_TIME);
    int b1 = TEST_OPTIONS.findBucket(1);
    int b2 = TEST_OPTIONS.findBucket(2);
    int b3 = TEST_OPTIONS.findBucket(3);
    assertThat(new HashSet<>(List.of(b1, b2, b3))).hasSize(3);
    HistogramCheckpoint s = h.saveToCheckpoint();
    assertThat(s.totalWeight()).isEqualTo(10051.0);
    assertThat(s.bucketWeights()).containsOnly(Map.entry(b1, 1), Map.entry(b2, 10000), Map.entry(b3, 50));
  }

  @Test // TestHistogramLoadFromCheckpoint
  void load_scalesWeightsToTheTotal() {
    DecayingHistogram h = plain();
    h.loadFromCheckpoint(new HistogramCheckpoint(null, Map.of(0, 1, 1, 2), 6.0));
    assertThat(h.totalWeight()).isEqualTo(6.0);
    assertThat(h.bucketWeight(0)).isEqualTo(2.0);
    assertThat(h.bucketWeight(1)).isEqualTo(4.0);
  }

  @Test // TestHistogramLoadFromCheckpointReturnsErrorOnNegativeBucket
  void load_negativeBucket_error() {
    DecayingHistogram h = plain();
    assertThatThrownBy(() -> h.loadFromCheckpoint(new HistogramCheckpoint(null, Map.of(-1, 1), 1.0)))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("checkpoint has a negative bucket -1");
    assertThat(h.isEmpty()).as("unchanged").isTrue();
  }

  @Test // TestHistogramLoadFromCheckpointReturnsErrorOnInvalidBucket
  void load_bucketBeyondTheHistogram_error() {
    DecayingHistogram h = plain();
    assertThatThrownBy(() -> h.loadFromCheckpoint(new HistogramCheckpoint(null, Map.of(99, 1), 1.0)))
        .hasMessage("checkpoint has bucket 99 that is exceeding histogram buckets " + TEST_OPTIONS.numBuckets());
    assertThat(h.isEmpty()).isTrue();
  }

  @Test // TestHistogramLoadFromCheckpointReturnsErrorNegativeTotaWeight
  void load_negativeTotalWeight_error() {
    assertThatThrownBy(() -> plain().loadFromCheckpoint(new HistogramCheckpoint(null, Map.of(), -1.0)))
        .hasMessage("cannot load checkpoint with negative weight -1.0");
  }

  @Test // TestHistogramLoadFromCheckpointReturnsErrorOnNilInput
  void load_null_error() {
    assertThatThrownBy(() -> plain().loadFromCheckpoint(null)).hasMessage("cannot load from empty checkpoint");
  }

  @Test // TestHistogramIsNotEmptyAfterSavingAndLoadingCheckpointsWithBoundaryValues
  void saveThenLoad_boundaryWeights_notEmpty() {
    DecayingHistogram h = plain();
    h.addSample(1, WEIGHT_EPSILON, ANY_TIME);
    h.addSample(2, MAX * WEIGHT_EPSILON - WEIGHT_EPSILON, ANY_TIME);
    assertThat(h.isEmpty()).isFalse();
    DecayingHistogram loaded = plain();
    loaded.loadFromCheckpoint(h.saveToCheckpoint());
    assertThat(loaded.isEmpty()).isFalse();
  }

  @Test // decaying_histogram_test.go TestDecayingHistogramSaveToCheckpoint
  void decaying_save_keepsTheReference() {
    DecayingHistogram d = DecayingHistogram.decaying(TEST_OPTIONS, Duration.ofHours(1), ANY_TIME);
    d.addSample(2, 1, START.plus(Duration.ofHours(100)));
    assertThat(d.referenceTimestamp()).isNotEqualTo(ANY_TIME);
    HistogramCheckpoint c = d.saveToCheckpoint();
    assertThat(c.referenceTimestamp()).isEqualTo(d.referenceTimestamp());
    assertThat(c.bucketWeights()).isNotEmpty();
    assertThat(c.totalWeight()).isNotZero();
  }

  @Test // decaying_histogram_test.go TestDecayingHistogramLoadFromCheckpoint
  void decaying_load_takesTheReference() {
    Instant timestamp = ZonedDateTime.of(2018, 1, 2, 3, 4, 5, 0, ZoneOffset.UTC).toInstant();
    DecayingHistogram d = DecayingHistogram.decaying(TEST_OPTIONS, Duration.ofHours(1), ANY_TIME);
    d.loadFromCheckpoint(new HistogramCheckpoint(timestamp, Map.of(0, 1), 6.0));
    assertThat(d.isEmpty()).isFalse();
    assertThat(d.referenceTimestamp()).isEqualTo(timestamp);
  }

  /**
   * FleetKit's own: a histogram saved and loaded keeps its total weight, no saved weight passes
   * {@link DecayingHistogram#MAX_CHECKPOINT_WEIGHT}, and each of its percentiles is one the original has within
   * {@link #ROUNDING} of the same fraction. Saving rounds each bucket's weight, scaled so that the largest is 10,000,
   * to a whole number (an error of at most 0.5 on a total of at least 10,000), so over the ten buckets the cumulative
   * fractions move by at most 10 x 0.5 / 10,000 = 0.0005. A percentile whose fraction falls that close to a bucket's
   * boundary may move to the next bucket that holds weight, which empty buckets between can put more than one bucket
   * away: a bound in value units (one bucket) does not hold, a bound in fractions does.
   */
  @Property(tries = 200)
  void saveThenLoad_keepsPercentiles(
      @ForAll @Size(min = 1, max = 30) List<@DoubleRange(min = 0, max = 9.99) Double> values,
      @ForAll @Size(min = 30, max = 30) List<@DoubleRange(min = 0.5, max = 100) Double> weights) {
    DecayingHistogram h = plain();
    for (int i = 0; i < values.size(); i++) {
      h.addSample(values.get(i), weights.get(i), ANY_TIME);
    }
    HistogramCheckpoint c = h.saveToCheckpoint();
    assertThat(c.bucketWeights().values()).allSatisfy(w -> assertThat(w).isBetween(1, MAX));
    assertThat(c.bucketWeights().values()).contains(MAX);
    DecayingHistogram loaded = plain();
    loaded.loadFromCheckpoint(c);
    assertThat(loaded.totalWeight()).isCloseTo(h.totalWeight(), org.assertj.core.api.Assertions.within(1e-9));
    for (double p : new double[] {0.5, 0.9, 0.95}) {
      assertThat(loaded.percentile(p)).as("p%s", p).isBetween(h.percentile(p - ROUNDING), h.percentile(p + ROUNDING));
    }
  }
}
