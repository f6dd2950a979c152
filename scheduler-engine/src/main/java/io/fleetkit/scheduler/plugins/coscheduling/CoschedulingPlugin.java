package io.fleetkit.scheduler.plugins.coscheduling;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.framework.ClusterEvent;
import io.fleetkit.api.framework.CycleState;
import io.fleetkit.api.framework.EnqueueExtensions;
import io.fleetkit.api.framework.FrameworkHandle;
import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.framework.NodeToStatus;
import io.fleetkit.api.framework.PermitPlugin;
import io.fleetkit.api.framework.PermitResult;
import io.fleetkit.api.framework.PluginFactory;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.framework.PostFilterPlugin;
import io.fleetkit.api.framework.PostFilterResult;
import io.fleetkit.api.framework.PreEnqueuePlugin;
import io.fleetkit.api.framework.PreFilterPlugin;
import io.fleetkit.api.framework.PreFilterResult;
import io.fleetkit.api.framework.QueueSortPlugin;
import io.fleetkit.api.framework.QueuedPodInfo;
import io.fleetkit.api.framework.ReservePlugin;
import io.fleetkit.api.framework.SchedulerProfile;
import io.fleetkit.api.framework.Snapshot;
import io.fleetkit.api.framework.StateKey;
import io.fleetkit.api.framework.Status;
import io.fleetkit.api.scheduling.PodGroup;
import io.fleetkit.api.scheduling.PreemptionPolicy;
import io.fleetkit.scheduler.plugins.prioritysort.PrioritySortPlugin;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Gang (all-or-nothing) scheduling, after kubernetes-sigs/scheduler-plugins {@code pkg/coscheduling}: pods join a
 * {@link PodGroup} with the label {@value Pod#POD_GROUP_LABEL}; none of them is bound until {@code minMember} of them
 * hold a reservation, and if any cannot, every reservation of the group is released together.
 *
 * <ul>
 *   <li>QueueSort: priority, then the group's queue time (pinned when the group is first seen; other pods use their
 *       queue timestamp, as PrioritySort), then group name, then pod name: a group's pods stay adjacent.
 *   <li>PreFilter: rejects a member while its group backs off after a failed attempt, while fewer than
 *       {@code minMember} of its pods exist, or (once per attempt) when the free capacity of the nodes it could use
 *       cannot hold the members still to be placed ({@link GangCapacity}).
 *   <li>Reserve/Permit: a member waits (up to {@code scheduleTimeoutSeconds}, else {@value #DEFAULT_TIMEOUT_SECONDS}
 *       s) until {@code minMember} are reserved, then every waiting sibling is allowed at once. A member that starts
 *       waiting activates its siblings ({@link FrameworkHandle#activate}): those parked as unschedulable or backing
 *       off are tried again at once.
 *   <li>PostFilter/Unreserve: a member that does not fit, or whose reservation goes (timeout, rejection, deletion),
 *       rejects every waiting sibling and puts the group in backoff for {@code podGroupBackoffSeconds}.
 * </ul>
 *
 * <p>A pod whose group object is unknown is scheduled as an ordinary pod, as upstream. Arguments:
 * {@code permitWaitingTimeSeconds} (60), {@code podGroupBackoffSeconds} ({@value #DEFAULT_BACKOFF_SECONDS}).
 * Thread-safe.
 */
public final class CoschedulingPlugin implements QueueSortPlugin, PreEnqueuePlugin, PreFilterPlugin,
    PostFilterPlugin, ReservePlugin, PermitPlugin, EnqueueExtensions {
  private static final Logger LOG = LoggerFactory.getLogger(CoschedulingPlugin.class);
  public static final String NAME = "Coscheduling";
  public static final PluginFactory FACTORY = CoschedulingPlugin::new;
  public static final int DEFAULT_TIMEOUT_SECONDS = 60;
  public static final int DEFAULT_BACKOFF_SECONDS = 10;

  private static final StateKey<String> REJECTED_IN_PRE_FILTER = StateKey.of(NAME + "/preFilterReject", String.class);
  /** Set when PreFilter rejected the gang for capacity (so gang preemption may help). */
  private static final StateKey<String> SHORT_OF_CAPACITY = StateKey.of(NAME + "/shortOfCapacity", String.class);
  /** Stops the PostFilter chain (so DefaultPreemption never preempts for one member of a gang) without a reason. */
  private static final Status STOP = new Status(Status.Code.UNSCHEDULABLE_AND_UNRESOLVABLE, List.of(), NAME);

  private final FrameworkHandle handle;
  private final Duration defaultTimeout;
  private final long backoffNanos;
  /** Group state by namespace, then name (two lookups, no key allocation on the QueueSort path). */
  private final Map<String, Map<String, GangState>> groups = new ConcurrentHashMap<>();
  /** "namespace/group" of each missing PodGroup already warned about (bounded: one line per group, not per pod). */
  private final Set<String> missingGroupsReported = ConcurrentHashMap.newKeySet();

  public CoschedulingPlugin(FrameworkHandle handle) {
    this.handle = handle;
    Map<String, Object> args = handle.pluginArgs(NAME);
    this.defaultTimeout = Duration.ofSeconds(seconds(args, "permitWaitingTimeSeconds", DEFAULT_TIMEOUT_SECONDS));
    this.backoffNanos = Duration.ofSeconds(seconds(args, "podGroupBackoffSeconds", DEFAULT_BACKOFF_SECONDS)).toNanos();
  }

  /**
   * {@code profile} with PrioritySort replaced by Coscheduling (or Coscheduling added at the front), and
   * {@link GangTopologyPlugin} added (weight {@value GangTopologyPlugin#DEFAULT_WEIGHT}; it skips groups without a
   * topology annotation); the profile's other settings (per-point plugins, arguments) are kept.
   */
  public static SchedulerProfile enableIn(SchedulerProfile profile) {
    SchedulerProfile.Builder b = SchedulerProfile.builder(profile.schedulerName())
        .percentageOfNodesToScore(profile.percentageOfNodesToScore());
    boolean placed = profile.plugins().stream().anyMatch(p -> p.name().equals(NAME));
    if (!placed && profile.plugins().stream().noneMatch(p -> p.name().equals(PrioritySortPlugin.NAME))) {
      b.plugin(NAME, 0);
      placed = true;
    }
    for (SchedulerProfile.PluginRef p : profile.plugins()) {
      if (p.name().equals(PrioritySortPlugin.NAME)) {
        if (!placed) {
          b.plugin(NAME, 0);
          placed = true;
        }
      } else {
        b.plugin(p.name(), p.weight());
      }
    }
    if (profile.plugins().stream().noneMatch(p -> p.name().equals(GangTopologyPlugin.NAME))) {
      b.plugin(GangTopologyPlugin.NAME, GangTopologyPlugin.DEFAULT_WEIGHT);
    }
    return profile.withPlugins(b.build().plugins());
  }

  @Override
  public String name() {
    return NAME;
  }

  // ------------------------------------------------------------------------------------------- QueueSort

  @Override
  public int compare(QueuedPodInfo a, QueuedPodInfo b) {
    int pa = a.podInfo().priority();
    int pb = b.podInfo().priority();
    if (pa != pb) {
      return pa > pb ? -1 : 1;
    }
    Pod podA = a.podInfo().pod();
    Pod podB = b.podInfo().pod();
    String ga = podA.podGroupName();
    String gb = podB.podGroupName();
    long ta = ga == null ? a.timestampNanos() : state(podA.metadata().namespace(), ga).queueNanos(a.initialAttemptNanos());
    long tb = gb == null ? b.timestampNanos() : state(podB.metadata().namespace(), gb).queueNanos(b.initialAttemptNanos());
    if (ta != tb) {
      return ta < tb ? -1 : 1;
    }
    if (ga == null || gb == null) {
      return ga == null ? (gb == null ? 0 : -1) : 1;
    }
    int c = podA.metadata().namespace().compareTo(podB.metadata().namespace());
    if (c == 0) {
      c = ga.compareTo(gb);
    }
    return c != 0 ? c : podA.metadata().name().compareTo(podB.metadata().name());
  }

  // ------------------------------------------------------------------------------------------ PreEnqueue

  @Override
  public Status preEnqueue(Pod pod) {
    String g = pod.podGroupName();
    if (g != null) {
      state(pod.metadata().namespace(), g).addMember(pod.metadata().key());
    }
    return Status.success();
  }

  // ------------------------------------------------------------------------------------------- PreFilter

  @Override
  public PreFilterResult preFilter(CycleState cycle, PodInfo pod, Snapshot snapshot) {
    PodGroup pg = groupOf(pod.pod());
    if (pg == null) {
      String named = pod.pod().podGroupName();
      if (named != null) {
        reportMissingGroup(pod.pod(), named);
      }
      return PreFilterResult.skip();
    }
    String key = pg.metadata().key();
    GangState gs = state(pg.metadata().namespace(), pg.metadata().name());
    String why = gs.backingOff(nowNanos());
    if (why == null && gs.reservedCount() == 0) {
      int min = pg.spec().minMember();
      int boundElsewhere = countBoundMembers(snapshot, pg);
      gs.boundElsewhere(boundElsewhere);
      int known = gs.memberCount() + boundElsewhere;
      if (known < min) {
        why = "pod group " + key + ": " + known + " of minMember " + min + " pods exist";
      } else {
        why = GangCapacity.whyNot(key, pod, min - boundElsewhere, snapshot);
        if (why != null) {
          cycle.write(SHORT_OF_CAPACITY, why);
        }
      }
    }
    if (why != null) {
      cycle.write(REJECTED_IN_PRE_FILTER, why);
      return PreFilterResult.of(Status.unresolvable(why));
    }
    return PreFilterResult.success();
  }

  /** Members bound (or assumed) on nodes that this plugin did not reserve, e.g. running before it started. */
  private static int countBoundMembers(Snapshot snapshot, PodGroup pg) {
    String ns = pg.metadata().namespace();
    String name = pg.metadata().name();
    int n = 0;
    for (NodeInfo ni : snapshot.nodes()) {
      for (PodInfo p : ni.pods()) {
        if (name.equals(p.pod().podGroupName()) && ns.equals(p.pod().metadata().namespace())) {
          n++;
        }
      }
    }
    return n;
  }

  // ------------------------------------------------------------------------------------------ PostFilter

  /**
   * A member that does not fit fails its whole group: every reservation is released and the group backs off. If the
   * gang's priority is above other pods', gang preemption runs first ({@link GangPreemption}): when evicting some
   * lower-priority pods (other gangs whole) lets every member fit at once, they are the victims and the group retries
   * without backoff; otherwise nothing is evicted. Either way the PostFilter chain stops here for a gang member, so
   * DefaultPreemption never evicts for a single member of a gang that would still not fit.
   */
  @Override
  public PostFilterResult postFilter(CycleState cycle, PodInfo pod, Snapshot snapshot, NodeToStatus statuses) {
    PodGroup pg = groupOf(pod.pod());
    if (pg == null) {
      return PostFilterResult.of(Status.unschedulable());
    }
    GangState gs = state(pg.metadata().namespace(), pg.metadata().name());
    boolean rejectedInPreFilter = cycle.read(REJECTED_IN_PRE_FILTER) != null;
    if (rejectedInPreFilter && cycle.read(SHORT_OF_CAPACITY) == null) {
      return PostFilterResult.of(STOP); // backing off, or too few members exist: preemption cannot help
    }
    if (!rejectedInPreFilter && gs.reservedCount() + gs.boundElsewhere() >= pg.spec().minMember()) {
      return PostFilterResult.of(Status.unschedulable()); // the gang already runs; this extra member just waits
    }
    GangPreemption.Plan plan = null;
    if (pod.pod().spec().preemptionPolicy() != PreemptionPolicy.Never) {
      int need = pg.spec().minMember() - gs.boundElsewhere();
      Set<String> own = Set.copyOf(gs.reservedKeys());
      Map<String, String> ann = pg.metadata().annotations();
      String domainKey = ann.getOrDefault(GangTopologyPlugin.REQUIRED, ann.get(GangTopologyPlugin.KUEUE_REQUIRED));
      plan = domainKey == null ? GangPreemption.plan(pod, need, own, snapshot)
          : GangPreemption.planInOneDomain(pod, need, own, snapshot, domainKey);
    }
    String why = rejectedInPreFilter ? cycle.read(SHORT_OF_CAPACITY)
        : "pod group " + pg.metadata().key() + ": member " + pod.key() + " does not fit, so the group's "
            + gs.reservedCount() + " reservation(s) are released";
    long now = nowNanos();
    gs.fail(why, plan == null ? now + backoffNanos : now);
    release(gs, why);
    if (plan != null) {
      return new PostFilterResult(Status.success(), plan.nominatedNode(), plan.victims());
    }
    return PostFilterResult.of(rejectedInPreFilter ? STOP
        : new Status(Status.Code.UNSCHEDULABLE_AND_UNRESOLVABLE, List.of(why), NAME));
  }

  // ------------------------------------------------------------------------------------- Reserve, Permit

  @Override
  public Status reserve(CycleState cycle, PodInfo pod, String nodeName) {
    String g = pod.pod().podGroupName();
    if (g != null) {
      state(pod.pod().metadata().namespace(), g).reserve(pod.key());
    }
    return Status.success();
  }

  @Override
  public void unreserve(CycleState cycle, PodInfo pod, String nodeName) {
    String g = pod.pod().podGroupName();
    if (g == null) {
      return;
    }
    GangState gs = state(pod.pod().metadata().namespace(), g);
    if (!gs.unreserve(pod.key())) {
      return;
    }
    String why = "pod group " + pod.pod().metadata().namespace() + "/" + g + ": member " + pod.key()
        + " lost its reservation, so the whole group is released";
    long now = nowNanos();
    if (gs.backingOff(now) == null) {
      gs.fail(why, now + backoffNanos);
    }
    release(gs, why);
  }

  @Override
  public PermitResult permit(CycleState cycle, PodInfo pod, String nodeName) {
    PodGroup pg = groupOf(pod.pod());
    if (pg == null) {
      return PermitResult.allow();
    }
    GangState gs = state(pg.metadata().namespace(), pg.metadata().name());
    if (gs.reservedCount() + gs.boundElsewhere() < pg.spec().minMember()) {
      // upstream's ActivateSiblings: the group's other pods are tried again at once, backoff skipped
      List<String> siblings = gs.memberKeys();
      siblings.remove(pod.key());
      handle.activate(siblings);
      Integer t = pg.spec().scheduleTimeoutSeconds();
      return PermitResult.waitFor(t == null ? defaultTimeout : Duration.ofSeconds(t));
    }
    for (String sibling : gs.reservedKeys()) {
      if (!sibling.equals(pod.key())) {
        handle.waitingPods().allow(sibling, NAME);
      }
    }
    return PermitResult.allow();
  }

  /** Rejects every waiting member of the group at once (their Unreserve echoes are ignored). */
  private void release(GangState gs, String why) {
    if (!gs.startRelease()) {
      return;
    }
    try {
      Set<String> waiting = handle.waitingPods().keys();
      for (String k : gs.reservedKeys()) {
        if (waiting.contains(k)) {
          handle.waitingPods().reject(k, NAME, why);
        }
      }
    } finally {
      gs.endRelease();
    }
  }

  // ------------------------------------------------------------------------------------------ events

  @Override
  public Set<ClusterEvent> eventsToRegister() {
    // UNSCHEDULED_POD_ADD: a member that arrives last wakes its siblings parked by "n of minMember pods exist"
    return EnumSet.of(ClusterEvent.NODE_ADD, ClusterEvent.NODE_UPDATE, ClusterEvent.ASSIGNED_POD_DELETE,
        ClusterEvent.UNSCHEDULED_POD_ADD, ClusterEvent.OTHER);
  }

  // ------------------------------------------------------------------------------------------ helpers

  /**
   * A pod names a PodGroup that does not exist. Upstream's Coscheduling then schedules it as a lone pod, and so do
   * we (the group may be created later, or the label is a mistake), but not silently: one WARN per group.
   */
  private void reportMissingGroup(Pod pod, String group) {
    String key = pod.metadata().namespace() + "/" + group;
    if (missingGroupsReported.size() < 10_000 && missingGroupsReported.add(key)) {
      LOG.warn("pod {} names PodGroup {} (label {}), which does not exist: it is scheduled as a single pod without"
          + " gang semantics; create the PodGroup first, or fix the label", pod.metadata().key(), key,
          Pod.POD_GROUP_LABEL);
    }
  }

  /** The missing PodGroups ("namespace/name") pods have named so far, each reported once at WARN. */
  Set<String> missingGroupsReported() {
    return Set.copyOf(missingGroupsReported);
  }

  private @Nullable PodGroup groupOf(Pod pod) {
    String g = pod.podGroupName();
    if (g == null) {
      return null;
    }
    String ns = pod.metadata().namespace();
    for (PodGroup pg : handle.list(PodGroup.class)) {
      if (pg.metadata().name().equals(g) && pg.metadata().namespace().equals(ns)) {
        return pg;
      }
    }
    return null;
  }

  private GangState state(String namespace, String group) {
    return groups.computeIfAbsent(namespace, k -> new ConcurrentHashMap<>())
        .computeIfAbsent(group, k -> new GangState());
  }

  private long nowNanos() {
    Instant i = handle.clock().instant();
    return i.getEpochSecond() * 1_000_000_000L + i.getNano();
  }

  private static long seconds(Map<String, Object> args, String field, long dflt) {
    Object v = args.get(field);
    if (v == null) {
      return dflt;
    }
    if (!(v instanceof Number n) || n.longValue() < 0 || n.doubleValue() != n.longValue()) {
      throw new IllegalArgumentException("plugin " + NAME + ": args." + field + " \"" + v
          + "\" must be a non-negative whole number of seconds");
    }
    return n.longValue();
  }
}
