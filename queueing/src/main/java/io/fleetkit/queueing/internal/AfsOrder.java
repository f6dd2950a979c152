package io.fleetkit.queueing.internal;

import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * The queue order of a ClusterQueue with usage-based admission fair sharing (Kueue's {@code queueOrderingFunc}): the
 * workload whose LocalQueue has the lower {@linkplain LocalQueueUsageSampler#usage usage} first, then {@link
 * PendingWorkload#ORDER} (priority, queue-order time, submission). A LocalQueue the engine does not have weighs 1.
 * The usages are computed once per LocalQueue while the {@linkplain AfsUsageLedger#version() ledger} does not change,
 * so that one sort sees one value per LocalQueue (a total order); the {@link PendingQueue} reorders its heap when the
 * version moves.
 */
final class AfsOrder implements Comparator<PendingWorkload> {
  private final LocalQueueUsageSampler sampler;
  private final ToDoubleFunction<String> weightOf;
  private final Map<String, Double> usages = new HashMap<>();
  private long version = -1;

  /**
   * @param weightOf the fair sharing weight of a LocalQueue key ({@code namespace/name}), 1 for one the engine does
   *     not have
   */
  AfsOrder(LocalQueueUsageSampler sampler, ToDoubleFunction<String> weightOf) {
    this.sampler = sampler;
    this.weightOf = weightOf;
  }

  /** The version of the state the order reads; a change means the order may have changed. */
  long version() {
    return sampler.ledger().version();
  }

  /** The usage the order gives LocalQueue {@code lqKey} now. */
  double usage(String lqKey) {
    long v = version();
    if (v != version) {
      usages.clear();
      version = v;
    }
    return usages.computeIfAbsent(lqKey, k -> sampler.usage(k, weightOf.applyAsDouble(k)));
  }

  @Override
  public int compare(PendingWorkload a, PendingWorkload b) {
    int c = Double.compare(usage(lqKey(a)), usage(lqKey(b)));
    return c != 0 ? c : PendingWorkload.ORDER.compare(a, b);
  }

  static String lqKey(PendingWorkload p) {
    return p.workload.namespace() + "/" + p.workload.queueName();
  }
}
