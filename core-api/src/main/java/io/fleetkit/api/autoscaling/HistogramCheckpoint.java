package io.fleetkit.api.autoscaling;

import java.time.Instant;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * A usage histogram as a {@link VerticalPodAutoscalerCheckpoint} keeps it ({@code HistogramCheckpoint} of
 * {@code autoscaling.k8s.io/v1}): the bucket weights scaled so that the heaviest is 10,000, near-zero ones left out,
 * and the total weight, which gives the scale back.
 *
 * @param referenceTimestamp the decay reference of a decaying histogram; {@code null} for a plain one
 * @param bucketWeights bucket index to scaled weight (not negative); kept in bucket order
 * @param totalWeight the histogram's total weight before scaling
 */
public record HistogramCheckpoint(@Nullable Instant referenceTimestamp, Map<Integer, Integer> bucketWeights,
    double totalWeight) {
  /** An empty checkpoint. */
  public static final HistogramCheckpoint EMPTY = new HistogramCheckpoint(null, Map.of(), 0.0);

  public HistogramCheckpoint {
    bucketWeights = Collections.unmodifiableSortedMap(new TreeMap<>(bucketWeights));
  }
}
