package io.fleetkit.queueing.internal;

import io.fleetkit.api.resource.Quantity;
import io.fleetkit.queueing.ClusterQueue;
import io.fleetkit.queueing.FlavorQuotas;
import io.fleetkit.queueing.ResourceGroup;
import io.fleetkit.queueing.FlavorResourceQuota;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * One ClusterQueue's quotas and usage per flavor-resource, with Kueue's quota arithmetic in its cohort tree
 * ({@link CohortState} for the cohorts' part):
 *
 * <pre>
 * guaranteed = nominal - lendingLimit   (0 without a lending limit): never lent
 * available  = max(0, guaranteed - usage)
 *            + min(cohort.available,
 *                  (nominal - guaranteed) - max(0, usage - guaranteed) + borrowingLimit)   (the min only with a limit)
 * </pre>
 *
 * after Kueue's {@code pkg/cache/resource_node.go} {@code available} and {@code potentialAvailable}.
 */
public final class CqState {
  static final long NO_LIMIT = -1;

  /** The queue's spec; replaced, with the quota arrays below, by {@link #configure} when the queue is updated. */
  ClusterQueue spec;
  final String name;
  final int index;
  @Nullable CohortState cohort;
  long[] nominal;
  long[] borrowingLimit;
  long[] guaranteed;
  long[] usage;
  boolean[] covered;
  /** Resource name to its group index in {@code spec.resourceGroups()}. */
  Map<String, Integer> groupOfResource;
  /** Per group, per flavor in order, per covered resource in order: the flavor-resource index. */
  int[][][] groupFrs;
  long weightMilli;
  PendingQueue pending;
  final LinkedHashMap<String, AdmittedWorkload> admitted = new LinkedHashMap<>();
  /**
   * The queue was removed while workloads held its quota (Kueue's {@code Terminating} ClusterQueue, kept by its
   * finalizer): it admits nothing and is dropped once the last of them leaves.
   */
  boolean terminating;
  /** The queue was dropped from the engine: workloads that still name it are queued by their LocalQueue instead. */
  boolean removed;
  /**
   * The flavors the queue names that the engine does not have: while there are any the queue is inactive (Kueue's
   * {@code FlavorNotFound}) and its workloads wait.
   */
  List<String> missingFlavors = List.of();
  /** The admission checks the queue names that the engine does not have (Kueue's {@code AdmissionCheckNotFound}). */
  List<String> missingChecks = List.of();
  /** The admission checks the queue names that are inactive (Kueue's {@code AdmissionCheckInactive}). */
  List<String> inactiveChecks = List.of();
  /**
   * The flavors a ProvisioningRequest check of the queue applies to (Kueue's {@code flavorsForProvReqACs}): a pod set
   * placed in a topology of one of them gets its topology assignment after the checks are Ready.
   */
  java.util.Set<String> provisioningFlavors = java.util.Set.of();
  /**
   * Kueue's {@code AllocatableResourceGeneration}: advances when more could fit in the queue than before. {@link
   * QueueRegistry} advances it where Kueue's cache recomputes the queue's resource node ({@code
   * updateClusterQueueResourceNode}): when the queue is added, when its quotas or cohort change, and for every queue of
   * a cohort tree whose quotas or members changed; {@link #remove} advances it when a workload leaves the queue or its
   * reservation is replaced, {@link #workloadUpdated} when the status of a workload holding its quota is written. A pending workload's {@link FlavorScanProgress} older than one cycle is discarded once the
   * generation passed the one it was recorded at.
   */
  long allocatableGeneration;

  CqState(ClusterQueue spec, int index, @Nullable CohortState cohort, FlavorResources frs, PendingQueue pending) {
    this.spec = spec;
    this.name = spec.name();
    this.index = index;
    this.pending = pending;
    configure(spec, cohort, frs);
  }

  /**
   * Takes {@code spec}'s quotas (arrays sized for every flavor-resource {@code frs} knows) and cohort; the usage
   * starts at zero, for the caller to add the admitted workloads' again (Kueue's {@code updateClusterQueue}).
   */
  void configure(ClusterQueue spec, @Nullable CohortState cohort, FlavorResources frs) {
    this.spec = spec;
    this.cohort = cohort;
    int n = frs.size();
    nominal = new long[n];
    borrowingLimit = new long[n];
    java.util.Arrays.fill(borrowingLimit, NO_LIMIT);
    guaranteed = new long[n];
    usage = new long[n];
    covered = new boolean[n];
    groupOfResource = new HashMap<>();
    groupFrs = new int[spec.resourceGroups().size()][][];
    for (int g = 0; g < spec.resourceGroups().size(); g++) {
      ResourceGroup group = spec.resourceGroups().get(g);
      for (String r : group.coveredResources()) {
        groupOfResource.put(r, g);
      }
      groupFrs[g] = new int[group.flavors().size()][];
      for (int f = 0; f < group.flavors().size(); f++) {
        FlavorQuotas fq = group.flavors().get(f);
        groupFrs[g][f] = new int[fq.resources().size()];
        for (int r = 0; r < fq.resources().size(); r++) {
          FlavorResourceQuota q = fq.resources().get(r);
          int fr = frs.of(fq.name(), q.name());
          groupFrs[g][f][r] = fr;
          covered[fr] = true;
          nominal[fr] = q.nominalQuota().milliValue();
          Quantity bl = q.borrowingLimit();
          borrowingLimit[fr] = bl == null ? NO_LIMIT : bl.milliValue();
          Quantity ll = q.lendingLimit();
          guaranteed[fr] = ll == null ? 0 : Math.max(0, nominal[fr] - ll.milliValue());
        }
      }
    }
    weightMilli = spec.fairSharingWeight().milliValue();
  }

  public String name() {
    return name;
  }

  /**
   * Whether {@code a} and {@code b} give a queue the same resource groups (covered resources, flavors in order) and the
   * same nominal quotas, borrowing and lending limits (Kueue's {@code updateQuotasAndResourceGroups}, which compares
   * amounts, so {@code 1} and {@code 1000m} are the same quota).
   */
  static boolean sameQuotas(ClusterQueue a, ClusterQueue b) {
    List<ResourceGroup> ga = a.resourceGroups();
    List<ResourceGroup> gb = b.resourceGroups();
    if (ga.size() != gb.size()) {
      return false;
    }
    for (int g = 0; g < ga.size(); g++) {
      ResourceGroup x = ga.get(g);
      ResourceGroup y = gb.get(g);
      if (!java.util.Set.copyOf(x.coveredResources()).equals(java.util.Set.copyOf(y.coveredResources()))
          || !quotasOf(x).equals(quotasOf(y))) {
        return false;
      }
    }
    return true;
  }

  /** A flavor of a resource group, with each resource's nominal quota, borrowing and lending limits in milli-units. */
  private record FlavorQuotaView(String flavor, Map<String, List<@Nullable Long>> resources) {}

  private static List<FlavorQuotaView> quotasOf(ResourceGroup group) {
    List<FlavorQuotaView> out = new java.util.ArrayList<>();
    for (FlavorQuotas fq : group.flavors()) {
      Map<String, List<@Nullable Long>> m = new HashMap<>();
      for (FlavorResourceQuota q : fq.resources()) {
        m.put(q.name(), java.util.Arrays.asList(q.nominalQuota().milliValue(), milliOrNull(q.borrowingLimit()),
            milliOrNull(q.lendingLimit())));
      }
      out.add(new FlavorQuotaView(fq.name(), m));
    }
    return out;
  }

  private static @Nullable Long milliOrNull(@Nullable Quantity q) {
    return q == null ? null : q.milliValue();
  }

  /**
   * Kueue's inactive message for a queue that is terminating, stopped, or names missing flavors, missing or inactive
   * admission checks ({@code clusterqueue.go} {@code inactiveReason}), or {@code null} when the queue is active.
   */
  @Nullable String inactiveReason() {
    return active() ? null : activeCondition().message();
  }

  /** Kueue's {@code Active} condition of the queue ({@code clusterqueue.go} {@code inactiveReason}). */
  io.fleetkit.queueing.ActiveCondition activeCondition() {
    if (terminating) {
      return new io.fleetkit.queueing.ActiveCondition(false, io.fleetkit.queueing.ActiveCondition.TERMINATING,
          "Can't admit new workloads; clusterQueue is terminating");
    }
    if (active()) {
      return new io.fleetkit.queueing.ActiveCondition(true, io.fleetkit.queueing.ActiveCondition.READY,
          "Can admit new workloads");
    }
    List<String> reasons = new java.util.ArrayList<>();
    List<String> messages = new java.util.ArrayList<>();
    if (spec.stopPolicy().stops()) {
      reasons.add(io.fleetkit.queueing.ActiveCondition.STOPPED);
      messages.add("is stopped");
    }
    if (!missingFlavors.isEmpty()) {
      reasons.add(io.fleetkit.queueing.ActiveCondition.FLAVOR_NOT_FOUND);
      messages.add("references missing ResourceFlavor(s): " + String.join(",", missingFlavors));
    }
    if (!missingChecks.isEmpty()) {
      reasons.add(io.fleetkit.queueing.ActiveCondition.ADMISSION_CHECK_NOT_FOUND);
      messages.add("references missing AdmissionCheck(s): " + String.join(",", missingChecks));
    }
    if (!inactiveChecks.isEmpty()) {
      reasons.add(io.fleetkit.queueing.ActiveCondition.ADMISSION_CHECK_INACTIVE);
      messages.add("references inactive AdmissionCheck(s): " + String.join(",", inactiveChecks));
    }
    return new io.fleetkit.queueing.ActiveCondition(false, reasons.get(0),
        "Can't admit new workloads: " + String.join(", ", messages) + ".");
  }

  /** Whether the queue admits workloads: not terminating, not stopped, nothing it names missing or inactive. */
  boolean active() {
    return !terminating && !spec.stopPolicy().stops() && missingFlavors.isEmpty() && missingChecks.isEmpty()
        && inactiveChecks.isEmpty();
  }

  boolean hasCohort() {
    return cohort != null;
  }

  /** What a workload may still use of {@code fr} now, counting what the cohort tree can lend. */
  long available(int fr) {
    CohortState c = cohort;
    if (c == null) {
      return Math.max(0, nominal[fr] - usage[fr]);
    }
    long local = Math.max(0, guaranteed[fr] - usage[fr]);
    long parent = c.available(fr);
    if (borrowingLimit[fr] != NO_LIMIT) {
      long stored = nominal[fr] - guaranteed[fr];
      long usedInParent = Math.max(0, usage[fr] - guaranteed[fr]);
      parent = Math.min(parent, saturatedAdd(stored - usedInParent, borrowingLimit[fr]));
    }
    return Math.max(0, saturatedAdd(local, parent));
  }

  /** What a workload could use of {@code fr} if nothing else in the cohort tree were running. */
  long potentialAvailable(int fr) {
    CohortState c = cohort;
    if (c == null) {
      return nominal[fr];
    }
    long avail = saturatedAdd(guaranteed[fr], c.potentialAvailable(fr));
    if (borrowingLimit[fr] != NO_LIMIT) {
      avail = Math.min(avail, saturatedAdd(nominal[fr], borrowingLimit[fr]));
    }
    return avail;
  }

  /** Kueue's {@code LocalAvailable}: guaranteed quota not in use, which is never lent to the cohort. */
  long localAvailable(int fr) {
    return Math.max(0, guaranteed[fr] - usage[fr]);
  }

  /**
   * Kueue's {@code FindHeightOfLowestSubtreeThatFits}: the height of the lowest subtree of the cohort tree (through
   * this queue's ancestors) whose quota covers {@code value} more of {@code fr}; 0 if the queue needs no borrowing,
   * the whole tree's height if none fits.
   */
  int borrowingLevel(int fr, long value) {
    CohortState c = cohort;
    if (c == null || !borrowingWith(fr, value)) {
      return 0;
    }
    CohortState fits = lowestAncestorCovering(fr, value);
    return fits != null ? fits.height() : c.root().height();
  }

  /**
   * The second answer of Kueue's {@code FindHeightOfLowestSubtreeThatFits}: whether a subtree smaller than the whole
   * cohort tree covers {@code value} more of {@code fr} (then preemption may reclaim inside it).
   */
  boolean fitsInProperSubtree(int fr, long value) {
    if (cohort == null) {
      return false;
    }
    if (!borrowingWith(fr, value)) {
      return true;
    }
    CohortState fits = lowestAncestorCovering(fr, value);
    return fits != null && fits.hasParent();
  }

  /** The lowest cohort above this borrowing queue whose subtree covers {@code value} more of {@code fr}, or none. */
  private @Nullable CohortState lowestAncestorCovering(int fr, long value) {
    long remaining = value - localAvailable(fr);
    for (CohortState node = cohort; node != null; node = node.parent) {
      if (!node.borrowingWith(fr, remaining)) {
        return node;
      }
      remaining -= node.localAvailable(fr);
    }
    return null;
  }

  /** The path from the cohort root to this queue, as Kueue prints it: {@code /root/child/queue}. */
  String path() {
    return (cohort == null ? "" : cohort.path()) + "/" + name;
  }

  static long saturatedAdd(long a, long b) {
    long r = a + b;
    if (((a ^ r) & (b ^ r)) < 0) {
      return a < 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
    }
    return r;
  }

  /** Whether using {@code value} more of {@code fr} would take this queue above its nominal quota in a cohort. */
  boolean borrowingWith(int fr, long value) {
    return cohort != null && usage[fr] + value > nominal[fr];
  }

  boolean borrowing(int fr) {
    return usage[fr] > nominal[fr];
  }

  /** Whether this queue borrows in any of the flavor-resources marked in {@code frSet}. */
  boolean borrowingIn(boolean[] frSet) {
    for (int fr = 0; fr < frSet.length; fr++) {
      if (frSet[fr] && usage[fr] > nominal[fr]) {
        return true;
      }
    }
    return false;
  }

  /** Adds ({@code sign} 1) or removes ({@code sign} -1) usage, keeping the cohort's aggregate in step. */
  void addUsage(int[] frs, long[] values, int sign) {
    CohortState c = cohort;
    for (int i = 0; i < frs.length; i++) {
      int fr = frs[i];
      long old = usage[fr];
      long now = old + sign * values[i];
      usage[fr] = now;
      if (c != null) {
        long g = guaranteed[fr];
        long up = Math.max(0, now - g) - Math.max(0, old - g);
        if (up != 0) {
          c.addUsage(fr, up);
        }
      }
    }
  }

  void add(AdmittedWorkload w) {
    admitted.put(w.key(), w);
    addUsage(w.frs, w.values, 1);
  }

  /**
   * A workload holding quota in the queue had its status written (its quota reservation, an admission check's state,
   * its {@code PodsReady} condition): Kueue's cache replaces the workload it holds ({@code addOrUpdateWorkload}
   * deletes it first, {@code deleteWorkload}), which advances the generation.
   */
  void workloadUpdated() {
    allocatableGeneration++;
  }

  void remove(AdmittedWorkload w) {
    allocatableGeneration++;
    admitted.remove(w.key());
    addUsage(w.frs, w.values, -1);
  }
}
