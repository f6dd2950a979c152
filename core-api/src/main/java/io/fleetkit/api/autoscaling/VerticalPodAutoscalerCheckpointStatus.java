package io.fleetkit.api.autoscaling;

import java.time.Instant;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A container's usage history as the VPA recommender saved it.
 *
 * @param lastUpdateTime when it was saved
 * @param version the format's version; the recommender reads only its own ({@code v3})
 * @param cpuHistogram the CPU usage histogram
 * @param memoryHistogram the histogram of daily memory peaks, without the current window's peak
 * @param firstSampleStart the first sample's start; {@code null} when there was none
 * @param lastSampleStart the last sample's start; {@code null} when there was none
 * @param totalSamplesCount the samples taken (not negative)
 */
public record VerticalPodAutoscalerCheckpointStatus(@Nullable Instant lastUpdateTime, String version,
    HistogramCheckpoint cpuHistogram, HistogramCheckpoint memoryHistogram, @Nullable Instant firstSampleStart,
    @Nullable Instant lastSampleStart, long totalSamplesCount) {
  /** The status of a checkpoint not yet written. */
  public static final VerticalPodAutoscalerCheckpointStatus EMPTY = new VerticalPodAutoscalerCheckpointStatus(null,
      "", HistogramCheckpoint.EMPTY, HistogramCheckpoint.EMPTY, null, null, 0);

  public VerticalPodAutoscalerCheckpointStatus {
    Objects.requireNonNull(version, "version");
    Objects.requireNonNull(cpuHistogram, "cpuHistogram");
    Objects.requireNonNull(memoryHistogram, "memoryHistogram");
  }
}
