package io.fleetkit.autoscale.vpa;

import io.fleetkit.api.autoscaling.VerticalPodAutoscalerCheckpointStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The usage history of one container (or of all containers of one name under a VPA): upstream's
 * {@code AggregateContainerState} plus the per-container memory window of {@code ContainerState}.
 *
 * <ul>
 *   <li>CPU: every sample goes into a decaying histogram (24 h half-life) with weight
 *       {@code max(requestCores, 0.1)} (an unknown request gives the minimum weight, as in current upstream).</li>
 *   <li>Memory: one sample per 24 h window, the window's <b>peak</b>, timestamped at the window end; a higher sample
 *       in the same window replaces the peak (subtract the old, add the new).</li>
 *   <li>OOM: {@code used = max(request, peak)}, then a memory sample of {@code max(used + 100 MiB, 1.2 * used)}.</li>
 * </ul>
 *
 * Mutable; not thread-safe.
 */
public final class ContainerUsageState {
  /** Half-life of both histograms (upstream's {@code cpu/memory-histogram-decay-half-life}). */
  public static final Duration HALF_LIFE = Duration.ofHours(24);
  /** Memory aggregation interval: one peak per day. */
  public static final Duration MEMORY_AGGREGATION_INTERVAL = Duration.ofHours(24);
  /** {@code oom-min-bump-up-bytes}. */
  public static final long OOM_MIN_BUMP_UP_BYTES = 100L * 1024 * 1024;
  /** {@code oom-bump-up-ratio}. */
  public static final double OOM_BUMP_UP_RATIO = 1.2;
  /** The checkpoint format this history writes and reads ({@code SupportedCheckpointVersion}). */
  public static final String CHECKPOINT_VERSION = "v3";

  private final DecayingHistogram cpuUsage;
  private final DecayingHistogram memoryPeaks;
  private @Nullable Instant firstSampleStart;
  private @Nullable Instant lastSampleStart;
  private long totalSamplesCount;

  private @Nullable Instant windowEnd;
  private @Nullable Instant lastMemorySampleStart;
  private long memoryPeak;
  private long oomPeak;

  /**
   * @param reference the decay reference of both histograms (any fixed instant; aligned to a day for readability)
   */
  public ContainerUsageState(Instant reference) {
    this.cpuUsage = DecayingHistogram.decaying(HistogramOptions.CPU, HALF_LIFE, reference);
    this.memoryPeaks = DecayingHistogram.decaying(HistogramOptions.MEMORY, HALF_LIFE, reference);
  }

  /** A state whose decay reference is the Unix epoch. */
  public static ContainerUsageState create() {
    return new ContainerUsageState(Instant.EPOCH);
  }

  /**
   * Records a CPU usage sample ({@code addCPUSample}).
   *
   * @param usageMillicores the measured usage
   * @param requestMillicores the container's request when measured, 0 when unknown
   */
  public void addCpuSample(Instant measureStart, long usageMillicores, long requestMillicores) {
    double weight = Math.max(requestMillicores / 1000.0, HistogramOptions.MIN_SAMPLE_WEIGHT);
    cpuUsage.addSample(usageMillicores / 1000.0, weight, measureStart);
    Instant last = lastSampleStart;
    if (last == null || measureStart.isAfter(last)) {
      lastSampleStart = measureStart;
    }
    Instant first = firstSampleStart;
    if (first == null || measureStart.isBefore(first)) {
      firstSampleStart = measureStart;
    }
    totalSamplesCount++;
  }

  /**
   * Records a memory usage sample (the working set); only a new daily peak changes the histogram. Samples older
   * than the last one are dropped.
   *
   * @return whether the sample was accepted
   */
  public boolean addMemorySample(Instant measureStart, long usageBytes) {
    return addMemory(measureStart, usageBytes, false);
  }

  /**
   * Records an OOM kill ({@code RecordOOM}): a memory sample of {@code max(used + 100 MiB, 1.2 * used)} where
   * {@code used = max(requestBytes, current peak)}.
   *
   * @return whether it was recorded (an OOM older than the current window is dropped)
   */
  public boolean recordOom(Instant timestamp, long requestBytes) {
    Instant end = windowEnd;
    if (end != null && timestamp.isBefore(end.minus(MEMORY_AGGREGATION_INTERVAL))) {
      return false;
    }
    long used = Math.max(requestBytes, memoryPeak);
    long needed = Math.max(used + OOM_MIN_BUMP_UP_BYTES, ResourceAmounts.scale(used, OOM_BUMP_UP_RATIO));
    return addMemory(timestamp, needed, true);
  }

  private boolean addMemory(Instant ts, long usage, boolean isOom) {
    Instant lastMem = lastMemorySampleStart;
    if (!isOom && lastMem != null && ts.isBefore(lastMem)) {
      return false;
    }
    lastMemorySampleStart = ts;
    Instant end = windowEnd;
    if (end == null) {
      end = ts;
      windowEnd = ts;
    }
    boolean addNewPeak = false;
    if (ts.isBefore(end)) {
      long oldMax = maxMemoryPeak();
      if (oldMax != 0 && usage > oldMax) {
        memoryPeaks.subtractSample((double) oldMax, 1.0, end);
        addNewPeak = true;
      }
    } else {
      long interval = MEMORY_AGGREGATION_INTERVAL.toNanos();
      long since = Duration.between(end, ts).toNanos();
      windowEnd = end.plusNanos((since / interval) * interval + interval);
      memoryPeak = 0;
      oomPeak = 0;
      addNewPeak = true;
    }
    if (addNewPeak) {
      memoryPeaks.addSample((double) usage, 1.0, Objects.requireNonNull(windowEnd));
      if (isOom) {
        oomPeak = usage;
      } else {
        memoryPeak = usage;
      }
    }
    return true;
  }

  /**
   * This history as a checkpoint ({@code AggregateContainerState.SaveToCheckpoint}, with the checkpoint writer's
   * {@code subtractCurrentContainerMemoryPeak}): both histograms and the sample counts, version
   * {@link #CHECKPOINT_VERSION}, saved at {@code now}. The memory peak of the window still open at {@code now} is left
   * out, so that a history restored from the checkpoint does not hold two peaks for that window once samples arrive
   * again.
   */
  public VerticalPodAutoscalerCheckpointStatus saveToCheckpoint(Instant now) {
    DecayingHistogram memory = memoryPeaks;
    Instant end = windowEnd;
    long peak = maxMemoryPeak();
    if (end != null && now.isBefore(end) && peak > 0) {
      memory = memoryPeaks.copy();
      memory.subtractSample((double) peak, 1.0, end);
    }
    return new VerticalPodAutoscalerCheckpointStatus(now, CHECKPOINT_VERSION, cpuUsage.saveToCheckpoint(),
        memory.saveToCheckpoint(), firstSampleStart, lastSampleStart, totalSamplesCount);
  }

  /**
   * Adds a checkpoint's history to this one ({@code AggregateContainerState.LoadFromCheckpoint}): the sample counts
   * and times are taken, the histograms' weights added.
   *
   * @throws IllegalArgumentException when the checkpoint's version is not {@link #CHECKPOINT_VERSION}
   *     ({@code unsupported checkpoint version v2}) or a histogram cannot be loaded; this history is then unchanged
   */
  public void loadFromCheckpoint(VerticalPodAutoscalerCheckpointStatus checkpoint) {
    if (!checkpoint.version().equals(CHECKPOINT_VERSION)) {
      throw new IllegalArgumentException("unsupported checkpoint version " + checkpoint.version());
    }
    // both histograms are checked before either is changed
    DecayingHistogram memory = memoryPeaks.copy();
    memory.loadFromCheckpoint(checkpoint.memoryHistogram());
    DecayingHistogram cpu = cpuUsage.copy();
    cpu.loadFromCheckpoint(checkpoint.cpuHistogram());
    memoryPeaks.loadFromCheckpoint(checkpoint.memoryHistogram());
    cpuUsage.loadFromCheckpoint(checkpoint.cpuHistogram());
    totalSamplesCount = checkpoint.totalSamplesCount();
    firstSampleStart = checkpoint.firstSampleStart();
    lastSampleStart = checkpoint.lastSampleStart();
  }

  /** The larger of the window's usage peak and OOM peak ({@code GetMaxMemoryPeak}). */
  public long maxMemoryPeak() {
    return Math.max(memoryPeak, oomPeak);
  }

  public DecayingHistogram cpuUsage() {
    return cpuUsage;
  }

  public DecayingHistogram memoryPeaks() {
    return memoryPeaks;
  }

  public long totalSamplesCount() {
    return totalSamplesCount;
  }

  public @Nullable Instant firstSampleStart() {
    return firstSampleStart;
  }

  public @Nullable Instant lastSampleStart() {
    return lastSampleStart;
  }

  /**
   * How much history backs a recommendation ({@code getConfidence}): {@code min(lifespan / interval,
   * samples / interval-in-minutes)}, one sample a minute for a whole interval giving 1.
   */
  public double confidence(Duration confidenceInterval) {
    Instant first = firstSampleStart;
    Instant last = lastSampleStart;
    double lifespan = first == null || last == null ? 0.0
        : (double) Duration.between(first, last).toNanos() / confidenceInterval.toNanos();
    double samples = (double) totalSamplesCount / ((double) confidenceInterval.toNanos() / 60e9);
    return Math.min(lifespan, samples);
  }
}
