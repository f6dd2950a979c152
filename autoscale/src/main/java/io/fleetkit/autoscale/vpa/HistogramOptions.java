package io.fleetkit.autoscale.vpa;

/**
 * The bucket scheme of a {@link DecayingHistogram} ({@code recommender/util/histogram_options.go}): linear buckets of one
 * size, or exponential buckets where bucket {@code i} starts at {@code first * (ratio^i - 1) / (ratio - 1)}.
 * Immutable and thread-safe.
 */
public final class HistogramOptions {
  /** The VPA's {@code minSampleWeight}. */
  public static final double MIN_SAMPLE_WEIGHT = 0.1;
  /** The VPA's histogram epsilon: {@code 0.001 * minSampleWeight}. */
  public static final double EPSILON = 0.001 * MIN_SAMPLE_WEIGHT;
  /** The VPA's bucket growth ({@code DefaultHistogramBucketSizeGrowth} 0.05, so ratio 1.05). */
  public static final double BUCKET_RATIO = 1.05;

  /** CPU: first bucket 0.01 cores, up to 1000 cores. */
  public static final HistogramOptions CPU = exponential(1000.0, 0.01, BUCKET_RATIO, EPSILON);
  /** Memory: first bucket 1e7 bytes (10 MB), up to 1e12 bytes (1 TB). */
  public static final HistogramOptions MEMORY = exponential(1e12, 1e7, BUCKET_RATIO, EPSILON);

  private final boolean linear;
  private final double bucketSize;
  private final double ratio;
  private final double logRatio;
  private final int numBuckets;
  private final double epsilon;
  private final double[] starts;

  private HistogramOptions(boolean linear, double bucketSize, double ratio, int numBuckets, double epsilon) {
    this.linear = linear;
    this.bucketSize = bucketSize;
    this.ratio = ratio;
    this.logRatio = Math.log(ratio);
    this.numBuckets = numBuckets;
    this.epsilon = epsilon;
    this.starts = new double[numBuckets];
    for (int b = 0; b < numBuckets; b++) {
      starts[b] = computeStart(b);
    }
  }

  /**
   * Linear buckets {@code [i * bucketSize, (i + 1) * bucketSize)} up to {@code maxValue}.
   *
   * @throws IllegalArgumentException when a size is not positive
   */
  public static HistogramOptions linear(double maxValue, double bucketSize, double epsilon) {
    if (!(maxValue > 0) || !(bucketSize > 0) || !(epsilon > 0)) {
      throw new IllegalArgumentException("linear histogram: maxValue " + maxValue + ", bucketSize " + bucketSize
          + " and epsilon " + epsilon + " must be > 0");
    }
    int n = (int) Math.ceil(maxValue / bucketSize) + 1;
    return new HistogramOptions(true, bucketSize, 1.0, n, epsilon);
  }

  /**
   * Exponential buckets: the first of {@code firstBucketSize}, each next {@code ratio} times larger.
   *
   * @throws IllegalArgumentException when a size is not positive or the ratio is not above 1
   */
  public static HistogramOptions exponential(double maxValue, double firstBucketSize, double ratio, double epsilon) {
    if (!(maxValue > 0) || !(firstBucketSize > 0) || !(ratio > 1) || !(epsilon > 0)) {
      throw new IllegalArgumentException("exponential histogram: maxValue " + maxValue + ", firstBucketSize "
          + firstBucketSize + ", epsilon " + epsilon + " must be > 0 and ratio " + ratio + " > 1");
    }
    int n = (int) Math.ceil(Math.log(maxValue * (ratio - 1) / firstBucketSize + 1) / Math.log(ratio)) + 1;
    return new HistogramOptions(false, firstBucketSize, ratio, n, epsilon);
  }

  public int numBuckets() {
    return numBuckets;
  }

  public double epsilon() {
    return epsilon;
  }

  /** The bucket holding {@code value}, clamped to the first and last bucket. */
  public int findBucket(double value) {
    int bucket;
    if (linear) {
      bucket = (int) (value / bucketSize);
    } else {
      if (value < bucketSize) {
        return 0;
      }
      bucket = (int) (Math.log(value * (ratio - 1) / bucketSize + 1) / logRatio);
    }
    if (bucket < 0) {
      return 0;
    }
    return Math.min(bucket, numBuckets - 1);
  }

  /** Where bucket {@code bucket} starts (bucket 0 starts at 0). */
  public double bucketStart(int bucket) {
    if (bucket < 0 || bucket >= numBuckets) {
      throw new IllegalArgumentException("histogram: bucket " + bucket + " out of [0, " + numBuckets + ")");
    }
    return starts[bucket];
  }

  private double computeStart(int bucket) {
    if (linear) {
      return bucket * bucketSize;
    }
    if (bucket == 0) {
      return 0.0;
    }
    return bucketSize * (Math.pow(ratio, bucket) - 1) / (ratio - 1);
  }
}
