package io.fleetkit.autoscale.cluster;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.Volume;
import io.fleetkit.api.core.VolumeSource;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.policy.PodDisruptionBudget;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * Whether a pod stands in the way of removing its node: the cluster autoscaler's drainability rules
 * ({@code simulator/drainability/rules/rules.go}), in upstream's order; the first rule with an outcome decides.
 *
 * <ol>
 *   <li>mirror (annotation {@value #MIRROR_ANNOTATION}): {@link Outcome#SKIP}, it dies with the node;
 *   <li>long-terminating (upstream's {@code longterminating} rule, {@link TerminatingPods#isLongTerminating} at the
 *       rules' time): SKIP, the pod counts as gone. A pod deleted more recently goes through the rules below like
 *       any other (one with a controller must find another node);
 *   <li>DaemonSet pods ({@link TemplateNodes#isDaemonSetPod}: a DaemonSet controller, or annotated
 *       {@code cluster-autoscaler.kubernetes.io/daemonset-pod: "true"}): SKIP;
 *   <li>{@value #SAFE_TO_EVICT}{@code ="true"}: {@link Outcome#EVICT} at once, no blocking rule applies;
 *   <li>terminal pods (Succeeded, Failed): SKIP;
 *   <li>blocking rules, each {@link Outcome#BLOCK} with upstream's reason: no controller ({@value #NOT_REPLICATED}),
 *       a {@code kube-system} pod no PodDisruptionBudget covers ({@value #UNMOVABLE_KUBE_SYSTEM_POD}),
 *       {@code safe-to-evict="false"} ({@value #NOT_SAFE_TO_EVICT}), a hostPath or non-Memory emptyDir volume not
 *       listed in {@value #SAFE_TO_EVICT_LOCAL_VOLUMES} ({@value #LOCAL_STORAGE_REQUESTED}), a budget with no
 *       disruption left ({@value #NOT_ENOUGH_PDB});
 *   <li>otherwise EVICT: the pod must find another node.
 * </ol>
 *
 * <p>The rules are taken at one time, given when they are made ({@link #withBudgets}); only the long-terminating rule
 * reads it.
 *
 * <p>Not thread-safe: the budget tracker counts the evictions of one autoscaler loop.
 */
public final class Drainability {
  public static final String SAFE_TO_EVICT = "cluster-autoscaler.kubernetes.io/safe-to-evict";
  public static final String SAFE_TO_EVICT_LOCAL_VOLUMES = "cluster-autoscaler.kubernetes.io/safe-to-evict-local-volumes";
  public static final String MIRROR_ANNOTATION = "kubernetes.io/config.mirror";
  public static final String KUBE_SYSTEM = "kube-system";
  public static final String NOT_REPLICATED = "NotReplicated";
  public static final String UNMOVABLE_KUBE_SYSTEM_POD = "UnmovableKubeSystemPod";
  public static final String NOT_SAFE_TO_EVICT = "NotSafeToEvictAnnotation";
  public static final String LOCAL_STORAGE_REQUESTED = "LocalStorageRequested";
  public static final String NOT_ENOUGH_PDB = "NotEnoughPdb";

  /** What the rules decided for one pod. */
  public enum Outcome {
    /** The pod need not move (it dies with the node or is gone already). */
    SKIP,
    /** The pod may be evicted and must be placed elsewhere. */
    EVICT,
    /** The pod keeps its node from being removed. */
    BLOCK
  }

  /** A rule's decision; {@code reason} is empty unless the outcome is {@link Outcome#BLOCK}. */
  public record Decision(Outcome outcome, String reason) {
    public static final Decision SKIP = new Decision(Outcome.SKIP, "");
    public static final Decision EVICT = new Decision(Outcome.EVICT, "");

    public Decision {
      Objects.requireNonNull(outcome, "outcome");
      Objects.requireNonNull(reason, "reason");
    }

    static Decision block(String reason) {
      return new Decision(Outcome.BLOCK, reason);
    }
  }

  private static final Decision BLOCK_NOT_REPLICATED = Decision.block(NOT_REPLICATED);
  private static final Decision BLOCK_KUBE_SYSTEM = Decision.block(UNMOVABLE_KUBE_SYSTEM_POD);
  private static final Decision BLOCK_NOT_SAFE = Decision.block(NOT_SAFE_TO_EVICT);
  private static final Decision BLOCK_LOCAL_STORAGE = Decision.block(LOCAL_STORAGE_REQUESTED);
  private static final Decision BLOCK_NOT_ENOUGH_PDB = Decision.block(NOT_ENOUGH_PDB);

  private final List<PodDisruptionBudget> pdbs;
  /** The time the long-terminating rule is taken at (upstream's {@code DrainContext.Timestamp}). */
  private final Instant now;
  /** Disruptions left per budget ({@code namespace/name}), counting this loop's planned evictions. */
  private final Map<String, Integer> remaining = new HashMap<>();

  private Drainability(List<PodDisruptionBudget> pdbs, Instant now) {
    this.pdbs = List.copyOf(pdbs);
    this.now = Objects.requireNonNull(now, "now");
    for (PodDisruptionBudget b : this.pdbs) {
      remaining.put(b.metadata().key(), b.status().disruptionsAllowed());
    }
  }

  /**
   * Rules over these budgets, whose {@code status.disruptionsAllowed} is the starting allowance, taken at {@code now}
   * (which pods being deleted count as gone).
   */
  public static Drainability withBudgets(List<PodDisruptionBudget> pdbs, Instant now) {
    return new Drainability(pdbs, now);
  }

  /** The time these rules are taken at. */
  public Instant now() {
    return now;
  }

  /** The decision for one pod, given the budget left now. */
  public Decision check(Pod pod) {
    return check(pod, PodRules.of(pod));
  }

  /**
   * The decision for {@code pod} whose pod-only rules are {@code rules} ({@link PodRules#of} of the same pod, or of
   * a copy differing in its node name only), given the budget left now.
   */
  Decision check(Pod pod, PodRules podRules) {
    PodRules rules = podRules;
    Decision early = rules.early;
    if (early != null) {
      return early;
    }
    Instant after = rules.longTerminatingAfter;
    if (after != null) {
      if (after.isBefore(now)) {
        return Decision.SKIP; // upstream's longterminating rule
      }
      rules = Objects.requireNonNull(rules.whileTerminating);
      early = rules.early;
      if (early != null) {
        return early;
      }
    }
    if (pdbs.isEmpty()) {
      return rules.withoutBudgets;
    }
    List<PodDisruptionBudget> matching = matching(pod);
    if (rules.kubeSystem && matching.isEmpty()) {
      return BLOCK_KUBE_SYSTEM;
    }
    if (rules.notSafeToEvict) {
      return BLOCK_NOT_SAFE;
    }
    if (rules.localStorage) {
      return BLOCK_LOCAL_STORAGE;
    }
    for (PodDisruptionBudget b : matching) {
      if (remaining.getOrDefault(b.metadata().key(), 0) < 1) {
        return BLOCK_NOT_ENOUGH_PDB;
      }
    }
    return Decision.EVICT;
  }

  /**
   * What the rules read of the pod alone (its annotations, owner, phase, namespace, volumes and deletion; not its node):
   * the decision when it depends neither on the budgets nor on the time, else the inputs of the rules that read them.
   * A function of the pod object, so it is made once per pod and shared by its copies with another node name.
   */
  static final class PodRules {
    /**
     * The decision of the rules before the budget-dependent ones, or {@code null} when those decide or the pod is
     * being deleted (then the time decides first).
     */
    final @Nullable Decision early;
    /**
     * For a pod being deleted (and not a mirror pod), {@link TerminatingPods#longTerminatingAfter}: after it the pod
     * is skipped, before it {@link #whileTerminating} decides; {@code null} otherwise.
     */
    final @Nullable Instant longTerminatingAfter;
    /** The rules of a pod being deleted, before its long-terminating instant; {@code null} when not being deleted. */
    final @Nullable PodRules whileTerminating;
    final boolean kubeSystem;
    final boolean notSafeToEvict;
    final boolean localStorage;
    /** The decision when no budget exists (no budget matches, none is used up). */
    final Decision withoutBudgets;

    private PodRules(@Nullable Decision early, boolean kubeSystem, boolean notSafeToEvict, boolean localStorage) {
      this.early = early;
      this.longTerminatingAfter = null;
      this.whileTerminating = null;
      this.kubeSystem = kubeSystem;
      this.notSafeToEvict = notSafeToEvict;
      this.localStorage = localStorage;
      this.withoutBudgets = early != null ? early : kubeSystem ? BLOCK_KUBE_SYSTEM : notSafeToEvict ? BLOCK_NOT_SAFE
          : localStorage ? BLOCK_LOCAL_STORAGE : Decision.EVICT;
    }

    /** The rules of a pod being deleted: skipped after {@code after}, else {@code rules}. */
    private PodRules(Instant after, PodRules rules) {
      this.early = null;
      this.longTerminatingAfter = after;
      this.whileTerminating = rules;
      this.kubeSystem = rules.kubeSystem;
      this.notSafeToEvict = rules.notSafeToEvict;
      this.localStorage = rules.localStorage;
      this.withoutBudgets = rules.withoutBudgets; // read only through whileTerminating
    }

    private static final PodRules SKIP = new PodRules(Decision.SKIP, false, false, false);
    private static final PodRules EVICT = new PodRules(Decision.EVICT, false, false, false);
    private static final PodRules NOT_REPLICATED_RULES = new PodRules(BLOCK_NOT_REPLICATED, false, false, false);

    /** The rules of {@link #check} in upstream's order, up to the first that reads the budgets. */
    static PodRules of(Pod pod) {
      Map<String, String> ann = pod.metadata().annotations();
      if (ann.containsKey(MIRROR_ANNOTATION)) {
        return SKIP;
      }
      Instant after = TerminatingPods.longTerminatingAfter(pod);
      return after == null ? afterLongTerminating(pod, ann) : new PodRules(after, afterLongTerminating(pod, ann));
    }

    /** The rules after the long-terminating one. */
    private static PodRules afterLongTerminating(Pod pod, Map<String, String> ann) {
      if (TemplateNodes.isDaemonSetPod(pod)) {
        return SKIP;
      }
      if ("true".equals(ann.get(SAFE_TO_EVICT))) {
        return EVICT;
      }
      if (pod.isTerminal()) {
        return SKIP;
      }
      if (pod.metadata().controllerRef() == null) {
        return NOT_REPLICATED_RULES;
      }
      return new PodRules(null, pod.metadata().namespace().equals(KUBE_SYSTEM), "false".equals(ann.get(SAFE_TO_EVICT)),
          hasLocalStorage(pod));
    }
  }

  /**
   * Checks every pod of a node: the pods to evict, or the first blocking decision. The budgets are not charged;
   * call {@link #charge} once the node's removal is planned.
   */
  public NodeDrain drain(List<Pod> pods) {
    Drain<Pod> d = drain(pods, p -> p, PodRules::of);
    return new NodeDrain(d.evict(), d.blockingPod(), d.reason());
  }

  /**
   * {@link #drain(List)} over items that each stand for a pod ({@code pod}) with its {@link PodRules} ({@code rules});
   * the items to evict are returned as given.
   */
  <T> Drain<T> drain(List<T> items, Function<T, Pod> pod, Function<T, PodRules> rules) {
    List<T> evict = new ArrayList<>(items.size());
    Map<String, Integer> wouldRemain = pdbs.isEmpty() ? Map.of() : new HashMap<>();
    for (T item : items) {
      Pod p = pod.apply(item);
      Decision d = check(p, rules.apply(item));
      if (d.outcome() == Outcome.BLOCK) {
        return new Drain<>(List.of(), p.metadata().key(), d.reason());
      }
      if (d.outcome() == Outcome.EVICT) {
        for (PodDisruptionBudget b : matching(p)) {
          String k = b.metadata().key();
          int left = wouldRemain.getOrDefault(k, remaining.getOrDefault(k, 0)) - 1;
          if (left < 0) {
            return new Drain<>(List.of(), p.metadata().key(), NOT_ENOUGH_PDB);
          }
          wouldRemain.put(k, left);
        }
        evict.add(item);
      }
    }
    return new Drain<>(Collections.unmodifiableList(evict), "", "");
  }

  /**
   * {@link #drain(List, Function, Function)} of {@code items}, given {@code before}, the drain of {@code prefix} by
   * rules without budgets. When no budget exists and {@code items} starts with {@code prefix}'s items (the same
   * objects, in order), each item's decision is its own, so the prefix's decisions stand and only the items after it
   * are checked (a node's pods plus pods a simulation moved onto it); otherwise the drain is computed from scratch.
   */
  <T> Drain<T> drainAfter(Drain<T> before, List<T> prefix, List<T> items, Function<T, Pod> pod,
      Function<T, PodRules> rules) {
    int n = prefix.size();
    if (!pdbs.isEmpty() || items.size() < n || !startsWith(items, prefix)) {
      return drain(items, pod, rules);
    }
    return drainPlus(before, items.subList(n, items.size()), pod, rules);
  }

  /**
   * {@link #drain(List, Function, Function)} of some items followed by {@code added}, given {@code before}, the drain
   * of those items by rules without budgets, when no budget exists: each item's decision is its own, so the earlier
   * items' decisions stand and only {@code added} is checked.
   *
   * @throws IllegalStateException if a budget exists (then a drain depends on every item; use {@link #drain})
   */
  <T> Drain<T> drainPlus(Drain<T> before, List<T> added, Function<T, Pod> pod, Function<T, PodRules> rules) {
    if (!pdbs.isEmpty()) {
      throw new IllegalStateException("drainability: a drain extended by added pods needs no budget to exist, "
          + pdbs.size() + " exist");
    }
    if (before.blocked() || added.isEmpty()) {
      return before;
    }
    List<T> evict = new ArrayList<>(before.evict().size() + added.size());
    evict.addAll(before.evict());
    for (int i = 0; i < added.size(); i++) {
      T item = added.get(i);
      Pod p = pod.apply(item);
      Decision d = check(p, rules.apply(item));
      if (d.outcome() == Outcome.BLOCK) {
        return new Drain<>(List.of(), p.metadata().key(), d.reason());
      }
      if (d.outcome() == Outcome.EVICT) {
        evict.add(item);
      }
    }
    return new Drain<>(Collections.unmodifiableList(evict), "", "");
  }

  private static <T> boolean startsWith(List<T> items, List<T> prefix) {
    for (int i = 0; i < prefix.size(); i++) {
      if (items.get(i) != prefix.get(i)) {
        return false;
      }
    }
    return true;
  }

  /** {@link NodeDrain} over the items of {@link #drain(List, Function, Function)}. */
  record Drain<T>(List<T> evict, String blockingPod, String reason) {
    boolean blocked() {
      return !reason.isEmpty();
    }
  }

  /** Counts {@code evicted} against the budgets that cover them. */
  public void charge(List<Pod> evicted) {
    charge(evicted, p -> p);
  }

  /** {@link #charge(List)} over items that each stand for a pod ({@code pod}). */
  <T> void charge(List<T> evicted, Function<T, Pod> pod) {
    if (pdbs.isEmpty()) {
      return;
    }
    for (T item : evicted) {
      for (PodDisruptionBudget b : matching(pod.apply(item))) {
        remaining.merge(b.metadata().key(), -1, Integer::sum);
      }
    }
  }

  /**
   * The outcome of draining one node.
   *
   * @param evict the pods that must move (empty when blocked)
   * @param blockingPod {@code namespace/name} of the pod that blocks, or empty
   * @param reason the blocking reason, or empty
   */
  public record NodeDrain(List<Pod> evict, String blockingPod, String reason) {
    public NodeDrain {
      evict = List.copyOf(evict);
      Objects.requireNonNull(blockingPod, "blockingPod");
      Objects.requireNonNull(reason, "reason");
    }

    public boolean blocked() {
      return !reason.isEmpty();
    }
  }

  private List<PodDisruptionBudget> matching(Pod pod) {
    if (pdbs.isEmpty()) {
      return List.of();
    }
    List<PodDisruptionBudget> out = new ArrayList<>(1);
    for (PodDisruptionBudget b : pdbs) {
      LabelSelector s = b.spec().selector();
      if (s != null && b.metadata().namespace().equals(pod.metadata().namespace())
          && s.matches(pod.metadata().labels())) {
        out.add(b);
      }
    }
    return out;
  }

  private static boolean hasLocalStorage(Pod pod) {
    String listed = pod.metadata().annotations().get(SAFE_TO_EVICT_LOCAL_VOLUMES);
    Set<String> safe = listed == null || listed.isEmpty() ? Set.of() : new HashSet<>(List.of(listed.split(",", -1)));
    for (Volume v : pod.spec().volumes()) {
      VolumeSource s = v.source();
      boolean local = s instanceof VolumeSource.HostPath
          || (s instanceof VolumeSource.EmptyDir && !"Memory".equals(((VolumeSource.EmptyDir) s).medium()));
      if (local && !safe.contains(v.name())) {
        return true;
      }
    }
    return false;
  }
}
