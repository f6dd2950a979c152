package io.fleetkit.scheduler.internal;

import io.fleetkit.api.framework.Binder;
import io.fleetkit.api.framework.SchedulerProfile;
import io.fleetkit.scheduler.Evictor;
import io.fleetkit.scheduler.PluginRegistry;
import io.fleetkit.scheduler.ScheduleResult;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import org.jspecify.annotations.Nullable;

/**
 * Everything {@link io.fleetkit.scheduler.SchedulerBuilder} collected, defaults applied except clock/ticker.
 *
 * @param inlineWork below this many node×plugin evaluations a cycle filters or scores on the scheduling thread alone
 *     (a hand-off to the worker pool costs about as much as 500 cheap evaluations); tests set 0 to exercise the
 *     parallel path on small clusters
 * @param bindParallelism threads that run the binding half of binding cycles (PreBind, Bind) while the next pod is
 *     scheduled; 0 binds on the scheduling thread
 */
public record SchedulerConfig(List<SchedulerProfile> profiles, PluginRegistry registry, @Nullable Clock clock,
    @Nullable LongSupplier ticker, int parallelism, long seed, Binder binder, Evictor evictor,
    Duration initialBackoff, Duration maxBackoff, Duration maxInUnschedulable, Duration assumedPodTtl,
    @Nullable Consumer<ScheduleResult> listener, int inlineWork, int bindParallelism, int metricsSamplePercent) {
  /** The default {@link #metricsSamplePercent}: kube-scheduler's {@code pluginMetricsSamplePercent}. */
  public static final int DEFAULT_METRICS_SAMPLE_PERCENT = 10;
  /** The default {@link #inlineWork}. */
  public static final int DEFAULT_INLINE_WORK = 512;
}
