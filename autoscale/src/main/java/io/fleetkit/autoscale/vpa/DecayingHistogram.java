package io.fleetkit.autoscale.vpa;

import io.fleetkit.api.autoscaling.HistogramCheckpoint;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * A weighted histogram of samples ({@code recommender/util/histogram.go}), optionally decaying: with a half-life,
 * a sample's weight is multiplied by {@code 2^((t - reference) / halfLife)}, so that newer samples count more; when
 * that exponent would pass 100, the reference moves forward (rounded to the half-life) and all weights are rescaled
 * ({@code decaying_histogram.go}).
 *
 * <p>{@link #percentile} walks the buckets from the smallest until the accumulated weight reaches
 * {@code p * totalWeight} and returns the <b>end</b> of that bucket (the start of the last bucket when it is the last
 * one). Mutable; not thread-safe.
 */
public final class DecayingHistogram {
  /** The exponent above which the decay reference is moved ({@code maxDecayExponent}). */
  static final int MAX_DECAY_EXPONENT = 100;
  /** The weight of the heaviest bucket in a checkpoint ({@code MaxCheckpointWeight}). */
  public static final int MAX_CHECKPOINT_WEIGHT = 10_000;

  private final HistogramOptions options;
  private final double[] bucketWeight;
  private double totalWeight;
  private int minBucket;
  private int maxBucket;
  private final @Nullable Duration halfLife;
  private final long halfLifeNanos;
  private Instant referenceTimestamp;
  /** {@link #referenceTimestamp} in nanoseconds since the epoch (the hot path avoids Instant arithmetic). */
  private long referenceNanos;

  private DecayingHistogram(HistogramOptions options, @Nullable Duration halfLife, Instant reference) {
    this.options = Objects.requireNonNull(options, "options");
    this.bucketWeight = new double[options.numBuckets()];
    this.minBucket = options.numBuckets() - 1;
    this.maxBucket = 0;
    this.halfLife = halfLife;
    this.halfLifeNanos = halfLife == null ? 0 : halfLife.toNanos();
    this.referenceTimestamp = reference;
    this.referenceNanos = nanos(reference);
  }

  private static long nanos(Instant t) {
    return Math.addExact(Math.multiplyExact(t.getEpochSecond(), 1_000_000_000L), t.getNano());
  }

  /** A plain (non-decaying) histogram. */
  public static DecayingHistogram of(HistogramOptions options) {
    return new DecayingHistogram(options, null, Instant.EPOCH);
  }

  /**
   * A decaying histogram with its reference at {@code reference} (upstream starts from Go's zero time; any fixed
   * instant gives the same percentiles).
   *
   * @throws IllegalArgumentException when the half-life is not positive
   */
  public static DecayingHistogram decaying(HistogramOptions options, Duration halfLife, Instant reference) {
    if (halfLife.isNegative() || halfLife.isZero()) {
      throw new IllegalArgumentException("decaying histogram: halfLife " + halfLife + " must be > 0");
    }
    return new DecayingHistogram(options, halfLife, reference);
  }

  public HistogramOptions options() {
    return options;
  }

  /**
   * Adds a sample of {@code weight} (before decay) at {@code time}.
   *
   * @throws IllegalArgumentException when the weight is negative
   */
  public void addSample(double value, double weight, Instant time) {
    if (weight < 0) {
      throw new IllegalArgumentException("histogram: sample weight " + weight + " must not be negative");
    }
    double w = weight * decayFactor(time);
    int bucket = options.findBucket(value);
    bucketWeight[bucket] += w;
    totalWeight += w;
    if (bucket < minBucket && bucketWeight[bucket] >= options.epsilon()) {
      minBucket = bucket;
    }
    if (bucket > maxBucket && bucketWeight[bucket] >= options.epsilon()) {
      maxBucket = bucket;
    }
  }

  /** Removes a sample added before (e.g. a memory peak replaced by a higher one). */
  public void subtractSample(double value, double weight, Instant time) {
    if (weight < 0) {
      throw new IllegalArgumentException("histogram: sample weight " + weight + " must not be negative");
    }
    double w = weight * decayFactor(time);
    int bucket = options.findBucket(value);
    double eps = options.epsilon();
    totalWeight -= w;
    if (totalWeight < eps) {
      totalWeight = 0.0;
    }
    bucketWeight[bucket] -= w;
    if (bucketWeight[bucket] < eps) {
      bucketWeight[bucket] = 0.0;
    }
    updateMinAndMaxBucket();
  }

  /** Adds every bucket of {@code other} (same options; decaying histograms must share reference and half-life). */
  public void merge(DecayingHistogram other) {
    if (other.options != options) {
      throw new IllegalArgumentException("histogram: cannot merge histograms with different options");
    }
    if (other.halfLife != null && !other.referenceTimestamp.equals(referenceTimestamp)) {
      scaleTo(other.referenceTimestamp);
    }
    for (int b = other.minBucket; b <= other.maxBucket; b++) {
      bucketWeight[b] += other.bucketWeight[b];
    }
    totalWeight += other.totalWeight;
    if (other.minBucket < minBucket) {
      minBucket = other.minBucket;
    }
    if (other.maxBucket > maxBucket) {
      maxBucket = other.maxBucket;
    }
  }

  /** The {@code p}-th percentile (0..1) as described in the class comment; 0 when empty. */
  public double percentile(double p) {
    if (isEmpty()) {
      return 0.0;
    }
    double partial = 0.0;
    double threshold = p * totalWeight;
    int bucket = minBucket;
    for (; bucket < maxBucket; bucket++) {
      partial += bucketWeight[bucket];
      if (partial >= threshold) {
        break;
      }
    }
    if (bucket < options.numBuckets() - 1) {
      return options.bucketStart(bucket + 1);
    }
    return options.bucketStart(bucket);
  }

  /** A copy with the same options, decay, reference and weights. */
  public DecayingHistogram copy() {
    DecayingHistogram c = new DecayingHistogram(options, halfLife, referenceTimestamp);
    System.arraycopy(bucketWeight, 0, c.bucketWeight, 0, bucketWeight.length);
    c.totalWeight = totalWeight;
    c.minBucket = minBucket;
    c.maxBucket = maxBucket;
    return c;
  }

  /**
   * The histogram as a checkpoint ({@code SaveToChekpoint}): each bucket's weight scaled so that the heaviest is
   * {@link #MAX_CHECKPOINT_WEIGHT} and rounded half up, buckets that round to 0 left out, the total weight as it is,
   * and the decay reference of a decaying histogram.
   */
  public HistogramCheckpoint saveToCheckpoint() {
    double max = 0.0;
    for (int b = minBucket; b <= maxBucket; b++) {
      max = Math.max(max, bucketWeight[b]);
    }
    Map<Integer, Integer> weights = new TreeMap<>();
    if (max > 0.0) {
      double ratio = MAX_CHECKPOINT_WEIGHT / max;
      for (int b = minBucket; b <= maxBucket; b++) {
        long w = (long) Math.floor(bucketWeight[b] * ratio + 0.5);
        if (w > 0) {
          weights.put(b, (int) w);
        }
      }
    }
    return new HistogramCheckpoint(halfLife == null ? null : referenceTimestamp, weights, totalWeight);
  }

  /**
   * Adds a checkpoint's weights to this histogram ({@code LoadFromCheckpoint}): each bucket gets its scaled weight
   * times {@code totalWeight / sum of the scaled weights}; buckets that end below epsilon do not count as the first or
   * last bucket. A decaying histogram takes the checkpoint's reference (when it has one). A checkpoint whose weights
   * sum to 0 changes nothing.
   *
   * @throws IllegalArgumentException with upstream's message when the total weight is negative or a bucket is
   *     negative or beyond this histogram's buckets; the histogram is then unchanged
   */
  public void loadFromCheckpoint(HistogramCheckpoint checkpoint) {
    Objects.requireNonNull(checkpoint, "cannot load from empty checkpoint");
    if (checkpoint.totalWeight() < 0.0) {
      throw new IllegalArgumentException("cannot load checkpoint with negative weight " + checkpoint.totalWeight());
    }
    long sum = 0;
    for (Map.Entry<Integer, Integer> e : checkpoint.bucketWeights().entrySet()) {
      int bucket = e.getKey();
      sum += e.getValue();
      if (bucket >= options.numBuckets()) {
        throw new IllegalArgumentException("checkpoint has bucket " + bucket
            + " that is exceeding histogram buckets " + options.numBuckets());
      }
      if (bucket < 0) {
        throw new IllegalArgumentException("checkpoint has a negative bucket " + bucket);
      }
    }
    if (sum == 0) {
      return;
    }
    double ratio = checkpoint.totalWeight() / sum;
    for (Map.Entry<Integer, Integer> e : checkpoint.bucketWeights().entrySet()) {
      int bucket = e.getKey();
      minBucket = Math.min(minBucket, bucket);
      maxBucket = Math.max(maxBucket, bucket);
      bucketWeight[bucket] += e.getValue() * ratio;
    }
    totalWeight += checkpoint.totalWeight();
    updateMinAndMaxBucket();
    Instant ref = checkpoint.referenceTimestamp();
    if (halfLife != null && ref != null) {
      referenceTimestamp = ref;
      referenceNanos = nanos(ref);
    }
  }

  /** Whether no bucket holds at least epsilon weight. */
  public boolean isEmpty() {
    return bucketWeight[minBucket] < options.epsilon();
  }

  /** The weight of bucket {@code b} (in the current decay reference). */
  double bucketWeight(int b) {
    return bucketWeight[b];
  }

  /** The decay reference ({@link Instant#EPOCH} for a plain histogram). */
  public Instant referenceTimestamp() {
    return referenceTimestamp;
  }

  /** The total weight (in the current decay reference). */
  public double totalWeight() {
    return totalWeight;
  }

  /** Multiplies all weights by {@code factor}. */
  public void scale(double factor) {
    if (factor < 0) {
      throw new IllegalArgumentException("histogram: scale factor " + factor + " must not be negative");
    }
    for (int b = minBucket; b <= maxBucket; b++) {
      bucketWeight[b] *= factor;
    }
    totalWeight *= factor;
    updateMinAndMaxBucket();
  }

  /** Same options and the same weight in every bucket (within 1e-15 absolute). */
  public boolean sameWeights(DecayingHistogram other) {
    if (options != other.options || Math.abs(totalWeight - other.totalWeight) > 1e-15) {
      return false;
    }
    for (int b = 0; b < bucketWeight.length; b++) {
      if (Math.abs(bucketWeight[b] - other.bucketWeight[b]) > 1e-15) {
        return false;
      }
    }
    return true;
  }

  private double decayFactor(Instant time) {
    if (halfLife == null) {
      return 1.0;
    }
    long t = nanos(time);
    if ((double) (t - referenceNanos) > (double) halfLifeNanos * MAX_DECAY_EXPONENT) {
      shiftReferenceTimestamp(t);
    }
    return Math.pow(2.0, (double) (t - referenceNanos) / halfLifeNanos);
  }

  private void shiftReferenceTimestamp(long timeNanos) {
    // Move the reference by a whole number of half-lives and rescale the weights by 2^-halfLives.
    long halfLives = Math.round((double) (timeNanos - referenceNanos) / halfLifeNanos);
    scale(Math.scalb(1.0, (int) -halfLives));
    referenceNanos += halfLives * halfLifeNanos;
    referenceTimestamp = Instant.ofEpochSecond(Math.floorDiv(referenceNanos, 1_000_000_000L),
        Math.floorMod(referenceNanos, 1_000_000_000L));
  }

  private void scaleTo(Instant newRef) {
    Duration hl = Objects.requireNonNull(halfLife, "halfLife");
    double halfLives = (double) Duration.between(referenceTimestamp, newRef).toNanos() / hl.toNanos();
    scale(Math.pow(2.0, -halfLives));
    referenceTimestamp = newRef;
    referenceNanos = nanos(newRef);
  }

  private void updateMinAndMaxBucket() {
    double eps = options.epsilon();
    int last = options.numBuckets() - 1;
    while (bucketWeight[minBucket] < eps && minBucket < last) {
      minBucket++;
    }
    while (bucketWeight[maxBucket] < eps && maxBucket > 0) {
      maxBucket--;
    }
  }

  @Override
  public String toString() {
    return "Histogram[total=" + totalWeight + ", buckets " + minBucket + ".." + maxBucket + ", nonzero="
        + Arrays.stream(bucketWeight).filter(w -> w > 0).count() + "]";
  }
}
