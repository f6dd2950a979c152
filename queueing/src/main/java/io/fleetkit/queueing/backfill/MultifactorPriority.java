package io.fleetkit.queueing.backfill;

import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Slurm's {@code priority/multifactor} ({@code doc/html/priority_multifactor.shtml},
 * {@code src/plugins/priority/multifactor}):
 *
 * <pre>
 * priority = PriorityWeightAge × age + PriorityWeightFairshare × fair-share + PriorityWeightJobSize × job size
 *          + PriorityWeightPartition × partition + PriorityWeightQOS × QOS − nice       (at least 1, 32-bit)
 * age        = min(1, (now − eligible time) / PriorityMaxAge)
 * fair-share = FairShareTree.factor(user, account)                         (classic: 2^(−U_E/S/d))
 * job size   = nodes / cluster nodes, averaged with cpus / cluster cpus when the job counts CPUs;
 *              PriorityFavorSmall: (cluster nodes − nodes) / cluster nodes (and likewise for CPUs);
 *              SMALL_RELATIVE_TO_TIME: CPUs / time limit in minutes / cluster CPUs
 * partition  = PriorityJobFactor / the largest PriorityJobFactor
 * QOS        = QOS priority / the largest QOS priority
 * </pre>
 *
 * Jobs are considered by partition PriorityTier (higher first), then priority (higher first), then eligible time, then
 * id. The association factor, site factor and TRES factors are not modelled.
 */
public final class MultifactorPriority {
  private final PriorityWeights weights;
  private final int clusterNodes;
  private final int clusterCpus;
  private final Map<String, Partition> partitions = new HashMap<>();
  private final Map<String, Qos> qosByName = new HashMap<>();
  private final int maxPartitionFactor;
  private final int maxQosPriority;
  private final @Nullable FairShareTree fairShare;

  /**
   * @param clusterNodes the number of nodes in the cluster (at least 1)
   * @param clusterCpus the number of CPUs in the cluster (at least {@code clusterNodes})
   * @param fairShare the fair-share tree, or {@code null} for a fair-share factor of 0
   */
  public MultifactorPriority(
      PriorityWeights weights,
      int clusterNodes,
      int clusterCpus,
      Collection<Partition> partitions,
      Collection<Qos> qos,
      @Nullable FairShareTree fairShare) {
    this.weights = Objects.requireNonNull(weights, "weights");
    if (clusterNodes < 1 || clusterCpus < clusterNodes) {
      throw new IllegalArgumentException("multifactor priority: cluster of " + clusterNodes + " nodes and "
          + clusterCpus + " cpus must have at least 1 node and 1 cpu per node");
    }
    this.clusterNodes = clusterNodes;
    this.clusterCpus = clusterCpus;
    int maxPart = 0;
    for (Partition p : partitions) {
      this.partitions.put(p.name(), p);
      maxPart = Math.max(maxPart, p.priorityJobFactor());
    }
    int maxQos = 0;
    for (Qos q : qos) {
      qosByName.put(q.name(), q);
      maxQos = Math.max(maxQos, q.priority());
    }
    this.maxPartitionFactor = maxPart;
    this.maxQosPriority = maxQos;
    this.fairShare = fairShare;
  }

  Partition partition(BatchJob job) {
    Partition p = partitions.get(job.partition());
    if (p == null) {
      throw new IllegalArgumentException("job " + job.id() + ": partition \"" + job.partition() + "\" is not known");
    }
    return p;
  }

  /** The priority of {@code job} at {@code now}, with its factors. */
  public PriorityFactors factors(BatchJob job, Instant now) {
    Partition part = partition(job);
    Duration waited = Duration.between(job.eligibleTime(), now);
    double age = waited.isNegative() ? 0
        : Math.min(1.0, (double) waited.toMillis() / weights.maxAge().toMillis());
    double fs = 0;
    FairShareTree tree = fairShare;
    if (tree != null && weights.fairShare() != 0) {
      fs = tree.factor(job.user(), job.account());
    }
    double size = jobSize(job, part);
    double partitionFactor = maxPartitionFactor == 0 ? 0 : (double) part.priorityJobFactor() / maxPartitionFactor;
    double qosFactor = 0;
    String qosName = job.qos();
    if (qosName != null) {
      Qos q = qosByName.get(qosName);
      if (q == null) {
        throw new IllegalArgumentException("job " + job.id() + ": qos \"" + qosName + "\" is not known");
      }
      qosFactor = maxQosPriority == 0 ? 0 : (double) q.priority() / maxQosPriority;
    }
    double priority = weights.age() * age + weights.fairShare() * fs + weights.jobSize() * size
        + weights.partition() * partitionFactor + weights.qos() * qosFactor - job.nice();
    long p = priority < 1 ? 1 : (long) Math.min(priority, (double) PriorityWeights.MAX_WEIGHT);
    return new PriorityFactors(age, fs, size, partitionFactor, qosFactor, job.nice(), p);
  }

  private double jobSize(BatchJob job, Partition part) {
    double js;
    if (weights.smallRelativeToTime()) {
      double cpus = Math.max(job.cpus(), (double) job.nodes() * clusterCpus / clusterNodes);
      Duration limit = job.timeLimit() != null ? job.timeLimit()
          : part.defaultTime() != null ? part.defaultTime() : part.maxTime();
      double minutes = limit == null ? 1 : Math.max(1, limit.toMinutes());
      js = cpus / minutes / clusterCpus;
    } else if (weights.favorSmall()) {
      js = (double) (clusterNodes - job.nodes()) / clusterNodes;
      if (job.cpus() > 0) {
        js = (js + (double) (clusterCpus - job.cpus()) / clusterCpus) / 2;
      }
    } else {
      js = (double) job.nodes() / clusterNodes;
      if (job.cpus() > 0) {
        js = (js + (double) job.cpus() / clusterCpus) / 2;
      }
    }
    return Math.max(0, Math.min(1, js));
  }

  /** The order in which Slurm considers jobs at {@code now}: tier, priority, eligible time, id. */
  public Comparator<BatchJob> order(Instant now) {
    Map<String, Long> cache = new HashMap<>();
    return Comparator.comparingInt((BatchJob j) -> -partition(j).priorityTier())
        .thenComparingLong(j -> -cache.computeIfAbsent(j.id(), id -> factors(j, now).priority()))
        .thenComparing(BatchJob::eligibleTime)
        .thenComparing(BatchJob::id);
  }
}
