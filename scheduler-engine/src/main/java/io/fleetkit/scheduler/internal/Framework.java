package io.fleetkit.scheduler.internal;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.scheduler.BindPlugin;
import io.fleetkit.api.scheduler.ClusterEvent;
import io.fleetkit.api.scheduler.CycleState;
import io.fleetkit.api.scheduler.EnqueueExtensions;
import io.fleetkit.api.scheduler.FilterPlugin;
import io.fleetkit.api.scheduler.FrameworkHandle;
import io.fleetkit.api.scheduler.NodeInfo;
import io.fleetkit.api.scheduler.PermitPlugin;
import io.fleetkit.api.scheduler.Plugin;
import io.fleetkit.api.scheduler.PluginFactory;
import io.fleetkit.api.scheduler.PodInfo;
import io.fleetkit.api.scheduler.PostBindPlugin;
import io.fleetkit.api.scheduler.PostFilterPlugin;
import io.fleetkit.api.scheduler.PreBindPlugin;
import io.fleetkit.api.scheduler.PreEnqueuePlugin;
import io.fleetkit.api.scheduler.PreFilterPlugin;
import io.fleetkit.api.scheduler.PreScorePlugin;
import io.fleetkit.api.scheduler.QueueSortPlugin;
import io.fleetkit.api.scheduler.ReservePlugin;
import io.fleetkit.api.scheduler.SchedulerProfile;
import io.fleetkit.api.scheduler.ScorePlugin;
import io.fleetkit.api.scheduler.Snapshot;
import io.fleetkit.api.scheduler.Status;
import io.fleetkit.api.scheduler.WaitingPods;
import io.fleetkit.scheduler.PluginRegistry;
import java.time.Clock;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * One profile's runtime: its plugins sorted into an array per extension point (a plugin joins every point it
 * implements, in profile order, as kube's {@code multiPoint}), the score weights, and the {@link FrameworkHandle}
 * its plugins were created with. Plugin exceptions become {@link Status.Code#ERROR} statuses naming the plugin.
 */
public final class Framework implements FrameworkHandle {
  final String schedulerName;
  final @Nullable Integer percentageOfNodesToScore;
  private final SchedulerProfile profile;
  private final Clock clock;
  private final ClusterSnapshot snapshot;
  private final WaitingPods waitingPods;
  private final ClusterObjects objects;

  final QueueSortPlugin queueSort;
  final String queueSortName;
  final PreEnqueuePlugin[] preEnqueue;
  final String[] preEnqueueNames;
  final PreFilterPlugin[] preFilter;
  final String[] preFilterNames;
  /** For each PreFilter plugin, the index of the same plugin in {@link #filter}, or -1. */
  final int[] preFilterToFilter;
  final FilterPlugin[] filter;
  final String[] filterNames;
  final PostFilterPlugin[] postFilter;
  final String[] postFilterNames;
  final PreScorePlugin[] preScore;
  final String[] preScoreNames;
  final int[] preScoreToScore;
  final ScorePlugin[] score;
  final String[] scoreNames;
  final long[] scoreWeights;
  final ReservePlugin[] reserve;
  final String[] reserveNames;
  final PermitPlugin[] permit;
  final String[] permitNames;
  final PreBindPlugin[] preBind;
  final String[] preBindNames;
  final BindPlugin[] bind;
  final String[] bindNames;
  final PostBindPlugin[] postBind;
  final String[] postBindNames;
  /** Events each plugin registered; plugins absent from the map register every event. */
  private final Map<String, Set<ClusterEvent>> registeredEvents = new HashMap<>();

  Framework(SchedulerProfile profile, PluginRegistry registry, Clock clock, ClusterSnapshot snapshot,
      WaitingPods waitingPods, ClusterObjects objects) {
    this.profile = profile;
    this.schedulerName = profile.schedulerName();
    this.percentageOfNodesToScore = profile.percentageOfNodesToScore();
    this.clock = clock;
    this.snapshot = snapshot;
    this.waitingPods = waitingPods;
    this.objects = objects;

    List<Plugin> plugins = new ArrayList<>();
    List<String> names = new ArrayList<>();
    List<Long> weights = new ArrayList<>();
    for (SchedulerProfile.PluginRef ref : profile.plugins()) {
      PluginFactory f = registry.factory(ref.name());
      if (f == null) {
        throw new IllegalArgumentException("profile " + schedulerName + ": plugin \"" + ref.name()
            + "\" is not registered; registered plugins: " + registry.names());
      }
      Plugin p = f.create(this);
      if (p == null) {
        throw new IllegalArgumentException("profile " + schedulerName + ": the factory of plugin \"" + ref.name()
            + "\" returned null");
      }
      plugins.add(p);
      names.add(ref.name());
      weights.add((long) ref.weight());
    }
    List<QueueSortPlugin> sorts = new ArrayList<>();
    List<String> sortNames = new ArrayList<>();
    Points<PreEnqueuePlugin> pe = new Points<>();
    Points<PreFilterPlugin> pf = new Points<>();
    Points<FilterPlugin> fi = new Points<>();
    Points<PostFilterPlugin> po = new Points<>();
    Points<PreScorePlugin> ps = new Points<>();
    Points<ScorePlugin> sc = new Points<>();
    List<Long> sw = new ArrayList<>();
    Points<ReservePlugin> re = new Points<>();
    Points<PermitPlugin> pm = new Points<>();
    Points<PreBindPlugin> pb = new Points<>();
    Points<BindPlugin> bi = new Points<>();
    Points<PostBindPlugin> pob = new Points<>();
    for (int i = 0; i < plugins.size(); i++) {
      Plugin p = plugins.get(i);
      String n = names.get(i);
      if (p instanceof QueueSortPlugin q) {
        sorts.add(q);
        sortNames.add(n);
      }
      if (p instanceof PreEnqueuePlugin x) {
        pe.add(x, n);
      }
      if (p instanceof PreFilterPlugin x) {
        pf.add(x, n);
      }
      if (p instanceof FilterPlugin x) {
        fi.add(x, n);
      }
      if (p instanceof PostFilterPlugin x) {
        po.add(x, n);
      }
      if (p instanceof PreScorePlugin x) {
        ps.add(x, n);
      }
      if (p instanceof ScorePlugin x) {
        sc.add(x, n);
        sw.add(weights.get(i));
      }
      if (p instanceof ReservePlugin x) {
        re.add(x, n);
      }
      if (p instanceof PermitPlugin x) {
        pm.add(x, n);
      }
      if (p instanceof PreBindPlugin x) {
        pb.add(x, n);
      }
      if (p instanceof BindPlugin x) {
        bi.add(x, n);
      }
      if (p instanceof PostBindPlugin x) {
        pob.add(x, n);
      }
      if (p instanceof EnqueueExtensions x) {
        Set<ClusterEvent> events = x.eventsToRegister();
        registeredEvents.put(n, events.isEmpty() ? EnumSet.noneOf(ClusterEvent.class) : EnumSet.copyOf(events));
      }
    }
    if (sorts.size() != 1) {
      throw new IllegalArgumentException("profile " + schedulerName + ": exactly one QueueSort plugin is required, "
          + "found " + sorts.size() + " " + sortNames);
    }
    queueSort = sorts.get(0);
    queueSortName = sortNames.get(0);
    preEnqueue = pe.plugins.toArray(new PreEnqueuePlugin[0]);
    preEnqueueNames = pe.names();
    preFilter = pf.plugins.toArray(new PreFilterPlugin[0]);
    preFilterNames = pf.names();
    filter = fi.plugins.toArray(new FilterPlugin[0]);
    filterNames = fi.names();
    postFilter = po.plugins.toArray(new PostFilterPlugin[0]);
    postFilterNames = po.names();
    preScore = ps.plugins.toArray(new PreScorePlugin[0]);
    preScoreNames = ps.names();
    score = sc.plugins.toArray(new ScorePlugin[0]);
    scoreNames = sc.names();
    scoreWeights = new long[sw.size()];
    for (int i = 0; i < scoreWeights.length; i++) {
      scoreWeights[i] = sw.get(i);
    }
    reserve = re.plugins.toArray(new ReservePlugin[0]);
    reserveNames = re.names();
    permit = pm.plugins.toArray(new PermitPlugin[0]);
    permitNames = pm.names();
    preBind = pb.plugins.toArray(new PreBindPlugin[0]);
    preBindNames = pb.names();
    bind = bi.plugins.toArray(new BindPlugin[0]);
    bindNames = bi.names();
    postBind = pob.plugins.toArray(new PostBindPlugin[0]);
    postBindNames = pob.names();
    preFilterToFilter = crossIndex(preFilter, filter);
    preScoreToScore = crossIndex(preScore, score);
  }

  private static int[] crossIndex(Object[] from, Object[] to) {
    int[] idx = new int[from.length];
    for (int i = 0; i < from.length; i++) {
      idx[i] = -1;
      for (int j = 0; j < to.length; j++) {
        if (from[i] == to[j]) {
          idx[i] = j;
        }
      }
    }
    return idx;
  }

  private static final class Points<T> {
    final List<T> plugins = new ArrayList<>();
    final List<String> names = new ArrayList<>();

    void add(T p, String name) {
      plugins.add(p);
      names.add(name);
    }

    String[] names() {
      return names.toArray(new String[0]);
    }
  }

  /** Whether some plugin of this profile registered {@code event} (plugins that register nothing are not counted). */
  boolean registers(ClusterEvent event) {
    for (Set<ClusterEvent> events : registeredEvents.values()) {
      if (events.contains(event)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether {@code event} may help a pod rejected by {@code rejectors}: true when no rejector is known, or when one of
   * them registered the event (or registers every event by not implementing {@link EnqueueExtensions}).
   */
  boolean movesOn(Set<String> rejectors, ClusterEvent event) {
    if (rejectors.isEmpty()) {
      return true;
    }
    for (String r : rejectors) {
      Set<ClusterEvent> events = registeredEvents.get(r);
      if (events == null || events.contains(event)) {
        return true;
      }
    }
    return false;
  }

  /** Builds a status for an exception thrown by {@code plugin} at {@code point}. */
  static Status errorStatus(String plugin, String point, RuntimeException e) {
    return Status.error("running " + point + " plugin " + plugin + ": " + e).withPlugin(plugin);
  }

  // -------------------------------------------------------------------------------------------- points

  /** Runs PreEnqueue; the first non-success wins. */
  Status runPreEnqueue(Pod pod) {
    for (int i = 0; i < preEnqueue.length; i++) {
      Status s;
      try {
        s = preEnqueue[i].preEnqueue(pod);
      } catch (RuntimeException e) {
        return errorStatus(preEnqueueNames[i], "PreEnqueue", e);
      }
      if (!s.isSuccess()) {
        return s.withPlugin(preEnqueueNames[i]);
      }
    }
    return Status.success();
  }

  /**
   * Runs the Filter plugins not skipped by {@code skip} on one node. Returns -1 when the node fits; otherwise the
   * failing plugin's index, its status stored in {@code statusOut[slot]}.
   */
  int filterNode(CycleState state, boolean @Nullable [] skip, PodInfo pod, NodeInfo node, Status[] statusOut,
      int slot) {
    FilterPlugin[] fs = filter;
    for (int j = 0; j < fs.length; j++) {
      if (skip != null && skip[j]) {
        continue;
      }
      Status s;
      try {
        s = fs[j].filter(state, pod, node);
      } catch (RuntimeException e) {
        s = errorStatus(filterNames[j], "Filter", e);
      }
      if (s.code() != Status.Code.SUCCESS) {
        statusOut[slot] = s;
        return j;
      }
    }
    return -1;
  }

  // ------------------------------------------------------------------------------------------- handle

  @Override
  public Clock clock() {
    return clock;
  }

  @Override
  public Snapshot snapshot() {
    return snapshot;
  }

  @Override
  public WaitingPods waitingPods() {
    return waitingPods;
  }

  @Override
  public <T> List<T> list(Class<T> kind) {
    return objects.list(kind);
  }

  @Override
  public Status runFilterPlugins(CycleState state, PodInfo pod, NodeInfo node) {
    boolean[] skip = state instanceof ArrayCycleState a ? a.skipFilter : null;
    for (int j = 0; j < filter.length; j++) {
      if (skip != null && j < skip.length && skip[j]) {
        continue;
      }
      Status s;
      try {
        s = filter[j].filter(state, pod, node);
      } catch (RuntimeException e) {
        return errorStatus(filterNames[j], "Filter", e);
      }
      if (!s.isSuccess()) {
        return s.withPlugin(filterNames[j]);
      }
    }
    return Status.success();
  }

  @Override
  public Status runPreFilterExtensionAddPod(CycleState state, PodInfo podToSchedule, PodInfo other, NodeInfo node) {
    return runExtensions(state, podToSchedule, other, node, true);
  }

  @Override
  public Status runPreFilterExtensionRemovePod(CycleState state, PodInfo podToSchedule, PodInfo other,
      NodeInfo node) {
    return runExtensions(state, podToSchedule, other, node, false);
  }

  private Status runExtensions(CycleState state, PodInfo pod, PodInfo other, NodeInfo node, boolean add) {
    boolean[] skip = state instanceof ArrayCycleState a ? a.skipFilter : null;
    for (int i = 0; i < preFilter.length; i++) {
      int fi = preFilterToFilter[i];
      if (skip != null && fi >= 0 && fi < skip.length && skip[fi]) {
        continue;
      }
      Status s;
      try {
        PreFilterPlugin.PreFilterExtensions ext = preFilter[i].preFilterExtensions();
        if (ext == null) {
          continue;
        }
        s = add ? ext.addPod(state, pod, other, node) : ext.removePod(state, pod, other, node);
      } catch (RuntimeException e) {
        return errorStatus(preFilterNames[i], add ? "PreFilterExtensions.AddPod" : "PreFilterExtensions.RemovePod",
            e);
      }
      if (!s.isSuccess()) {
        return s.withPlugin(preFilterNames[i]);
      }
    }
    return Status.success();
  }

  @Override
  public Map<String, Object> pluginArgs(String pluginName) {
    Map<String, Object> args = profile.pluginArgs().get(pluginName);
    return args == null ? Map.of() : args;
  }

  @Override
  public String toString() {
    return "Framework(" + schedulerName + ")";
  }
}
