package io.fleetkit.queueing.controller.internal;

import io.fleetkit.api.ConflictException;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.text.GoIntegers;
import io.fleetkit.queueing.PodSetAssignment;
import io.fleetkit.queueing.PodSetTopologyRequest;
import io.fleetkit.queueing.QuotaReservation;
import io.fleetkit.queueing.Topology;
import io.fleetkit.queueing.TopologyAssignment;
import io.fleetkit.queueing.controller.QueueLabels;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Kueue's topology ungater ({@code pkg/controller/tas/topology_ungater.go}): the pods of a workload admitted with
 * topology assignments are created with the scheduling gate {@value QueueLabels#TOPOLOGY_SCHEDULING_GATE}; for each
 * pod set with an assignment, the gated pods get domains so that every domain holds its assigned count, and each is
 * ungated, with its domain's level labels added to its nodeSelector, in one update per pod. The scheduler then places
 * the pod within its domain.
 *
 * <ul>
 *   <li>The pods of a pod set are those of the workload's namespace annotated {@value QueueLabels#WORKLOAD} with the
 *       workload's name and labelled {@value QueueLabels#POD_SET} with the pod set's; failed and succeeded pods are
 *       left out (they are being replaced).
 *   <li>Ranks: when the pod set's {@link PodSetTopologyRequest#podIndexLabel()} is set and every pod carries a valid
 *       index, the pod of rank {@code r} (its index less the {@value QueueLabels#POD_INDEX_OFFSET} annotation, plus
 *       {@code subGroupIndex × (count / subGroupCount)} with sub-groups) goes to the domain of the {@code r}-th pod of
 *       the assignment in its domain order; pod sets of one {@link PodSetTopologyRequest#podSetGroupName() group}
 *       share the ranks, the smaller one (the leader) first. Ranks that are missing, repeated, out of range, or that
 *       disagree with the domain of a pod already ungated, fall back to the greedy way.
 *   <li>Greedy: the pods already ungated keep their domains (read from their nodeSelector); the gated ones, in name
 *       order, fill each domain's remaining count in the assignment's order.
 *   <li>A pod whose domain is a node the engine recorded as unhealthy stays gated until the assignment names a
 *       replacement.
 * </ul>
 *
 * <p>Stateless; thread-safe. Kueue's expectations of ungated pods (guarding against a stale informer cache) are not
 * needed: the pods are read from the store itself, and the controller runtime never reconciles one Job on two
 * threads at once.
 */
public final class TopologyUngater {
  private static final Logger LOG = LoggerFactory.getLogger(TopologyUngater.class);
  private static final int UPDATE_ATTEMPTS = 3;

  /**
   * What the ungater reads of a workload.
   *
   * @param namespace the workload's namespace
   * @param name the workload's name (the value of the pods' {@value QueueLabels#WORKLOAD} annotation)
   * @param admission its quota reservation, or {@code null}
   * @param admitted whether it is admitted (quota reserved and every admission check ready)
   * @param requests each pod set's topology request (index labels, group), by pod set name
   * @param unhealthyNodes the nodes the engine recorded as unhealthy for it
   */
  public record WorkloadView(String namespace, String name, @Nullable QuotaReservation admission, boolean admitted,
      Map<String, PodSetTopologyRequest> requests, Set<String> unhealthyNodes) {
    public WorkloadView {
      Objects.requireNonNull(namespace, "namespace");
      Objects.requireNonNull(name, "name");
      requests = Map.copyOf(Objects.requireNonNull(requests, "requests"));
      unhealthyNodes = Set.copyOf(Objects.requireNonNull(unhealthyNodes, "unhealthyNodes"));
    }

    /** Kueue's {@code IsAdmittedByTAS}: admitted, and a pod set has a topology assignment. */
    public boolean admittedByTas() {
      if (admission == null || !admitted) {
        return false;
      }
      for (PodSetAssignment p : admission.podSets()) {
        if (p.topologyAssignment() != null) {
          return true;
        }
      }
      return false;
    }
  }

  /**
   * One pod to ungate: the pod as read and the node labels of its domain.
   *
   * @param pod the pod
   * @param nodeLabels the domain's level labels, to add to its nodeSelector
   */
  public record Ungate(Pod pod, Map<String, String> nodeLabels) {
    public Ungate {
      Objects.requireNonNull(pod, "pod");
      nodeLabels = Map.copyOf(Objects.requireNonNull(nodeLabels, "nodeLabels"));
    }
  }

  /**
   * What to do: the pods to ungate, or an error that stops the whole reconcile (nothing ungated).
   *
   * @param ungates the pods to ungate, gated ones only
   * @param error why nothing may be ungated now, or {@code null}
   */
  public record Plan(List<Ungate> ungates, @Nullable String error) {
    public Plan {
      ungates = List.copyOf(Objects.requireNonNull(ungates, "ungates"));
    }
  }

  private TopologyUngater() {}

  /**
   * Kueue's {@code IsTAS} for a pod's {@code annotations}: it carries a topology annotation (required, preferred,
   * slices, or unconstrained).
   */
  public static boolean isTas(Map<String, String> annotations) {
    return annotations.containsKey(PodSetTopologyRequest.PREFERRED_ANNOTATION)
        || annotations.containsKey(PodSetTopologyRequest.REQUIRED_ANNOTATION)
        || annotations.containsKey(PodSetTopologyRequest.SLICE_REQUIRED_ANNOTATION)
        || annotations.containsKey(PodSetTopologyRequest.SLICE_CONSTRAINTS_ANNOTATION)
        || annotations.containsKey(PodSetTopologyRequest.UNCONSTRAINED_ANNOTATION);
  }

  /** Whether the pod has the topology scheduling gate. */
  public static boolean gated(Pod pod) {
    return pod.spec().schedulingGates().contains(QueueLabels.TOPOLOGY_SCHEDULING_GATE);
  }

  /** The pods annotated with a workload ({@value QueueLabels#WORKLOAD}) in a namespace. */
  @FunctionalInterface
  public interface WorkloadPods {
    /** The pods of {@code namespace} whose workload annotation is {@code workload}, in any order. */
    List<Pod> of(String namespace, String workload);
  }

  /**
   * Ungates the workload's pods in {@code store} as {@link #plan} decides, one update per pod (re-read and retried on
   * a conflict).
   *
   * @return the plan carried out (its error, if any, means nothing was ungated)
   */
  public static Plan reconcile(ObjectStore store, WorkloadView wl) {
    return reconcile(store, wl, (ns, workload) -> store.list(Pod.class, ns,
        (Pod p) -> workload.equals(p.metadata().annotations().get(QueueLabels.WORKLOAD))).items());
  }

  /**
   * As {@link #reconcile(ObjectStore, WorkloadView)}, with the workload's pods from {@code pods} (an index such as
   * Kueue's on the workload annotation; its view may trail the store, as an informer's does: an update of a pod
   * that changed since fails on its resourceVersion and is retried on the stored pod).
   */
  public static Plan reconcile(ObjectStore store, WorkloadView wl, WorkloadPods pods) {
    if (!wl.admittedByTas()) {
      return new Plan(List.of(), null); // a safeguard, as Kueue's: e.g. evicted before this reconcile
    }
    Plan plan = plan(wl, pods.of(wl.namespace(), wl.name()));
    if (plan.error() != null) {
      LOG.debug("topology ungater: workload {}/{}: {}", wl.namespace(), wl.name(), plan.error());
      return plan;
    }
    for (Ungate u : plan.ungates()) {
      apply(store, u);
    }
    return plan;
  }

  private static void apply(ObjectStore store, Ungate u) {
    Pod pod = u.pod();
    for (int attempt = 1; ; attempt++) {
      if (!gated(pod)) {
        return;
      }
      LOG.debug("topology ungater: ungating pod {} with {}", pod.metadata().key(), u.nodeLabels());
      try {
        store.update(ungated(pod, u.nodeLabels()));
        return;
      } catch (ConflictException e) {
        if (attempt >= UPDATE_ATTEMPTS) {
          throw e;
        }
        Pod fresh = store.get(Pod.class, pod.metadata().namespace(), pod.metadata().name()).orElse(null);
        if (fresh == null) {
          return;
        }
        pod = fresh;
      }
    }
  }

  /** {@code pod} without the topology gate, with {@code nodeLabels} added to its nodeSelector. */
  static Pod ungated(Pod pod, Map<String, String> nodeLabels) {
    PodSpec s = pod.spec();
    List<String> gates = new ArrayList<>(s.schedulingGates());
    gates.remove(QueueLabels.TOPOLOGY_SCHEDULING_GATE);
    Map<String, String> selector = new LinkedHashMap<>(s.nodeSelector());
    selector.putAll(nodeLabels);
    return pod.withSpec(s.toBuilder().schedulingGates(gates).nodeSelector(selector).build());
  }

  /**
   * The pods to ungate of a workload admitted by TAS, given all pods annotated with its name (Kueue's {@code
   * Reconcile} after listing). Pure.
   */
  public static Plan plan(WorkloadView wl, List<Pod> workloadPods) {
    QuotaReservation admission = wl.admission();
    if (!wl.admittedByTas() || admission == null) {
      return new Plan(List.of(), null);
    }
    // pod sets of one group share their ranks: the leader (the smaller pod set, or the first on a tie) first
    Map<String, List<PodSetAssignment>> groups = new LinkedHashMap<>();
    List<PodSetAssignment> psas = admission.podSets();
    for (int i = 0; i < psas.size(); i++) {
      PodSetAssignment psa = psas.get(i);
      PodSetTopologyRequest req = wl.requests().get(psa.name());
      String group = req != null && req.podSetGroupName() != null ? "group:" + req.podSetGroupName() : "index:" + i;
      groups.computeIfAbsent(group, g -> new ArrayList<>()).add(psa);
    }
    Map<String, Integer> rankOffset = new HashMap<>();
    Map<String, Integer> maxRank = new HashMap<>();
    for (List<PodSetAssignment> g : groups.values()) {
      if (g.size() > 1) {
        PodSetAssignment smaller = g.get(0);
        PodSetAssignment larger = g.get(1);
        if (smaller.count() > larger.count()) {
          smaller = g.get(1);
          larger = g.get(0);
        }
        rankOffset.put(smaller.name(), 0);
        rankOffset.put(larger.name(), smaller.count());
        maxRank.put(smaller.name(), smaller.count());
        maxRank.put(larger.name(), larger.count() + smaller.count());
      } else {
        rankOffset.put(g.get(0).name(), 0);
        maxRank.put(g.get(0).name(), g.get(0).count());
      }
    }
    List<Ungate> all = new ArrayList<>();
    for (PodSetAssignment psa : psas) {
      TopologyAssignment ta = psa.topologyAssignment();
      if (ta == null) {
        continue;
      }
      List<Pod> pods = podsOf(workloadPods, psa.name());
      // a third pod set of one group has no ranks (Kueue pairs a leader with its workers): its bound of 0 reads none
      int offset = rankOffset.getOrDefault(psa.name(), 0);
      int bound = maxRank.getOrDefault(psa.name(), 0);
      if (!pods.isEmpty()) {
        // every pod of a replica has the same offset
        String v = pods.get(0).metadata().annotations().get(QueueLabels.POD_INDEX_OFFSET);
        if (v != null) {
          int extra;
          try {
            extra = GoIntegers.atoi32(v); // Kueue's ungater: strconv.Atoi
          } catch (NumberFormatException e) {
            return new Plan(List.of(), "pod " + pods.get(0).metadata().key() + ": annotation "
                + QueueLabels.POD_INDEX_OFFSET + " \"" + v + "\" is not an integer; no pod of the workload is ungated");
          }
          offset += extra;
          bound += extra;
        }
      }
      List<PodDomain> toDomains = assign(psa, ta, pods, wl.requests().get(psa.name()), offset, bound);
      if (!wl.unhealthyNodes().isEmpty() && Topology.HOSTNAME_LABEL.equals(ta.levels().get(ta.levels().size() - 1))) {
        // the assignment still names an unhealthy node until its replacement is found: pods ungated onto it could
        // never be scheduled, so they wait for the replacement domain
        toDomains.removeIf(pd -> wl.unhealthyNodes().contains(pd.domain().get(pd.domain().size() - 1)));
      }
      for (PodDomain pd : toDomains) {
        if (gated(pd.pod())) {
          all.add(new Ungate(pd.pod(), labels(ta.levels(), pd.domain())));
        }
      }
    }
    return new Plan(all, null);
  }

  private record PodDomain(Pod pod, List<String> domain) {}

  /** The live pods of the pod set, by name (the order the greedy way fills domains in). */
  private static List<Pod> podsOf(List<Pod> workloadPods, String podSet) {
    List<Pod> out = new ArrayList<>();
    for (Pod p : workloadPods) {
      if (podSet.equals(p.metadata().labels().get(QueueLabels.POD_SET)) && !p.isTerminal()) {
        out.add(p);
      }
    }
    out.sort(Comparator.comparing((Pod p) -> p.metadata().name()));
    return out;
  }

  private static Map<String, String> labels(List<String> levels, List<String> values) {
    Map<String, String> out = new TreeMap<>();
    for (int i = 0; i < levels.size(); i++) {
      out.put(levels.get(i), values.get(i));
    }
    return out;
  }

  /** Kueue's {@code assignGatedPodsToDomains}: by ranks when they can be read, else greedily. */
  private static List<PodDomain> assign(PodSetAssignment psa, TopologyAssignment ta, List<Pod> pods,
      @Nullable PodSetTopologyRequest req, int offset, int bound) {
    List<List<String>> rankToDomain = new ArrayList<>();
    for (TopologyAssignment.Domain d : ta.domains()) {
      for (int i = 0; i < d.count(); i++) {
        rankToDomain.add(d.values());
      }
    }
    Map<Integer, Pod> ranked = ranks(psa, ta, pods, req, offset, bound, rankToDomain);
    if (ranked != null) {
      List<PodDomain> out = new ArrayList<>();
      for (Map.Entry<Integer, Pod> e : new TreeMap<>(ranked).entrySet()) {
        out.add(new PodDomain(e.getValue(), rankToDomain.get(e.getKey())));
      }
      return out;
    }
    return greedy(ta, pods);
  }

  /** Kueue's {@code assignGatedPodsToDomainsGreedy}. */
  private static List<PodDomain> greedy(TopologyAssignment ta, List<Pod> pods) {
    List<Pod> gated = new ArrayList<>();
    Map<List<String>, Integer> ungatedIn = new HashMap<>();
    for (Pod p : pods) {
      if (gated(p)) {
        gated.add(p);
      } else {
        ungatedIn.merge(levelValues(ta.levels(), p.spec().nodeSelector()), 1, Integer::sum);
      }
    }
    List<PodDomain> out = new ArrayList<>();
    for (TopologyAssignment.Domain d : ta.domains()) {
      int remaining = Math.max(d.count() - ungatedIn.getOrDefault(d.values(), 0), 0);
      int n = Math.min(remaining, gated.size() - out.size());
      for (int i = 0; i < n; i++) {
        out.add(new PodDomain(gated.get(out.size()), d.values()));
      }
    }
    return out;
  }

  private static List<String> levelValues(List<String> levels, Map<String, String> labels) {
    List<String> out = new ArrayList<>(levels.size());
    for (String l : levels) {
      out.add(labels.getOrDefault(l, ""));
    }
    return out;
  }

  /**
   * Kueue's {@code readRanksIfAvailable}: each pod by its rank, or {@code null} when ranks cannot be used (no index
   * label, an invalid one, a repeated or out-of-range rank, or an ungated pod outside its rank's domain).
   */
  private static @Nullable Map<Integer, Pod> ranks(PodSetAssignment psa, TopologyAssignment ta, List<Pod> pods,
      @Nullable PodSetTopologyRequest req, int offset, int bound, List<List<String>> rankToDomain) {
    if (req == null || req.podIndexLabel() == null) {
      return null;
    }
    Map<Integer, Pod> result = readRanks(psa, pods, req, offset, bound);
    if (result == null) {
      return null;
    }
    for (Map.Entry<Integer, Pod> e : result.entrySet()) {
      int rank = e.getKey();
      if (rank >= rankToDomain.size()) {
        // the assignment covers fewer pods than the pod set (a slice size not dividing the count)
        return null;
      }
      Pod p = e.getValue();
      if (!gated(p) && !rankToDomain.get(rank).equals(levelValues(ta.levels(), p.spec().nodeSelector()))) {
        return null;
      }
    }
    return result;
  }

  /** Kueue's {@code readRanksForLabels}; {@code null} where Kueue returns an error. */
  private static @Nullable Map<Integer, Pod> readRanks(PodSetAssignment psa, List<Pod> pods,
      PodSetTopologyRequest req, int offset, int bound) {
    int podSetSize = psa.count();
    int singleJobSize = podSetSize;
    String subGroupLabel = req.subGroupIndexLabel();
    Integer subGroupCount = req.subGroupCount();
    if (subGroupLabel != null) {
      if (subGroupCount == null || subGroupCount <= 0) {
        return null; // Kueue's errInvalidSubGroupCount
      }
      singleJobSize = podSetSize / subGroupCount;
    }
    Map<Integer, Pod> result = new HashMap<>();
    for (Pod pod : pods) {
      Integer index = readIndex(pod, req.podIndexLabel(), bound);
      if (index == null) {
        return null;
      }
      int rank = index - offset;
      if (subGroupLabel != null) {
        Integer jobIndex = readIndex(pod, subGroupLabel, subGroupCount);
        if (jobIndex == null || index >= singleJobSize) {
          return null;
        }
        rank = index + jobIndex * singleJobSize - offset;
      }
      if (rank >= podSetSize || rank < 0 || result.putIfAbsent(rank, pod) != null) {
        return null;
      }
    }
    return result;
  }

  /** Kueue's {@code ReadUIntFromLabelBelowBound}: the label's unsigned value below {@code bound}, or {@code null}. */
  private static @Nullable Integer readIndex(Pod pod, @Nullable String label, int bound) {
    String v = label == null ? null : pod.metadata().labels().get(label);
    if (v == null || v.isEmpty() || !v.chars().allMatch(c -> c >= '0' && c <= '9')) {
      return null;
    }
    try {
      long n = Long.parseLong(v);
      return n < bound ? (int) n : null;
    } catch (NumberFormatException e) {
      return null; // too large for a long: not below the bound either
    }
  }
}
