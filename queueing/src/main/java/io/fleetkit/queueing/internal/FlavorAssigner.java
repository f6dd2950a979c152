package io.fleetkit.queueing.internal;

import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.resource.ResourceNames;
import io.fleetkit.queueing.FlavorFungibility;
import io.fleetkit.queueing.PodSet;
import io.fleetkit.queueing.PodSetAssignment;
import io.fleetkit.queueing.ResourceFlavor;
import io.fleetkit.queueing.ResourceGroup;
import io.fleetkit.queueing.Workload;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import java.util.Set;

/**
 * Kueue's flavor assigner ({@code pkg/scheduler/flavorassigner}): for every pod set and resource group, tries the
 * group's flavors in order and stops per the queue's {@link FlavorFungibility}. A resource of a flavor
 *
 * <ul>
 *   <li>does not fit if the request exceeds what the queue could ever use ({@code potentialAvailable});
 *   <li>fits if it is within what is available now (possibly borrowing from the cohort);
 *   <li>fits by preemption if it is within the nominal quota, or borrows while the queue may preempt while borrowing
 *       ({@code borrowWithinCohort} or fair sharing).
 * </ul>
 *
 * The request of a pod set adds to what earlier pod sets of the same workload were assigned in the same flavor. As in
 * Kueue, a queue whose resource groups cover {@value ResourceNames#PODS} counts every pod as one {@code pods} unit
 * besides its requests ({@link #requestMilli}), so a {@code pods} quota limits the number of pods; it is assigned a
 * flavor, counted in the usage and freed by preemption like any requested resource. As in newer Kueue, a flavor that
 * fits only by preemption but where the preemptor finds no candidates ranks below one that can preempt, and the
 * assigner tries the next flavor. When no flavor stops the search, the best one by the queue's {@link
 * FlavorFungibility.Preference} wins ({@link #isPreferred}). Each search records where it stopped, and may start after
 * the flavor an earlier search stopped on ({@link #assign(Workload, CqState, FlavorScanProgress)}).
 */
public final class FlavorAssigner {
  /**
   * Whether preempting could make {@code value} of {@code fr} available to {@code wl} in {@code cq}:
   * {@link Assignment#NO_CANDIDATES}, {@link Assignment#PREEMPT} (some target in {@code cq}) or
   * {@link Assignment#RECLAIM} (only workloads borrowing from the cohort); and the borrowing level once the targets
   * are gone.
   */
  @FunctionalInterface
  public interface PreemptionOracle {
    Simulation simulate(Workload wl, CqState cq, int fr, long value);
  }

  /**
   * The preemption oracle's answer (Kueue's {@code SimulatePreemption}).
   *
   * @param possibility {@link Assignment#NO_CANDIDATES}, {@link Assignment#PREEMPT} or {@link Assignment#RECLAIM}
   * @param borrowingAfter the borrowing level of the request once the targets are gone (with no targets, as it is)
   */
  public record Simulation(int possibility, int borrowingAfter) {}

  private final FlavorResources index;
  private final Map<String, ResourceFlavor> resourceFlavors;
  private final boolean fairSharing;
  private final PreemptionOracle oracle;
  private final @Nullable TopologyPlacer topology;

  /**
   * @param flavors the ResourceFlavors by name, read as they are at each {@link #assign} (the engine adds flavors
   *     later): a flavor whose taints the pod set does not tolerate, or whose node labels its node constraints do
   *     not match, is passed over ({@link FlavorConstraints})
   */
  public FlavorAssigner(FlavorResources index, Map<String, ResourceFlavor> flavors, boolean fairSharing,
      PreemptionOracle oracle) {
    this(index, flavors, fairSharing, oracle, null);
  }

  /**
   * As the other constructor; with {@code topology}, a flavor is also passed over when it does not match the pod set
   * for topology-aware scheduling ({@link TopologyPlacer#mismatch}).
   */
  FlavorAssigner(FlavorResources index, Map<String, ResourceFlavor> flavors, boolean fairSharing,
      PreemptionOracle oracle, @Nullable TopologyPlacer topology) {
    this.index = index;
    this.resourceFlavors = flavors;
    this.fairSharing = fairSharing;
    this.oracle = oracle;
    this.topology = topology;
  }

  /** Kueue's {@code resources.transformations}: how pod requests count against quota; empty for none. */
  private List<io.fleetkit.queueing.ResourceTransformation> transformations = List.of();

  void transformations(List<io.fleetkit.queueing.ResourceTransformation> transformations) {
    this.transformations = List.copyOf(transformations);
  }

  /**
   * {@code wl} as quota counts it: each pod set's requests under the {@linkplain #transformations transformations};
   * {@code wl} itself without any.
   */
  Workload quotaView(Workload wl) {
    if (transformations.isEmpty()) {
      return wl;
    }
    List<PodSet> out = new ArrayList<>(wl.podSets().size());
    boolean changed = false;
    for (PodSet ps : wl.podSets()) {
      ResourceList r = io.fleetkit.queueing.ResourceTransformation.apply(ps.requests(), transformations);
      changed |= r != ps.requests();
      out.add(r == ps.requests() ? ps : new PodSet(ps.name(), ps.count(), r, ps.nodeSelector(),
          ps.requiredNodeAffinity(), ps.tolerations(), ps.minCount(), ps.topologyRequest()));
    }
    return changed ? wl.withPodSets(out)
        : wl;
  }

  /**
   * Assigns flavors to every pod set of {@code wl} in {@code cq}, against the queue's current usage: quota sees the
   * pods' requests as transformed ({@link #quotaView}), the topology checks the pods' own.
   */
  public Assignment assign(Workload pods, CqState cq) {
    return assign(pods, cq, null);
  }

  /**
   * As {@link #assign(Workload, CqState)}, resuming the search of each pod set's resource group after the flavor
   * {@code resume} names as the last tried (Kueue's {@code findFlavorForPodSets} starts at {@code
   * LastAssignment.NextFlavorToTryForPodSetResource}); the flavors before it are not tried in this search. The
   * assignment records where each search stopped ({@link Assignment#lastTriedFlavorIdx}): the flavor it stopped on
   * because the queue's {@link FlavorFungibility} let it stop there, or {@value FlavorScanProgress#START_OVER} when it
   * reached the group's last flavor. Only a flavor that fits without borrowing, or borrows under {@code whenCanBorrow:
   * MayStopSearch}, or needs preemption (with candidates) under {@code whenCanPreempt: MayStopSearch}, stops a search
   * before the last flavor.
   *
   * @param resume the progress of an earlier search, or {@code null} to start every search at the first flavor
   */
  Assignment assign(Workload pods, CqState cq, @Nullable FlavorScanProgress resume) {
    Workload wl = quotaView(pods);
    List<Map<String, Integer>> lastTried = new ArrayList<>(wl.podSets().size());
    long[] assigned = new long[index.size()];
    boolean[] needPreemption = new boolean[index.size()];
    // Kueue's canPreemptWhileBorrowing: borrowWithinCohort allows it, or fair sharing with a queue that may reclaim
    boolean canPreemptWhileBorrowing =
        cq.spec.preemption().borrowWithinCohort().policy() != io.fleetkit.queueing.BorrowWithinCohort.Policy.NEVER
            || (fairSharing && cq.spec.preemption().reclaimWithinCohort()
                != io.fleetkit.queueing.QueuePreemptionPolicy.NEVER);
    FlavorFungibility fungibility = cq.spec.flavorFungibility();
    FlavorFungibility.Preference preference = fungibility.effectivePreference();
    boolean eager = fungibility.whenCanPreempt() == FlavorFungibility.WhenCanPreempt.PREEMPT
        || preference == FlavorFungibility.Preference.PREEMPTION_OVER_BORROWING;
    int mode = Assignment.FIT;
    int borrowing = 0;
    List<PodSetAssignment> out = new ArrayList<>(wl.podSets().size());
    StringBuilder message = new StringBuilder();
    for (int psi = 0; psi < wl.podSets().size(); psi++) {
      PodSet ps = wl.podSets().get(psi);
      PodSet podsOf = pods.podSets().get(psi);
      long[] atStart = assigned.clone();
      Map<String, String> flavors = new LinkedHashMap<>();
      Map<String, Integer> tried = new LinkedHashMap<>();
      ResourceList.Builder usage = ResourceList.builder();
      List<String> psReasons = new ArrayList<>();
      int psMode = Assignment.FIT;
      // Every requested resource must be covered by some resource group.
      for (String r : ps.requests().names()) {
        // As in Kueue, a zero request of a resource the queue does not cover needs no quota.
        if (!cq.groupOfResource.containsKey(r) && ps.requests().milliValue(r) != 0) {
          psReasons.add("resource " + r + " unavailable in ClusterQueue");
          psMode = Assignment.NO_FIT;
        }
      }
      for (int g = 0; g < cq.groupFrs.length && psMode != Assignment.NO_FIT; g++) {
        ResourceGroup group = cq.spec.resourceGroups().get(g);
        List<String> covered = group.coveredResources();
        int n = 0;
        for (String r : covered) {
          if (requests(ps, r)) {
            n++;
          }
        }
        if (n == 0) {
          continue;
        }
        List<String> requested = new ArrayList<>(n);
        int[] pos = new int[n];
        for (int i = 0; i < covered.size(); i++) {
          if (requests(ps, covered.get(i))) {
            pos[requested.size()] = i;
            requested.add(covered.get(i));
          }
        }
        // Kueue consults its preemption oracle for every resource that fits only by preemption. The oracle is
        // expensive, so here it is consulted while the flavors are tried only when its answer can stop the search or
        // decide the ranking (whenCanPreempt: Preempt, or the PreemptionOverBorrowing preference); otherwise (Kueue's
        // default BorrowingOverPreemption, which ranks every flavor that fits above every one that needs preemption)
        // only once every flavor is tried and the best one needs preemption, for the flavors that do.
        int flavorCount = cq.groupFrs[g].length;
        int[][] modesOf = new int[flavorCount][];
        long[][] valsOf = new long[flavorCount][];
        int[][] borrowsOf = new int[flavorCount][];
        int[] repOf = new int[flavorCount];
        int[] repBorrowOf = new int[flavorCount];
        int[] borrowOf = new int[flavorCount];
        int chosen = -1;
        int best = -1;
        // Kueue keys the progress by pod set and resource; every resource of the group records the same index
        int start = resume == null ? 0 : resume.nextFlavorToTry(psi, requested.get(0));
        int attempted = -1;
        for (int f = start; f < flavorCount; f++) {
          attempted = f;
          ResourceFlavor flavor = resourceFlavors.get(group.flavors().get(f).name());
          String mismatch = flavor == null || topology == null ? null : topology.mismatch(flavor, podsOf, cq, covered);
          if (mismatch == null && flavor != null) {
            mismatch = FlavorConstraints.mismatch(flavor, ps);
          }
          if (mismatch != null) {
            psReasons.add(mismatch); // NoFit for this flavor: the next one is tried
            repOf[f] = Assignment.NO_FIT;
            continue;
          }
          int[] modes = new int[pos.length];
          long[] vals = new long[pos.length];
          int[] borrows = new int[pos.length];
          boolean noFit = false;
          for (int i = 0; i < pos.length; i++) {
            int fr = cq.groupFrs[g][f][pos[i]];
            long request = requestMilli(ps, requested.get(i));
            // Saturating, as Kueue's Amount: requests near Long.MAX_VALUE must not wrap around and fit.
            long val = saturatedAdd(request, assigned[fr]);
            vals[i] = val;
            modes[i] = fits(cq, fr, assigned[fr], request, val, canPreemptWhileBorrowing, psReasons);
            borrows[i] = cq.borrowingLevel(fr, val);
            if (modes[i] == Assignment.NO_FIT) {
              noFit = true;
              break;
            }
          }
          if (noFit) {
            repOf[f] = Assignment.NO_FIT;
            continue;
          }
          modesOf[f] = modes;
          valsOf[f] = vals;
          borrowsOf[f] = borrows;
          if (eager) {
            simulate(wl, cq, g, f, pos, modes, vals, borrows);
          }
          grade(f, modes, borrows, preference, repOf, repBorrowOf, borrowOf);
          if (!shouldTryNextFlavor(repOf[f], repBorrowOf[f], fungibility)) {
            chosen = f;
            break;
          }
          if (best < 0 || isPreferred(repOf[f], repBorrowOf[f], repOf[best], repBorrowOf[best], preference)) {
            best = f;
          }
        }
        if (chosen < 0 && best >= 0 && repOf[best] == Assignment.PREEMPT && !eager) {
          // Every flavor was tried, none fits without preemption: rank the ones that need it by the oracle's answers
          // (reclaim before preempt, a flavor without candidates last; then the lower borrowing level after the
          // preemptions; the first of equals), as Kueue's eager ranking would have
          best = -1;
          for (int f = start; f < flavorCount; f++) {
            if (repOf[f] != Assignment.PREEMPT || modesOf[f] == null) {
              continue;
            }
            simulate(wl, cq, g, f, pos, modesOf[f], valsOf[f], borrowsOf[f]);
            grade(f, modesOf[f], borrowsOf[f], preference, repOf, repBorrowOf, borrowOf);
            if (best < 0 || isPreferred(repOf[f], repBorrowOf[f], repOf[best], repBorrowOf[best], preference)) {
              best = f;
            }
          }
        }
        if (chosen < 0) {
          chosen = best;
        }
        int bestFlavor = chosen;
        int bestMode = chosen < 0 ? Assignment.NO_FIT : repOf[chosen];
        int bestBorrow = chosen >= 0 ? borrowOf[chosen] : 0;
        int[] bestModes = chosen < 0 ? null : modesOf[chosen];
        if (bestMode == Assignment.NO_FIT) {
          bestFlavor = -1;
        }
        if (bestFlavor < 0 || bestModes == null) {
          psMode = Assignment.NO_FIT;
          break;
        }
        // Kueue's RepresentativeMode of the assignment: the worst mode of any resource (under
        // PreemptionOverBorrowing a flavor's representative mode may be one that fits while another resource needs
        // preemption)
        for (int m : bestModes) {
          psMode = Math.min(psMode, m);
        }
        borrowing = Math.max(borrowing, bestBorrow);
        String flavorName = group.flavors().get(bestFlavor).name();
        // Kueue's TriedFlavorIdx: where the search stopped, or start over next time if it reached the last flavor
        int triedIdx = attempted == flavorCount - 1 ? FlavorScanProgress.START_OVER : attempted;
        for (int i = 0; i < pos.length; i++) {
          String r = requested.get(i);
          tried.put(r, triedIdx);
          int fr = cq.groupFrs[g][bestFlavor][pos[i]];
          long total = requestMilli(ps, r);
          assigned[fr] = saturatedAdd(assigned[fr], total);
          if (bestModes[i] == Assignment.PREEMPT || bestModes[i] == Assignment.RECLAIM
              || bestModes[i] == Assignment.NO_CANDIDATES) {
            needPreemption[fr] = true;
          }
          flavors.put(r, flavorName);
          usage.put(r, Quantity.ofMilli(total));
        }
      }
      mode = Math.min(mode, psMode);
      if (psMode != Assignment.FIT) {
        if (message.length() > 0) {
          message.append("; ");
        }
        psReasons.sort(null); // Kueue's Status.Message sorts the reasons
        message.append("couldn't assign flavors to pod set ").append(ps.name()).append(": ")
            .append(String.join(", ", psReasons));
      }
      // As Kueue's Assignment.append: a pod set that gets no flavors records no progress, and those after it none
      lastTried.add(psMode == Assignment.NO_FIT ? Map.of() : tried);
      if (psMode == Assignment.NO_FIT) {
        // As Kueue's: the pod set that gets no flavors adds nothing (not the groups it was given before the one that
        // failed), and the pod sets after it are not tried; the usage is that of the pod sets before it
        System.arraycopy(atStart, 0, assigned, 0, assigned.length);
        break;
      }
      out.add(new PodSetAssignment(ps.name(), ps.count(), flavors, usage.build()));
    }
    int[] frs = FlavorResources.nonZero(assigned);
    long[] values = FlavorResources.valuesAt(assigned, frs);
    if (mode == Assignment.NO_FIT) {
      Arrays.fill(needPreemption, false);
    } else if (mode == Assignment.NO_CANDIDATES || mode == Assignment.RECLAIM) {
      mode = Assignment.PREEMPT;
    }
    return new Assignment(mode, borrowing, mode == Assignment.NO_FIT ? List.of() : out, frs, values, needPreemption,
        message.toString(), lastTried);
  }

  /**
   * Whether {@code ps} needs quota of {@code coveredResource}, a resource the queue covers: the pods request it, or it
   * is {@code pods} (Kueue's implicit pod count, added to every pod set of a queue that covers it).
   */
  private static boolean requests(PodSet ps, String coveredResource) {
    return ps.requests().has(coveredResource) || coveredResource.equals(ResourceNames.PODS);
  }

  /**
   * What the pod set needs of {@code resource} in milli-units: {@code count × requests[resource]}, and one unit per
   * pod for {@code pods} (Kueue's {@code assignFlavors} sets the pod set's {@code pods} request to its count when the
   * queue covers {@code pods}; a workload may not request {@code pods} itself).
   */
  static long requestMilli(PodSet ps, String resource) {
    return resource.equals(ResourceNames.PODS)
        ? Math.multiplyExact((long) ps.count(), 1000L)
        : ps.totalMilli(resource);
  }

  /**
   * Replaces the {@link Assignment#PREEMPT} mode of every resource of flavor {@code f} that fits only by preemption with
   * the oracle's answer (no candidates, preempt, or reclaim), and its borrowing level with the one after the
   * preemptions.
   */
  private void simulate(Workload wl, CqState cq, int g, int f, int[] pos, int[] modes, long[] vals, int[] borrows) {
    for (int i = 0; i < pos.length; i++) {
      if (modes[i] == Assignment.PREEMPT) {
        Simulation s = oracle.simulate(wl, cq, cq.groupFrs[g][f][pos[i]], vals[i]);
        modes[i] = s.possibility();
        borrows[i] = s.borrowingAfter();
      }
    }
  }

  /**
   * Kueue's representative mode of flavor {@code f}: the least preferred of its resources' modes; and the highest
   * borrowing level of its resources, which the assignment reports.
   */
  private static void grade(int f, int[] modes, int[] borrows, FlavorFungibility.Preference preference, int[] repOf,
      int[] repBorrowOf, int[] borrowOf) {
    int rep = Assignment.FIT;
    int repBorrow = 0;
    int max = 0;
    for (int i = 0; i < modes.length; i++) {
      max = Math.max(max, borrows[i]);
      if (isPreferred(rep, repBorrow, modes[i], borrows[i], preference)) {
        rep = modes[i];
        repBorrow = borrows[i];
      }
    }
    repOf[f] = rep;
    repBorrowOf[f] = repBorrow;
    borrowOf[f] = max;
  }

  /**
   * Kueue's {@code isPreferred}: whether mode {@code a} with borrowing level {@code aBorrow} ranks above mode {@code b}
   * with {@code bBorrow}. A mode that does not fit ranks below all others, then one without preemption candidates;
   * among the rest {@link FlavorFungibility.Preference#BORROWING_OVER_PREEMPTION} compares the modes ({@link
   * Assignment#FIT} above {@link Assignment#RECLAIM} above {@link Assignment#PREEMPT}) and then the lower borrowing
   * level, {@link FlavorFungibility.Preference#PREEMPTION_OVER_BORROWING} the other way round.
   */
  static boolean isPreferred(int a, int aBorrow, int b, int bBorrow, FlavorFungibility.Preference preference) {
    if (a == Assignment.NO_FIT) {
      return false;
    }
    if (b == Assignment.NO_FIT) {
      return true;
    }
    boolean aNone = a == Assignment.NO_CANDIDATES;
    boolean bNone = b == Assignment.NO_CANDIDATES;
    if (aNone != bNone) {
      return !aNone;
    }
    if (preference == FlavorFungibility.Preference.PREEMPTION_OVER_BORROWING) {
      return aBorrow != bBorrow ? aBorrow < bBorrow : a > b;
    }
    return a != b ? a > b : aBorrow < bBorrow;
  }

  private static long saturatedAdd(long a, long b) {
    long r = a + b;
    return ((a ^ r) & (b ^ r)) < 0 ? Long.MAX_VALUE : r;
  }

  private int fits(CqState cq, int fr, long previous, long request, long val, boolean canPreemptWhileBorrowing,
      List<String> reasons) {
    long max = cq.potentialAvailable(fr);
    String r = index.resource(fr);
    if (val > max) {
      reasons.add("insufficient quota for " + r + " in flavor " + index.flavor(fr)
          + ", previously considered podsets requests (" + q(r, previous) + ") + current podset request ("
          + q(r, request) + ") > maximum capacity (" + q(r, max) + ")");
      return Assignment.NO_FIT;
    }
    long available = cq.available(fr);
    if (val <= available) {
      return Assignment.FIT;
    }
    reasons.add("insufficient unused quota for " + index.resource(fr) + " in flavor " + index.flavor(fr) + ", "
        + q(r, val - available) + " more needed");
    // Kueue's fitsResourceQuota: within the nominal quota, or a subtree smaller than the whole tree would cover it
    // (preemption may reclaim there), or borrowing while the queue may preempt while borrowing
    boolean borrow = cq.borrowingWith(fr, val);
    if (val <= cq.nominal[fr] || cq.fitsInProperSubtree(fr, val) || (borrow && canPreemptWhileBorrowing)) {
      return Assignment.PREEMPT;
    }
    return Assignment.NO_FIT;
  }

  /**
   * Kueue's {@code shouldTryNextFlavor}: a flavor that does not fit or has no preemption candidates never stops the
   * search; one that needs preemption stops it only with {@code whenCanPreempt: Preempt}, and one that borrows (in its
   * representative mode) only with {@code whenCanBorrow: Borrow}.
   */
  private static boolean shouldTryNextFlavor(int mode, int borrow, FlavorFungibility f) {
    if (mode == Assignment.NO_FIT || mode == Assignment.NO_CANDIDATES) {
      return true;
    }
    if ((mode == Assignment.PREEMPT || mode == Assignment.RECLAIM)
        && f.whenCanPreempt() == FlavorFungibility.WhenCanPreempt.TRY_NEXT_FLAVOR) {
      return true;
    }
    return borrow > 0 && f.whenCanBorrow() == FlavorFungibility.WhenCanBorrow.TRY_NEXT_FLAVOR;
  }

  /** Kueue's {@code ResourceQuantityString}: binary SI for memory-like resources, decimal SI otherwise. */
  private static String q(String resource, long milli) {
    boolean binary = resource.equals("memory") || resource.equals("ephemeral-storage")
        || resource.startsWith("hugepages-");
    return Quantity.ofMilli(milli, binary ? Quantity.Format.BINARY_SI : Quantity.Format.DECIMAL_SI).toString();
  }
}
