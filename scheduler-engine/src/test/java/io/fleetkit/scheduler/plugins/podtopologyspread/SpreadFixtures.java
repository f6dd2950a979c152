package io.fleetkit.scheduler.plugins.podtopologyspread;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.labels.LabelSelectorOperator;
import io.fleetkit.api.labels.LabelSelectorRequirement;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.framework.CycleState;
import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.framework.NodeInfos;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.framework.PodInfos;
import io.fleetkit.api.framework.Snapshot;
import io.fleetkit.api.framework.StateKey;
import io.fleetkit.api.scheduling.Affinity;
import io.fleetkit.api.scheduling.NodeAffinity;
import io.fleetkit.api.scheduling.NodeInclusionPolicy;
import io.fleetkit.api.scheduling.NodeSelector;
import io.fleetkit.api.scheduling.NodeSelectorOperator;
import io.fleetkit.api.scheduling.NodeSelectorRequirement;
import io.fleetkit.api.scheduling.NodeSelectorTerm;
import io.fleetkit.api.scheduling.Taint;
import io.fleetkit.api.scheduling.TaintEffect;
import io.fleetkit.api.scheduling.Toleration;
import io.fleetkit.api.scheduling.TopologySpreadConstraint;
import io.fleetkit.api.scheduling.UnsatisfiableConstraintAction;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Test-only builders mirroring upstream's {@code pkg/scheduler/testing} wrappers ({@code st.MakePod()},
 * {@code st.MakeNode()}, {@code st.MakeLabelSelector()}), plus a HashMap-backed {@link CycleState} and a list-backed
 * {@link Snapshot}, so the plugin can be tested without the engine.
 */
final class SpreadFixtures {
  static final NodeInclusionPolicy HONOR = NodeInclusionPolicy.Honor;
  static final NodeInclusionPolicy IGNORE = NodeInclusionPolicy.Ignore;
  static final UnsatisfiableConstraintAction HARD = UnsatisfiableConstraintAction.DoNotSchedule;
  static final UnsatisfiableConstraintAction SOFT = UnsatisfiableConstraintAction.ScheduleAnyway;
  /** Upstream fooSelector / barSelector: {@code Exists(foo)}, {@code Exists(bar)}. */
  static final LabelSelector FOO = sel().exists("foo").obj();
  static final LabelSelector BAR = sel().exists("bar").obj();
  /** Upstream {@code taints}: the node.kubernetes.io/unschedulable NoSchedule taint. */
  static final List<Taint> TAINTS = List.of(Taint.of("node.kubernetes.io/unschedulable", "", TaintEffect.NoSchedule));

  private SpreadFixtures() {}

  static PodW pod(String name) {
    return new PodW(name);
  }

  static NodeW node(String name) {
    return new NodeW(name);
  }

  static SelW sel() {
    return new SelW();
  }

  /** A pod builder with upstream's method names. */
  static final class PodW {
    private final Pod.Builder b = Pod.builder();
    private @Nullable NodeSelector required;

    PodW(String name) {
      b.name(name).uid(name).container("c", "pause", ResourceList.EMPTY);
    }

    PodW ns(String ns) {
      b.namespace(ns);
      return this;
    }

    PodW node(String node) {
      b.nodeName(node);
      return this;
    }

    PodW label(String k, String v) {
      b.label(k, v);
      return this;
    }

    PodW terminating() {
      b.metadata(b.build().metadata().toBuilder().deletionTimestamp(Instant.EPOCH).build());
      return this;
    }

    PodW nodeSelector(Map<String, String> m) {
      b.nodeSelector(m);
      return this;
    }

    PodW nodeAffinityIn(String key, String... values) {
      return affinity(key, NodeSelectorOperator.In, values);
    }

    PodW nodeAffinityNotIn(String key, String... values) {
      return affinity(key, NodeSelectorOperator.NotIn, values);
    }

    private PodW affinity(String key, NodeSelectorOperator op, String... values) {
      required = new NodeSelector(List.of(new NodeSelectorTerm(
          List.of(new NodeSelectorRequirement(key, op, List.of(values))), List.of())));
      b.affinity(new Affinity(new NodeAffinity(required, List.of()), null, null));
      return this;
    }

    PodW toleration(String key) {
      b.toleration(Toleration.exists(key, null));
      return this;
    }

    PodW tolerationAll() {
      b.toleration(Toleration.exists("", null));
      return this;
    }

    PodW spread(int maxSkew, String key, UnsatisfiableConstraintAction action, @Nullable LabelSelector selector) {
      return spread(maxSkew, key, action, selector, null, null, null, null);
    }

    /** Upstream SpreadConstraint(maxSkew, key, action, selector, minDomains, affinityPolicy, taintsPolicy, keys). */
    PodW spread(int maxSkew, String key, UnsatisfiableConstraintAction action, @Nullable LabelSelector selector,
        @Nullable Integer minDomains, @Nullable NodeInclusionPolicy affinityPolicy,
        @Nullable NodeInclusionPolicy taintsPolicy, @Nullable List<String> matchLabelKeys) {
      b.topologySpreadConstraint(new TopologySpreadConstraint(maxSkew, key, action, selector, minDomains,
          affinityPolicy == null ? HONOR : affinityPolicy, taintsPolicy == null ? IGNORE : taintsPolicy,
          matchLabelKeys == null ? List.of() : matchLabelKeys));
      return this;
    }

    Pod obj() {
      return b.build();
    }
  }

  /** A node builder with upstream's method names. */
  static final class NodeW {
    private final Node.Builder b = Node.builder();

    NodeW(String name) {
      b.name(name);
    }

    NodeW label(String k, String v) {
      b.label(k, v);
      return this;
    }

    NodeW taints(List<Taint> taints) {
      b.taints(taints);
      return this;
    }

    Node obj() {
      return b.build();
    }
  }

  /** A label selector builder with upstream's method names. */
  static final class SelW {
    private final Map<String, String> labels = new LinkedHashMap<>();
    private final List<LabelSelectorRequirement> exprs = new ArrayList<>();

    SelW label(String k, String v) {
      labels.put(k, v);
      return this;
    }

    SelW exists(String k) {
      exprs.add(new LabelSelectorRequirement(k, LabelSelectorOperator.Exists, List.of()));
      return this;
    }

    SelW notExist(String k) {
      exprs.add(new LabelSelectorRequirement(k, LabelSelectorOperator.DoesNotExist, List.of()));
      return this;
    }

    SelW in(String k, String... values) {
      exprs.add(new LabelSelectorRequirement(k, LabelSelectorOperator.In, Arrays.asList(values)));
      return this;
    }

    SelW notIn(String k, String... values) {
      exprs.add(new LabelSelectorRequirement(k, LabelSelectorOperator.NotIn, Arrays.asList(values)));
      return this;
    }

    LabelSelector obj() {
      return new LabelSelector(labels, exprs);
    }
  }

  /** Nodes with their pods (by {@code spec.nodeName}, in order), as the scheduler's snapshot would hold them. */
  static final class Cluster implements Snapshot {
    private final List<NodeInfo> nodes;
    private final Map<String, NodeInfo> byName = new HashMap<>();

    Cluster(List<Node> nodes, List<Pod> pods) {
      Map<String, List<PodInfo>> podsByNode = new HashMap<>();
      for (Pod p : pods) {
        podsByNode.computeIfAbsent(p.spec().nodeName(), k -> new ArrayList<>()).add(PodInfos.of(p));
      }
      List<NodeInfo> infos = new ArrayList<>();
      for (Node n : nodes) {
        NodeInfo info = NodeInfos.of(n, podsByNode.getOrDefault(n.metadata().name(), List.of()));
        infos.add(info);
        byName.put(info.name(), info);
      }
      this.nodes = List.copyOf(infos);
    }

    @Override
    public List<NodeInfo> nodes() {
      return nodes;
    }

    @Override
    public List<NodeInfo> nodesWithAffinityPods() {
      return nodes.stream().filter(n -> !n.podsWithAffinity().isEmpty()).toList();
    }

    @Override
    public List<NodeInfo> nodesWithRequiredAntiAffinityPods() {
      return nodes.stream().filter(n -> !n.podsWithRequiredAntiAffinity().isEmpty()).toList();
    }

    @Override
    public @Nullable NodeInfo get(String nodeName) {
      return byName.get(nodeName);
    }

    @Override
    public int size() {
      return nodes.size();
    }
  }

  /** A HashMap-backed cycle state. */
  static final class MapCycleState implements CycleState {
    private final Map<StateKey<?>, Object> values;

    MapCycleState() {
      this(new HashMap<>());
    }

    private MapCycleState(Map<StateKey<?>, Object> values) {
      this.values = values;
    }

    @Override
    public <T> void write(StateKey<T> key, T value) {
      values.put(key, value);
    }

    @Override
    public <T> @Nullable T read(StateKey<T> key) {
      return key.type().cast(values.get(key));
    }

    @Override
    public CycleState copy() {
      return new MapCycleState(new HashMap<>(values));
    }

    @Override
    public boolean isPreemptionDryRun() {
      return false;
    }
  }
}
