package io.fleetkit.autoscale.vpa;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * Ports of kubernetes/autoscaler {@code vertical-pod-autoscaler/pkg/recommender/util/histogram_test.go} and
 * {@code decaying_histogram_test.go} (the non-checkpoint cases), with upstream's test options: linear buckets of 1
 * up to 10, epsilon 1e-15.
 */
final class HistogramTest {
  private static final double WEIGHT_EPSILON = 1e-15;
  private static final HistogramOptions TEST_OPTIONS = HistogramOptions.linear(10.0, 1.0, WEIGHT_EPSILON);
  private static final Instant ANY_TIME = Instant.EPOCH;
  private static final Instant START = Instant.ofEpochSecond(1234567890);

  private static void near(double actual, double expected) {
    assertThat(actual).isCloseTo(expected, within(Math.abs(expected) * 1e-15));
  }

  @Test // TestPercentilesEmptyHistogram
  void percentile_empty_zero() {
    DecayingHistogram h = DecayingHistogram.of(TEST_OPTIONS);
    for (double p = -0.5; p <= 1.5; p += 0.5) {
      assertThat(h.percentile(p)).isZero();
    }
  }

  @Test // TestPercentiles
  void percentile_weightedSamples_endOfBucket() {
    DecayingHistogram h = DecayingHistogram.of(TEST_OPTIONS);
    for (int i = 1; i <= 4; i++) {
      h.addSample(i, i, ANY_TIME);
    }
    double[][] expected = {{0.0, 2}, {0.1, 2}, {0.2, 3}, {0.3, 3}, {0.4, 4}, {0.5, 4}, {0.6, 4}, {0.7, 5}, {0.8, 5},
        {0.9, 5}, {1.0, 5}};
    for (double[] e : expected) {
      near(h.percentile(e[0]), e[1]);
    }
  }

  @Test // TestPercentileOutOfBounds
  void percentile_outOfRange_minAndMax() {
    DecayingHistogram h = DecayingHistogram.of(HistogramOptions.linear(1.0, 0.1, WEIGHT_EPSILON));
    h.addSample(0.1, 0.1, ANY_TIME);
    h.addSample(0.2, 0.2, ANY_TIME);
    near(h.percentile(-0.1), 0.2);
    near(h.percentile(1.1), 0.3);
    h.addSample(0.0, 0.1, ANY_TIME);
    h.addSample(1.0, 0.2, ANY_TIME);
    near(h.percentile(-0.1), 0.1);
    near(h.percentile(1.1), 1.0);
  }

  @Test // TestEmptyHistogram
  void isEmpty_belowEpsilon_empty() {
    DecayingHistogram h = DecayingHistogram.of(HistogramOptions.linear(1.0, 0.1, WEIGHT_EPSILON));
    assertThat(h.isEmpty()).isTrue();
    h.addSample(0.1, WEIGHT_EPSILON * 2.5, ANY_TIME);
    assertThat(h.isEmpty()).isFalse();
    h.subtractSample(0.1, WEIGHT_EPSILON, ANY_TIME);
    assertThat(h.isEmpty()).isFalse();
    h.subtractSample(0.1, WEIGHT_EPSILON, ANY_TIME);
    assertThat(h.isEmpty()).isTrue();
  }

  @Test // TestNonEmptyOnEpsilonAddition
  void isEmpty_epsilonSampleInNonEmpty_staysNonEmpty() {
    DecayingHistogram h = DecayingHistogram.of(HistogramOptions.linear(1.0, 0.1, WEIGHT_EPSILON));
    assertThat(h.isEmpty()).isTrue();
    h.addSample(9.9, WEIGHT_EPSILON * 3, ANY_TIME);
    assertThat(h.isEmpty()).isFalse();
    h.addSample(0.1, WEIGHT_EPSILON * 0.3, ANY_TIME);
    assertThat(h.isEmpty()).isFalse();
    h.addSample(999.9, WEIGHT_EPSILON * 0.3, ANY_TIME);
    assertThat(h.isEmpty()).isFalse();
  }

  @Test // TestHistogramMerge
  void merge_twoHistograms_sumOfSamples() {
    DecayingHistogram h1 = DecayingHistogram.of(TEST_OPTIONS);
    h1.addSample(1, 1, ANY_TIME);
    h1.addSample(2, 1, ANY_TIME);
    DecayingHistogram h2 = DecayingHistogram.of(TEST_OPTIONS);
    h2.addSample(2, 1, ANY_TIME);
    h2.addSample(3, 1, ANY_TIME);
    DecayingHistogram expected = DecayingHistogram.of(TEST_OPTIONS);
    expected.addSample(1, 1, ANY_TIME);
    expected.addSample(2, 1, ANY_TIME);
    expected.addSample(2, 1, ANY_TIME);
    expected.addSample(3, 1, ANY_TIME);
    h1.merge(h2);
    assertThat(h1.sameWeights(expected)).isTrue();
  }

  private static DecayingHistogram decaying() {
    return DecayingHistogram.decaying(TEST_OPTIONS, Duration.ofHours(1), Instant.EPOCH);
  }

  @Test // decaying_histogram_test.go TestPercentilesEmptyDecayingHistogram
  void decaying_empty_zero() {
    DecayingHistogram h = decaying();
    for (double p = -0.5; p <= 1.5; p += 0.5) {
      assertThat(h.percentile(p)).isZero();
    }
  }

  @Test // decaying_histogram_test.go TestSimpleDecay
  void decaying_oldHeavySample_almostGone() {
    DecayingHistogram h = decaying();
    h.addSample(2, 1000, START);
    h.addSample(1, 1, START.plus(Duration.ofHours(20)));
    near(h.percentile(0.999), 2);
    near(h.percentile(1.0), 3);
  }

  @Test // decaying_histogram_test.go TestLongtermDecay
  void decaying_beyondMaxExponent_renormalizes() {
    DecayingHistogram h = decaying();
    h.addSample(2, 1, START);
    h.addSample(1, 1, START.plus(Duration.ofHours(101)));
    near(h.percentile(1.0), 2);
  }

  @Test // decaying_histogram_test.go TestDecayingHistogramPercentiles
  void decaying_samplesOneHalfLifeApart_weightedByAge() {
    DecayingHistogram h = decaying();
    Instant t = START;
    for (int i = 1; i <= 4; i++) {
      h.addSample(i, i, t);
      t = t.plus(Duration.ofHours(1));
    }
    double[][] expected = {{0.00, 2}, {0.02, 2}, {0.03, 3}, {0.10, 3}, {0.11, 4}, {0.34, 4}, {0.35, 5}, {1.00, 5}};
    for (double[] e : expected) {
      near(h.percentile(e[0]), e[1]);
    }
  }

  @Test // decaying_histogram_test.go TestNoDecay
  void decaying_sameTime_likePlain() {
    DecayingHistogram h = decaying();
    for (int i = 1; i <= 4; i++) {
      h.addSample(i, i, START);
    }
    double[][] expected = {{0.0, 2}, {0.2, 3}, {0.1, 2}, {0.3, 3}, {0.4, 4}, {0.5, 4}, {0.6, 4}, {0.7, 5}, {0.8, 5},
        {0.9, 5}, {1.0, 5}};
    for (double[] e : expected) {
      near(h.percentile(e[0]), e[1]);
    }
  }

  @Test // decaying_histogram_test.go TestDecayingHistogramMerge
  void decaying_merge_sameAsAddingAll() {
    DecayingHistogram h1 = decaying();
    h1.addSample(1, 1, START);
    h1.addSample(2, 1, START.plus(Duration.ofHours(1)));
    DecayingHistogram h2 = decaying();
    h2.addSample(2, 1, START.plus(Duration.ofHours(2)));
    h2.addSample(3, 1, START.plus(Duration.ofHours(1)));
    DecayingHistogram expected = decaying();
    expected.addSample(2, 1, START.plus(Duration.ofHours(2)));
    expected.addSample(2, 1, START.plus(Duration.ofHours(1)));
    expected.addSample(3, 1, START.plus(Duration.ofHours(1)));
    expected.addSample(1, 1, START);
    h1.merge(h2);
    assertThat(h1.sameWeights(expected)).isTrue();
  }

  @Test
  void exponentialOptions_vpaCpuScheme_bucketBoundariesByFormula() {
    HistogramOptions o = HistogramOptions.CPU;
    // bucketStart(i) = 0.01 * (1.05^i - 1) / 0.05; numBuckets = ceil(log_1.05(1000 * 0.05 / 0.01 + 1)) + 1 = 176
    assertThat(o.numBuckets()).isEqualTo(176);
    assertThat(o.bucketStart(0)).isZero();
    assertThat(o.bucketStart(1)).isCloseTo(0.01, within(1e-15));
    assertThat(o.bucketStart(2)).isCloseTo(0.0205, within(1e-15));
    assertThat(o.findBucket(0.005)).isZero();
    assertThat(o.findBucket(0.5)).isEqualTo(25); // log_1.05(0.5 * 5 + 1) = 25.68
    assertThat(HistogramOptions.MEMORY.findBucket(1e7)).isEqualTo(1);
  }
}
