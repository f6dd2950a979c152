package io.fleetkit.scheduler.plugins.coscheduling;

import io.fleetkit.api.framework.CycleState;
import io.fleetkit.api.framework.FilterPlugin;
import io.fleetkit.api.framework.FrameworkHandle;
import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.framework.PluginFactory;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.framework.PreFilterPlugin;
import io.fleetkit.api.framework.PreFilterResult;
import io.fleetkit.api.framework.PreScorePlugin;
import io.fleetkit.api.framework.ScorePlugin;
import io.fleetkit.api.framework.Snapshot;
import io.fleetkit.api.framework.StateKey;
import io.fleetkit.api.framework.Status;
import io.fleetkit.api.scheduling.PodGroup;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * Topology-aware gangs, like Slurm's topology/tree and Kueue's topology-aware scheduling: a PodGroup annotated
 * {@value #REQUIRED} (or Kueue's {@value #KUEUE_REQUIRED}) with a node label key, such as a rack or switch label,
 * runs all its pods in one domain of that label; with {@value #PREFERRED} (or {@value #KUEUE_PREFERRED}) one domain
 * is preferred (scored) but the gang may spread.
 *
 * <p>The domain is chosen once per gang: where members already run or are reserved (the one holding most of them),
 * else the domain whose free capacity (copies of a member that fit, node by node) holds the whole gang most tightly
 * (ties by name), so that large domains stay free for large gangs. A required gang no domain can hold is rejected
 * in PreFilter with a message naming the label and the largest domain's room. Skips pods without such a group.
 */
public final class GangTopologyPlugin implements PreFilterPlugin, FilterPlugin, PreScorePlugin, ScorePlugin {
  public static final String NAME = "GangTopology";
  public static final PluginFactory FACTORY = GangTopologyPlugin::new;
  /** PodGroup annotation: the node label whose one domain must hold the whole gang. */
  public static final String REQUIRED = "fleetkit.io/topology-required";
  /** PodGroup annotation: the node label whose one domain should hold the whole gang. */
  public static final String PREFERRED = "fleetkit.io/topology-preferred";
  public static final String KUEUE_REQUIRED = "kueue.x-k8s.io/podset-required-topology";
  public static final String KUEUE_PREFERRED = "kueue.x-k8s.io/podset-preferred-topology";
  public static final String REASON = "node(s) were outside the pod group's topology domain";
  /** The score weight {@link CoschedulingPlugin#enableIn} gives this plugin. */
  public static final int DEFAULT_WEIGHT = 10;

  private record Target(String labelKey, String domain, boolean required) {}

  private static final StateKey<Target> TARGET = StateKey.of(NAME + "/target", Target.class);
  private static final Status OUTSIDE = new Status(Status.Code.UNSCHEDULABLE_AND_UNRESOLVABLE, List.of(REASON), NAME);

  private final FrameworkHandle handle;

  public GangTopologyPlugin(FrameworkHandle handle) {
    this.handle = handle;
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public PreFilterResult preFilter(CycleState state, PodInfo pod, Snapshot snapshot) {
    PodGroup pg = groupOf(pod);
    if (pg == null) {
      return PreFilterResult.skip();
    }
    Map<String, String> ann = pg.metadata().annotations();
    String required = ann.getOrDefault(REQUIRED, ann.get(KUEUE_REQUIRED));
    String preferred = ann.getOrDefault(PREFERRED, ann.get(KUEUE_PREFERRED));
    String labelKey = required != null ? required : preferred;
    if (labelKey == null || labelKey.isBlank()) {
      return PreFilterResult.skip();
    }
    String domain = domainOfMembers(pg, labelKey, snapshot);
    if (domain == null) {
      MemberFit fit = new MemberFit(pod);
      Map<String, Long> room = new TreeMap<>();
      for (NodeInfo ni : snapshot.nodes()) {
        String d = ni.labels().get(labelKey);
        if (d != null && fit.eligible(ni)) {
          room.merge(d, fit.copies(fit.free(ni)), Long::sum);
        }
      }
      int need = pg.spec().minMember();
      String tightest = null;
      String largest = null;
      for (Map.Entry<String, Long> e : room.entrySet()) {
        if (e.getValue() >= need && (tightest == null || e.getValue() < room.get(tightest))) {
          tightest = e.getKey();
        }
        if (largest == null || e.getValue() > room.get(largest)) {
          largest = e.getKey();
        }
      }
      domain = tightest != null ? tightest : required == null ? largest : null;
      if (domain == null) {
        String why = "pod group " + pg.metadata().key() + ": no " + labelKey + " domain can hold its " + need
            + " pods" + (largest == null ? " (no eligible node has the label)"
                : " (the largest, " + largest + ", has room for " + room.get(largest) + ")");
        return PreFilterResult.of(new Status(Status.Code.UNSCHEDULABLE_AND_UNRESOLVABLE, List.of(why), NAME));
      }
    }
    Target t = new Target(labelKey, domain, required != null);
    state.write(TARGET, t);
    if (t.required()) {
      Set<String> nodes = new HashSet<>();
      for (NodeInfo ni : snapshot.nodes()) {
        if (t.domain().equals(ni.labels().get(labelKey))) {
          nodes.add(ni.name());
        }
      }
      return PreFilterResult.onlyNodes(nodes);
    }
    return PreFilterResult.success();
  }

  /** The domain holding most scheduled (or reserved) members of the group; ties by name; null when none runs. */
  private static @Nullable String domainOfMembers(PodGroup pg, String labelKey, Snapshot snapshot) {
    String ns = pg.metadata().namespace();
    String name = pg.metadata().name();
    Map<String, Integer> count = new TreeMap<>();
    for (NodeInfo ni : snapshot.nodes()) {
      String d = ni.labels().get(labelKey);
      if (d == null) {
        continue;
      }
      for (PodInfo p : ni.pods()) {
        if (name.equals(p.pod().podGroupName()) && ns.equals(p.pod().metadata().namespace())) {
          count.merge(d, 1, Integer::sum);
        }
      }
    }
    String best = null;
    for (Map.Entry<String, Integer> e : count.entrySet()) {
      if (best == null || e.getValue() > count.get(best)) {
        best = e.getKey();
      }
    }
    return best;
  }

  @Override
  public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
    Target t = state.read(TARGET);
    if (t == null || !t.required() || t.domain().equals(node.labels().get(t.labelKey()))) {
      return Status.success();
    }
    return OUTSIDE;
  }

  @Override
  public Status preScore(CycleState state, PodInfo pod, List<NodeInfo> nodes) {
    Target t = state.read(TARGET);
    return t == null || t.required() ? Status.skip() : Status.success();
  }

  @Override
  public long score(CycleState state, PodInfo pod, NodeInfo node) {
    Target t = state.read(TARGET);
    return t != null && t.domain().equals(node.labels().get(t.labelKey())) ? MAX_NODE_SCORE : 0;
  }

  private @Nullable PodGroup groupOf(PodInfo pod) {
    String g = pod.pod().podGroupName();
    if (g == null) {
      return null;
    }
    String ns = pod.pod().metadata().namespace();
    for (PodGroup pg : handle.list(PodGroup.class)) {
      if (pg.metadata().name().equals(g) && pg.metadata().namespace().equals(ns)) {
        return pg;
      }
    }
    return null;
  }

  @Override
  public String toString() {
    return NAME;
  }
}
