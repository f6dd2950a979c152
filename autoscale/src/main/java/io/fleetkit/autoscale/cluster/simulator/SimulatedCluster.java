package io.fleetkit.autoscale.cluster.simulator;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.framework.CycleState;
import io.fleetkit.api.framework.ExtensionPoint;
import io.fleetkit.api.framework.FilterPlugin;
import io.fleetkit.api.framework.FrameworkHandle;
import io.fleetkit.api.resource.dra.DeviceClass;
import io.fleetkit.api.resource.dra.ResourceClaim;
import io.fleetkit.api.resource.dra.ResourceSlice;
import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.framework.Plugin;
import io.fleetkit.api.framework.PluginFactory;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.framework.PreFilterPlugin;
import io.fleetkit.api.framework.PreFilterResult;
import io.fleetkit.api.framework.SchedulerProfile;
import io.fleetkit.api.framework.Snapshot;
import io.fleetkit.api.framework.Status;
import io.fleetkit.api.framework.WaitingPods;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.scheduling.Taint;
import io.fleetkit.reconcile.Lister;
import io.fleetkit.scheduler.DefaultPlugins;
import io.fleetkit.scheduler.PluginRegistry;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;

/**
 * A what-if copy of the cluster on which the autoscalers try placements with the scheduler's real PreFilter and
 * Filter plugins (the cluster autoscaler's {@code ClusterSnapshot} plus {@code PredicateChecker}). Nodes and pods
 * are added and removed freely; every check runs the profile's PreFilter plugins against the current state and
 * then Filter on the candidate nodes, so topology spread, inter-pod affinity, taints, node affinity and resources
 * all apply exactly as in the scheduler.
 *
 * <p>Only placement feasibility is simulated: Score, Reserve, Permit and binding are not run (as upstream, the
 * autoscaler asks "does it fit", not "where would the scheduler put it").
 *
 * <p>A caller that evaluates the same cluster again and again may keep one simulation: {@link #checkpoint()} after
 * loading, {@link #rollback()} to undo an evaluation's placements and removals (at the cost of the slots they
 * changed), and {@link #reload} to bring the loaded state to the nodes and pods that changed since, instead of
 * loading every node into a new simulation.
 *
 * <p>A drain simulation moves a node's pods with {@link #placeElsewhere}, the node meanwhile upstream's ghost: in the
 * cluster for the plugins, tainted {@code ToBeDeletedByClusterAutoscaler}, without pods.
 *
 * <p>The drain simulation's searches and placements ({@link #findFitFrom(PodInfo, int, int)}, {@link #placeAll}), and
 * scale-up's ({@link #placeOnHint}, {@link #placeFrom}), take a compact path where it gives the same results: a pod whose remaining Filter plugins read only the node
 * object and the node's room is decided on per-slot arrays and verdicts kept per pod shape ({@code FilterShapes},
 * {@code SlotNumbers}), and a placed pod without (anti-)affinity terms is logged and made into its node's view only
 * when the view is read.
 *
 * <p>Not thread-safe: one autoscaler loop uses one simulation. The plugins it creates are private to it.
 */
public final class SimulatedCluster {
  /**
   * Each node's slot: its insertion sequence number, never reused. A node removed while a checkpoint is open from a
   * slot below the checkpoint keeps its entry (its slot then holds no view), so that a rollback restoring it need
   * not put it back; {@link #liveSlot} tells the two apart.
   */
  private Map<String, Integer> position = new java.util.HashMap<>();
  /** The number of slots holding a node. */
  private int live;
  /**
   * Counts the rollbacks that freed slots (of nodes added after the checkpoint): between two of them a slot holds one
   * node, so a slot recorded with the same count that holds a view holds the node it was recorded for.
   */
  private int slotEpoch;
  /**
   * The slot of the node the last round-robin search found since {@link #startSearches} (-1: none), and the nodes
   * removed from slots below it since: its index in {@link #nodes()} at that search is the nodes below it now plus
   * those ({@link #indexAfterFound}).
   */
  private int foundSlot = -1;
  private int foundRemovedBelow;
  private static final java.util.concurrent.atomic.AtomicLong IDS = new java.util.concurrent.atomic.AtomicLong();
  /** This simulation's number, unique in the JVM (from 1): what a {@link SchedulingHints} entry keeps of it. */
  final long id = IDS.incrementAndGet();
  /** The views by slot; {@code null} for a removed node. */
  private SimNodeInfo[] slots = new SimNodeInfo[16];
  /**
   * The views of the nodes present, in insertion order: made from {@link #slots} when read after a change (a drain
   * simulation changes views far more often than anything lists them), through {@link #orderView}.
   */
  private final List<NodeInfo> order = new ArrayList<>();
  private boolean orderStale;
  /** {@link #order} read-only and current: the list {@link #nodes()} hands out. */
  private final List<NodeInfo> orderView = new OrderView();
  private int nextSeq;
  private final Clock clock;
  private final Map<Class<?>, List<?>> objects;
  private final SchedulerProfile profile;
  private final PreFilterPlugin[] preFilter;
  private final FilterPlugin[] filter;
  /** For each PreFilter plugin, the index of the same plugin in {@link #filter}, or -1. */
  private final int[] preFilterToFilter;
  private final Handle handle = new Handle();
  private @Nullable List<NodeInfo> affinityList;
  private @Nullable List<NodeInfo> antiList;
  /**
   * What the plugins read of the simulation through {@link #handle} since {@link #prepare} last reset it: whether
   * anything that changes with placements (a node, the node list or count, the clock, the waiting pods, other
   * plugins' runs), and the lists of nodes with (anti-)affinity pods handed out.
   */
  private boolean readVolatile;
  private @Nullable List<NodeInfo> readAffinity;
  private @Nullable List<NodeInfo> readAnti;
  private long checks;
  /**
   * Per slot, what the by-name {@link #load(List, java.util.function.Function, ViewCache)} or {@link #reload} loaded
   * there: the node object given and its pod list ({@code null} entries when the simulation was not loaded that way).
   */
  private Node[] loadedNodes = new Node[0];
  @SuppressWarnings("unchecked")
  private List<PodInfo>[] loadedPods = new List[0];
  /** Whether the simulation was loaded by name and nothing but {@link #reload} changed it outside a checkpoint. */
  private boolean reloadable;
  /** The undo journal since {@link #checkpoint()}: {@link #slots} at the checkpoint, or -1 when not recording. */
  private int checkpointSeq = -1;
  private int[] savedSlot = new int[16];
  private SimNodeInfo[] savedView = new SimNodeInfo[16];
  private int saved;
  /** Per slot below {@link #checkpointSeq}: whether its view at the checkpoint is saved. */
  private boolean[] savedMark = new boolean[0];
  private @Nullable List<NodeInfo> savedAffinityList;
  private @Nullable List<NodeInfo> savedAntiList;
  /**
   * This simulation's mark on the {@link Prepared} notes it leaves on {@link SimulationPodInfo} pods (a token rather
   * than the simulation itself, so that a note does not keep a discarded simulation reachable).
   */
  private final Object noteOwner = new Object();
  /** Whether {@link #findFitFrom(PodInfo, int, int)} keeps PreFilter's outcome per pod (off only in tests). */
  private boolean keepPreFilter = true;
  /** The slots' numbers and deferred placements, kept with {@link #slots} by {@link #put}. */
  private final SlotNumbers numbers = new SlotNumbers();
  /** The fast Filter decision's pod shapes and their node-object verdicts. */
  private final FilterShapes shapes;
  /**
   * Whether searches take the fast decision for pods with a shape and placements of pods without (anti-)affinity
   * are deferred (off only in tests, as the reference).
   */
  private boolean compact = true;
  /** Whether a Filter plugin ran in the current search (a fast search may decide every node without running one). */
  private boolean filterRan;
  /** Scratch space of {@link #current}. */
  private PodInfo[] deferredBuffer = new PodInfo[16];
  /** Scratch space of {@link #placeAll}: the pods' notes read ahead, and the slots the pods were placed in. */
  private Object[] notes = new Object[16];
  private int[] placedAt = new int[16];
  /** The placements on a node a search found ({@link #searchPlacements()}). */
  private long searchPlacements;
  /** Scratch space of {@link #placeAll}: the pods by priority, a group's pods left for a search, the placing order. */
  private int[] priorityOrder = new int[16];
  /** The priority of each pod being placed, read once per placement. */
  private int[] priorities = new int[16];
  private int[] pending = new int[16];
  private int[] placedOrder = new int[16];
  /**
   * The DRA objects as placements change them, when the simulation was given any or nodes with slices were added;
   * {@code null} otherwise (no pod's placement then touches claims).
   */
  private @Nullable DraSnapshot dra;

  private SimulatedCluster(SchedulerProfile profile, PluginRegistry registry, Clock clock,
      Map<Class<?>, List<?>> objects) {
    this.profile = profile;
    this.clock = clock;
    this.objects = Map.copyOf(objects);
    if (objects.containsKey(ResourceClaim.class) || objects.containsKey(ResourceSlice.class)
        || objects.containsKey(DeviceClass.class)) {
      dra();
    }
    // every plugin of the profile and those enabled at one point only, one instance each; PreFilter and Filter in
    // kube's order for their points (SchedulerProfile#pluginsAt), as the scheduler's framework runs them
    java.util.Map<String, Plugin> created = new java.util.LinkedHashMap<>();
    java.util.Set<String> names = new java.util.LinkedHashSet<>();
    profile.plugins().forEach(r -> names.add(r.name()));
    for (ExtensionPoint point : ExtensionPoint.values()) {
      profile.pointPlugins(point).enabled().forEach(r -> names.add(r.name()));
    }
    for (String name : names) {
      PluginFactory f = registry.factory(name);
      if (f == null) {
        throw new IllegalArgumentException("simulated cluster: profile " + profile.schedulerName() + " enables plugin \""
            + name + "\", which is not registered; registered plugins: " + registry.names());
      }
      created.put(name, Objects.requireNonNull(f.create(handle), "plugin factory returned null"));
    }
    List<FilterPlugin> fi = new ArrayList<>();
    for (SchedulerProfile.PluginRef ref : profile.pluginsAt(ExtensionPoint.FILTER,
        name -> ExtensionPoint.FILTER.isImplementedBy(created.get(name)))) {
      fi.add((FilterPlugin) created.get(ref.name()));
    }
    List<PreFilterPlugin> pf = new ArrayList<>();
    List<SchedulerProfile.PluginRef> preFilters = profile.pluginsAt(ExtensionPoint.PRE_FILTER,
        name -> ExtensionPoint.PRE_FILTER.isImplementedBy(created.get(name)));
    int[] map = new int[preFilters.size()];
    for (SchedulerProfile.PluginRef ref : preFilters) {
      Plugin p = created.get(ref.name());
      map[pf.size()] = p instanceof FilterPlugin ? fi.indexOf(p) : -1;
      pf.add((PreFilterPlugin) p);
    }
    this.preFilter = pf.toArray(new PreFilterPlugin[0]);
    this.filter = fi.toArray(new FilterPlugin[0]);
    this.preFilterToFilter = java.util.Arrays.copyOf(map, pf.size());
    this.shapes = new FilterShapes(filter);
  }

  /** An empty simulation with kube's default profile and plugins. */
  public static SimulatedCluster withDefaults(Clock clock) {
    return create(DefaultPlugins.profile(), PluginRegistry.defaults(), clock, Map.of());
  }

  /**
   * An empty simulation running {@code profile}'s plugins from {@code registry}.
   *
   * @param objects cluster objects plugins may read through {@link FrameworkHandle#list} (PodDisruptionBudgets,
   *     PriorityClasses...), by kind; ResourceClaims, ResourceSlices and DeviceClasses among them are the simulation's
   *     DRA state, which placements change (a pod placed gets its claims allocated on its node and reserved, a pod
   *     removed releases them, as upstream's DRA snapshot)
   * @throws IllegalArgumentException if the profile enables a plugin the registry does not have
   */
  public static SimulatedCluster create(SchedulerProfile profile, PluginRegistry registry, Clock clock,
      Map<Class<?>, List<?>> objects) {
    return new SimulatedCluster(Objects.requireNonNull(profile, "profile"), Objects.requireNonNull(registry, "registry"),
        Objects.requireNonNull(clock, "clock"), Objects.requireNonNull(objects, "objects"));
  }

  /**
   * Adds {@code nodes} (a starting node as the node it will be: {@link SimulatedNodes#asUpcoming}) and the bound,
   * non-terminal pods of {@code pods} that sit on them. Nodes being deleted are left out.
   */
  public void load(List<Node> nodes, List<io.fleetkit.api.core.Pod> pods) {
    load(nodes, pods, io.fleetkit.api.framework.PodInfos::of);
  }

  /**
   * As {@link #load(List, List)}, with each pod's view made by {@code podInfos} (a caller may reuse the views of
   * pods that did not change since its last load). Each node's view is built once with all its pods.
   */
  public void load(List<Node> nodes, List<io.fleetkit.api.core.Pod> pods,
      java.util.function.Function<io.fleetkit.api.core.Pod, PodInfo> podInfos) {
    load(nodes, pods, podInfos, null);
  }

  /**
   * Node views a caller keeps from one {@link #load} to the next: a node whose labels, spec, allocatable, readiness
   * and pods (the same pod objects, in the same order) are unchanged gets the view built last time (views are
   * immutable), so a loop that loads an unchanged cluster again does not rebuild it. The reused view holds the node
   * object of the last rebuild, which may differ from the current one in its status conditions' times (a kubelet's
   * heartbeat) only. Not thread-safe; one per caller.
   */
  public static final class ViewCache {
    /** A view and what it was built from: the node object of its last rebuild and its pods (or their views). */
    private record Entry(Node node, List<?> pods, SimNodeInfo view) {}

    private Map<String, Entry> entries = new java.util.HashMap<>();

    /**
     * Whether a view of {@code a} serves for {@code b}: same readiness, spec, labels and allocatable (what the
     * scheduler's filters and the utilization read).
     */
    public static boolean sameNode(Node a, Node b) {
      return a == b || a.isReady() == b.isReady() && a.spec().equals(b.spec())
          && a.metadata().labels().equals(b.metadata().labels()) && a.allocatable().equals(b.allocatable());
    }
  }

  /**
   * As {@link #load(List, List, java.util.function.Function)}, reusing the unchanged nodes' views of {@code cache}
   * (and storing this load's views there for the next) when it is not {@code null}.
   */
  public void load(List<Node> nodes, List<io.fleetkit.api.core.Pod> pods,
      java.util.function.Function<io.fleetkit.api.core.Pod, PodInfo> podInfos, @Nullable ViewCache cache) {
    Map<String, List<io.fleetkit.api.core.Pod>> byNode = new java.util.HashMap<>();
    Set<String> loading = new java.util.HashSet<>();
    for (Node n : nodes) {
      if (n.metadata().deletionTimestamp() == null) {
        if (liveSlot(n.name()) >= 0 || !loading.add(n.name())) {
          throw new IllegalArgumentException("simulated cluster: node " + n.name() + " is already present");
        }
      }
    }
    List<io.fleetkit.api.core.Pod> onOthers = new ArrayList<>();
    for (io.fleetkit.api.core.Pod p : pods) {
      if (!p.isBound() || p.isTerminal()) {
        continue;
      }
      String node = p.spec().nodeName();
      if (loading.contains(node)) {
        byNode.computeIfAbsent(node, k -> new ArrayList<>()).add(p);
      } else if (liveSlot(node) >= 0) {
        onOthers.add(p);
      }
    }
    Map<String, ViewCache.Entry> kept = new java.util.HashMap<>();
    for (Node n : nodes) {
      if (n.metadata().deletionTimestamp() == null) {
        String name = n.name();
        Node upcoming = SimulatedNodes.asUpcoming(n);
        List<io.fleetkit.api.core.Pod> on = byNode.getOrDefault(name, List.of());
        ViewCache.Entry before = cache == null ? null : cache.entries.get(name);
        SimNodeInfo view;
        if (before != null && ViewCache.sameNode(before.node(), upcoming) && Lister.sameObjects(before.pods(), on)) {
          view = before.view();
        } else {
          List<PodInfo> infos = new ArrayList<>(on.size());
          for (io.fleetkit.api.core.Pod p : on) {
            infos.add(podInfos.apply(p));
          }
          view = SimNodeInfo.of(upcoming, infos);
        }
        if (cache != null) {
          kept.put(name, new ViewCache.Entry(view.node(), on, view));
        }
        append(name, view);
      }
    }
    if (cache != null) {
      cache.entries = kept;
    }
    affinityList = null;
    antiList = null;
    for (io.fleetkit.api.core.Pod p : onOthers) {
      addPod(p.spec().nodeName(), podInfos.apply(p));
    }
  }

  /**
   * Adds {@code nodes} (a starting node as the node it will be: {@link SimulatedNodes#asUpcoming}; nodes being
   * deleted are left out), each with the pods {@code podsOn} gives for its name (the bound pods on it, in order).
   * With a {@code cache}, a node whose labels, spec, allocatable and readiness are unchanged and whose pod list holds
   * the same objects as at the last load (the same list instance, typically) gets the view built then, and this
   * load's views are stored there for the next.
   *
   * @throws IllegalArgumentException if a node is listed twice or already in the simulation
   */
  public void load(List<Node> nodes, java.util.function.Function<String, List<PodInfo>> podsOn,
      @Nullable ViewCache cache) {
    Set<String> loading = new java.util.HashSet<>(capacity(nodes.size()));
    for (Node n : nodes) {
      if (n.metadata().deletionTimestamp() == null) {
        if (liveSlot(n.name()) >= 0 || !loading.add(n.name())) {
          throw new IllegalArgumentException("simulated cluster: node " + n.name() + " is already present");
        }
      }
    }
    boolean first = position.isEmpty() && nextSeq == 0;
    if (position.isEmpty()) { // sized once for the nodes loaded, instead of growing by rehashing
      position = new java.util.HashMap<>(capacity(loading.size()));
    }
    Map<String, ViewCache.Entry> kept = cache == null ? null : new java.util.HashMap<>(capacity(loading.size()));
    if (first) {
      loadedNodes = new Node[loading.size()];
      @SuppressWarnings("unchecked")
      List<PodInfo>[] lp = new List[loading.size()];
      loadedPods = lp;
    }
    for (Node n : nodes) {
      if (n.metadata().deletionTimestamp() == null) {
        String name = n.name();
        Node upcoming = SimulatedNodes.asUpcoming(n);
        List<PodInfo> on = podsOn.apply(name);
        ViewCache.Entry before = cache == null ? null : cache.entries.get(name);
        SimNodeInfo view;
        if (before != null && Lister.sameObjects(before.pods(), on) && ViewCache.sameNode(before.node(), upcoming)) {
          view = before.view();
        } else {
          view = SimNodeInfo.of(upcoming, on);
        }
        if (kept != null) {
          kept.put(name, new ViewCache.Entry(view.node(), on, view));
        }
        if (first) {
          loadedNodes[nextSeq] = n;
          loadedPods[nextSeq] = on;
        }
        append(name, view);
      }
    }
    if (cache != null) {
      cache.entries = kept;
    }
    affinityList = null;
    antiList = null;
    reloadable = first;
  }

  /**
   * Brings a simulation made by one by-name {@link #load(List, java.util.function.Function, ViewCache)} (and earlier
   * reloads), and changed since only between a {@link #checkpoint()} and its {@link #rollback()}, to the state that
   * load into a new simulation would give for {@code nodes}, when {@code nodes} holds the nodes loaded last (those
   * not being deleted) in the same relative order, with some of them left out or changed and none added. A node left
   * out is removed; a node whose object is not the one loaded last or whose name is in {@code podsChanged} gets
   * {@code podsOn}'s pods and keeps its view when that load would have (the same pod objects, and
   * {@link ViewCache#sameNode}), else a view built anew. The round-robin search over the slots
   * ({@link #findFitFrom(PodInfo, int, int)}) then visits the nodes in the order that load gives, since removed slots
   * are passed over.
   *
   * @param podsChanged the names of the nodes whose pods may have changed since the last load or reload (at least)
   * @return {@code false}, with nothing changed, when {@code nodes} adds a node or reorders them, or the simulation
   *     was not made that way (then load a new simulation)
   */
  public boolean reload(List<Node> nodes, java.util.function.Function<String, List<PodInfo>> podsOn,
      Collection<String> podsChanged) {
    if (!reloadable || checkpointSeq >= 0) {
      return false;
    }
    makeDeferred();
    int[] slotOf = new int[nodes.size()];
    int s = 0;
    for (int i = 0; i < nodes.size(); i++) {
      Node n = nodes.get(i);
      if (n.metadata().deletionTimestamp() != null) {
        slotOf[i] = -1;
        continue;
      }
      while (s < nextSeq && slots[s] == null) {
        s++;
      }
      if (s < nextSeq && (loadedNodes[s] == n || loadedNodes[s].name().equals(n.name()))) {
        slotOf[i] = s++;
        continue;
      }
      int t = liveSlot(n.name());
      if (t < s) {
        return false; // added, or out of the loaded order
      }
      slotOf[i] = t;
      s = t + 1;
    }
    boolean[] keep = new boolean[nextSeq];
    boolean[] dirty = new boolean[nextSeq];
    for (int at : slotOf) {
      if (at >= 0) {
        keep[at] = true;
      }
    }
    for (String name : podsChanged) {
      Integer at = position.get(name);
      if (at != null) {
        dirty[at] = true;
      }
    }
    for (int at = 0; at < nextSeq; at++) {
      SimNodeInfo v = slots[at];
      if (v != null && !keep[at]) {
        position.remove(v.name());
        live--;
        put(at, null);
        loadedNodes[at] = null;
        loadedPods[at] = null;
        orderStale = true;
        invalidate(v, null);
      }
    }
    for (int i = 0; i < slotOf.length; i++) {
      int at = slotOf[i];
      if (at < 0) {
        continue;
      }
      Node n = nodes.get(i);
      if (loadedNodes[at] == n && !dirty[at]) {
        continue;
      }
      SimNodeInfo before = slots[at];
      // a node named in podsChanged gets podsOn's pods; any other has the pods of its last load or reload
      List<PodInfo> on = dirty[at] ? podsOn.apply(n.name()) : loadedPods[at];
      Node upcoming = SimulatedNodes.asUpcoming(n);
      if (!(Lister.sameObjects(loadedPods[at], on) && ViewCache.sameNode(before.node(), upcoming))) {
        SimNodeInfo after = SimNodeInfo.of(upcoming, on);
        put(at, after);
        orderStale = true;
        invalidate(before, after);
      }
      loadedNodes[at] = n;
      loadedPods[at] = on;
    }
    return true;
  }

  /**
   * Starts recording the changes made from now on, so that {@link #rollback()} undoes them; their cost is one entry
   * per slot changed.
   *
   * @throws IllegalStateException if a checkpoint is already open
   */
  public void checkpoint() {
    if (checkpointSeq >= 0) {
      throw new IllegalStateException("simulated cluster: a checkpoint is already open");
    }
    makeDeferred(); // a slot's deferred pods are then all placed after the checkpoint, and its saved view has none
    // the lists of nodes with (anti-)affinity pods, made now so that the rollback restores them instead of leaving them
    // to be made again after every rollback (they stay until a change touches a node holding such pods)
    affinityNodes();
    antiNodes();
    checkpointSeq = nextSeq;
    if (savedMark.length < nextSeq) {
      savedMark = new boolean[nextSeq];
    }
    saved = 0;
    if (dra != null) {
      dra.checkpoint();
    }
    savedAffinityList = affinityList;
    savedAntiList = antiList;
  }

  /**
   * Undoes every change since {@link #checkpoint()} (added and removed nodes, added and removed pods) and closes the
   * checkpoint: the simulation holds the same views in the same slots as then.
   *
   * @throws IllegalStateException if no checkpoint is open
   */
  public void rollback() {
    int seq = checkpointSeq;
    if (seq < 0) {
      throw new IllegalStateException("simulated cluster: no checkpoint to roll back to");
    }
    boolean added = nextSeq > seq;
    for (int s = seq; s < nextSeq; s++) {
      SimNodeInfo v = slots[s];
      if (v != null) {
        position.remove(v.name());
        live--;
        put(s, null);
      }
    }
    nextSeq = seq;
    if (added) {
      slotEpoch++; // the slots of the nodes added since are free again: a later node may take one of them
    }
    for (int i = 0; i < saved; i++) {
      int at = savedSlot[i];
      SimNodeInfo v = savedView[i];
      if (slots[at] == null) { // removed since the checkpoint: its name kept its entry, unless a node added since
        live++;                // took the name (then that entry went with the added node)
        if (added) {
          position.put(v.name(), at);
        }
      }
      slots[at] = v;
      numbers.restore(i, at); // v's numbers, recorded when saved; drops the slot's deferred pods
      savedMark[at] = false;
      savedView[i] = null;
    }
    saved = 0;
    numbers.clearSaved();
    numbers.clearDeferred();
    if (dra != null) {
      dra.rollback();
    }
    affinityList = savedAffinityList;
    antiList = savedAntiList;
    savedAffinityList = null;
    savedAntiList = null;
    orderStale = true;
    checkpointSeq = -1;
  }

  /** Records the view in {@code slot} for {@link #rollback()} before its first change since the checkpoint. */
  private void save(int slot) {
    if (slot >= checkpointSeq || savedMark[slot]) {
      return;
    }
    savedMark[slot] = true;
    if (saved == savedSlot.length) {
      savedSlot = java.util.Arrays.copyOf(savedSlot, saved * 2);
      savedView = java.util.Arrays.copyOf(savedView, saved * 2);
    }
    savedSlot[saved] = slot;
    savedView[saved++] = slots[slot];
    numbers.save(slot); // its record has the same index
  }

  /** The view in {@code slot}, or {@code null} when the slot holds no node (removed, or out of range). */
  public @Nullable NodeInfo nodeInfoAt(int slot) {
    return slot >= 0 && slot < nextSeq ? current(slot) : null;
  }

  /** A hash table capacity that holds {@code n} entries without growing (at the default load factor). */
  private static int capacity(int n) {
    return n < 3 ? 4 : (int) Math.min(1 << 30, n / 3L * 4 + 4);
  }

  /** The scheduler name of the profile whose plugins run here. */
  public String schedulerName() {
    return profile.schedulerName();
  }

  /**
   * Adds an empty node.
   *
   * @throws IllegalArgumentException if a node of that name is already in the simulation
   */
  public void addNode(Node node) {
    String name = node.name();
    if (liveSlot(name) >= 0) {
      throw new IllegalArgumentException("simulated cluster: node " + name + " is already present");
    }
    append(name, SimNodeInfo.empty(node));
    if (checkpointSeq < 0) {
      reloadable = false;
    }
  }

  /**
   * Adds an empty node with its node-local ResourceSlices (upstream's NodeInfo with {@code LocalResourceSlices}, such
   * as a template node's): the DynamicResources plugin sees their devices until the node is removed.
   *
   * @throws IllegalArgumentException if a node of that name is already in the simulation, or a slice's
   *     {@code spec.nodeName} is not the node
   */
  public void addNode(Node node, List<ResourceSlice> localSlices) {
    addNode(node);
    if (!localSlices.isEmpty()) {
      dra().addNodeSlices(node.name(), localSlices);
    }
  }

  /**
   * Gives node {@code nodeName} (in the simulation) the node-local {@code slices}, replacing those given before: a
   * node that will publish them (a starting node of a pool with device templates) is simulated with them.
   *
   * @throws IllegalArgumentException if there is no such node, or a slice's {@code spec.nodeName} is not the node
   */
  public void addNodeSlices(String nodeName, List<ResourceSlice> slices) {
    if (liveSlot(nodeName) < 0) {
      throw new IllegalArgumentException("simulated cluster: cannot add slices to node " + nodeName
          + ": no such node");
    }
    dra().addNodeSlices(nodeName, slices);
  }

  /**
   * Whether node {@code nodeName} has node-local ResourceSlices here: given to the simulation or added with
   * {@link #addNodeSlices}.
   */
  public boolean hasNodeSlices(String nodeName) {
    return dra != null && dra.hasNodeSlices(nodeName);
  }

  /** The claim {@code namespace/name} as the simulation's placements left it, or {@code null}. */
  public @Nullable ResourceClaim claim(String namespace, String name) {
    return claim(namespace + "/" + name);
  }

  /** The claim of key {@code namespace/name} as the simulation's placements left it, or {@code null}. */
  public @Nullable ResourceClaim claim(String key) {
    return dra == null ? null : dra.claim(key);
  }

  /**
   * The ResourceClaims {@code pod} uses that exist here, as the simulation's placements left them, in the order of its
   * {@code spec.resourceClaims} (a claim made from a template once the pod's status names it); empty without DRA
   * state.
   */
  public List<ResourceClaim> claimsOf(io.fleetkit.api.core.Pod pod) {
    return dra == null ? List.of() : dra.claimsOf(pod);
  }

  /**
   * The ResourceSlices local to node {@code nodeName} ({@code spec.nodeName} names it, upstream's NodeInfo
   * {@code LocalResourceSlices}): the cluster's and those given with the node or added for it; empty without DRA
   * state.
   */
  public List<ResourceSlice> localSlices(String nodeName) {
    return dra == null ? List.of() : dra.localSlices(nodeName);
  }

  private DraSnapshot dra() {
    DraSnapshot d = dra;
    if (d == null) {
      d = new DraSnapshot(handle.list(DeviceClass.class), handle.list(ResourceSlice.class),
          handle.list(ResourceClaim.class));
      if (checkpointSeq >= 0) {
        d.checkpoint();
      }
      dra = d;
    }
    return d;
  }

  /** The DRA state's part of placing {@code pod} on the node in {@code slot}: its claims allocated and reserved. */
  private void reserveClaims(int slot, PodInfo pod) {
    if (dra != null && !pod.pod().spec().resourceClaims().isEmpty()) {
      dra.reserve(pod.pod(), Objects.requireNonNull(slots[slot]).node());
    }
  }

  /** The DRA state's part of taking {@code pod} off the node in {@code slot}: its claims released. */
  private void unreserveClaims(int slot, PodInfo pod) {
    if (dra != null && !pod.pod().spec().resourceClaims().isEmpty()) {
      dra.unreserve(pod.pod(), Objects.requireNonNull(slots[slot]).name());
    }
  }

  private void append(String name, SimNodeInfo view) {
    int seq = nextSeq++;
    if (seq == slots.length) {
      slots = java.util.Arrays.copyOf(slots, seq * 2);
    }
    put(seq, view);
    position.put(name, seq);
    live++;
    if (!orderStale) {
      order.add(view);
    }
  }

  /** Brings {@link #order} up to date with the slots. */
  private List<NodeInfo> order() {
    if (orderStale) {
      makeDeferred();
      order.clear();
      for (int i = 0; i < nextSeq; i++) {
        SimNodeInfo v = slots[i];
        if (v != null) {
          order.add(v);
        }
      }
      orderStale = false;
    }
    return order;
  }

  /** The live, read-only list of {@link #nodes()}. */
  private final class OrderView extends java.util.AbstractList<NodeInfo> implements java.util.RandomAccess {
    @Override
    public NodeInfo get(int index) {
      return order().get(index);
    }

    @Override
    public int size() {
      return order().size();
    }
  }

  /** Removes a node and its pods; unknown names are ignored. */
  public void removeNode(String name) {
    removeNodeAt(liveSlot(name));
  }

  /**
   * Removes the node in {@code slot} and its pods, as {@link #removeNode} of its name; an empty slot is ignored. Its
   * pods leave their claims as a pod taken off its node does ({@link #removePod}), so a pod placed again elsewhere
   * can have its claims allocated there.
   */
  public void removeNodeAt(int slot) {
    remove(slot, false);
  }

  /**
   * Removes the node in {@code slot}, whose pods that had to move were placed elsewhere ({@link #placeElsewhere}), as
   * upstream's {@code RemoveNodeInfo} removes a node whose removal succeeded: the pods left on it (those that stay
   * with their node: DaemonSet and mirror pods) lose the claims they own and leave the consumers of their other
   * claims, which keep their allocation even without consumers ({@code RemovePodOwnedClaims}). An empty slot is
   * ignored.
   */
  public void removeDrainedNodeAt(int slot) {
    remove(slot, true);
  }

  private void remove(int slot, boolean drained) {
    int seq = slot;
    if (seq < 0 || seq >= nextSeq || slots[seq] == null) {
      return;
    }
    DraSnapshot d = dra;
    if (d != null) {
      String name = slots[seq].name();
      for (PodInfo pi : Objects.requireNonNull(current(seq)).pods()) {
        if (!drained) {
          unreserveClaims(seq, pi);
        } else if (!pi.pod().spec().resourceClaims().isEmpty()) {
          d.removePodOwnedClaims(pi.pod(), name);
        }
      }
      d.removeNodeSlices(name);
    }
    if (seq < checkpointSeq) {
      save(seq); // the name keeps its entry for the rollback
    } else {
      position.remove(slots[seq].name());
      if (checkpointSeq < 0) {
        reloadable = false;
      }
    }
    live--;
    if (seq < foundSlot) {
      foundRemovedBelow++;
    }
    SimNodeInfo gone = slots[seq]; // its deferred pods have no affinity terms: the lists are the view's
    put(seq, null);
    orderStale = true;
    invalidate(gone, null);
  }

  /**
   * Gives {@code pod}, loaded on node {@code nodeName} without being bound there (a pending pod another simulation
   * placed on it), its ResourceClaims there as a placement would: those not allocated yet are allocated on the node's
   * devices and the pod joins the consumers of each, so moving it releases them. A pod without claims is ignored.
   *
   * @throws IllegalArgumentException if no node is named {@code nodeName}
   */
  public void holdClaims(String nodeName, io.fleetkit.api.core.Pod pod) {
    int at = slot(nodeName);
    if (at < 0) {
      throw new IllegalArgumentException("simulated cluster: cannot give pod " + pod.metadata().key()
          + " its claims on node " + nodeName + ": no such node");
    }
    if (dra != null && !pod.spec().resourceClaims().isEmpty()) {
      dra.reserve(pod, Objects.requireNonNull(slots[at]).node());
    }
  }

  public boolean hasNode(String name) {
    return liveSlot(name) >= 0;
  }

  /** The slot holding the node named {@code name}, or -1. */
  private int liveSlot(String name) {
    Integer at = position.get(name);
    return at == null || slots[at] == null ? -1 : at;
  }

  /**
   * The slot of a node: its position among the nodes in the order they were added, removed ones included (while no
   * node was removed, its index in {@link #nodes()}); -1 when it is not in the simulation.
   */
  public int slot(String name) {
    return liveSlot(name);
  }

  /** The number of slots: the nodes ever added, removed ones included. */
  public int slots() {
    return nextSeq;
  }

  /**
   * The slot of the node at {@code index} of {@link #nodes()}, the index taken modulo the number of nodes: the slot a
   * search over the nodes from that position starts at ({@link #findFitFrom(PodInfo, int, int)}); 0 without nodes.
   */
  public int slotOfIndex(int index) {
    if (live == 0) {
      return 0;
    }
    int k = Math.floorMod(index, live);
    for (int at = 0; at < nextSeq; at++) {
      if (slots[at] != null && k-- == 0) {
        return at;
      }
    }
    throw new IllegalStateException("simulated cluster: " + live + " nodes counted, fewer in the slots");
  }

  /**
   * Starts a run of round-robin searches whose position {@link #indexAfterFound} tells: none found a node yet. A reload
   * or rollback between this and the position's reading is not supported (the nodes they put back are not counted).
   */
  public void startSearches() {
    foundSlot = -1;
  }

  /**
   * Where upstream's round-robin goes on after the last search since {@link #startSearches} that found a node (its
   * {@code lastIndexOrderMapping}: the match's index plus the offset 1, taken modulo the node count when used): that
   * node's index in {@link #nodes()} at the search plus one, whatever nodes were removed since; -1 when no search
   * found one. Two simulations of the same nodes with different slots (a reloaded
   * one with the slots of removed nodes empty, and a new one) that search alike give the same position.
   */
  public int indexAfterFound() {
    if (foundSlot < 0) {
      return -1;
    }
    return nodesBefore(foundSlot) + foundRemovedBelow + 1;
  }

  /** Notes that a round-robin search found the node in {@code slot}. */
  private void found(int slot) {
    foundSlot = slot;
    foundRemovedBelow = 0;
  }

  /** The number of nodes in the slots below {@code slot}: a node's index in {@link #nodes()} for its own slot. */
  private int nodesBefore(int slot) {
    int end = Math.min(slot, nextSeq);
    int before = 0;
    for (int at = 0; at < end; at++) {
      if (slots[at] != null) {
        before++;
      }
    }
    return before;
  }

  /**
   * Places {@code pod} on {@code nodeName} without checking that it fits.
   *
   * @throws IllegalArgumentException if there is no such node
   */
  public void addPod(String nodeName, PodInfo pod) {
    int at = slot(nodeName);
    if (at < 0) {
      throw new IllegalArgumentException("simulated cluster: cannot add pod " + pod.key() + " to node " + nodeName
          + ": no such node");
    }
    addPod(at, pod);
  }

  /**
   * Places {@code pod} on the node in {@code slot} without checking that it fits.
   *
   * @throws IllegalArgumentException if the slot holds no node
   */
  public void addPod(int slot, PodInfo pod) {
    SimNodeInfo n = slot >= 0 && slot < nextSeq ? slots[slot] : null;
    if (n == null) {
      throw new IllegalArgumentException("simulated cluster: cannot add pod " + pod.key() + " to slot " + slot
          + ": no node there");
    }
    reserveClaims(slot, pod);
    if (compact && pod instanceof SimulationPodInfo s && !s.hasAffinity() && !s.hasRequiredAntiAffinity()) {
      ResourceList r = pod.requests();
      defer(slot, pod, r.milliCpu(), r.memoryBytes(), r.ephemeralStorageBytes());
      return;
    }
    n = current(slot);
    replace(slot, n, n.withPod(pod));
  }

  /**
   * Places {@code pod} (without affinity or anti-affinity terms; requesting {@code cpu}, {@code memory} and
   * {@code storage}) on {@code slot} as {@link #replace} with the view plus the pod would, but without making that
   * view: the pod joins the slot's deferred list and its requests the slot's numbers. The slot is journaled as by {@code replace} (before its first change since the checkpoint it holds no
   * deferred pod, since {@link #checkpoint()} makes them), and the affinity lists are dropped when the slot's view
   * holds pods with such terms, as {@code replace}'s {@link #invalidate} would (the pod adds none).
   */
  private void defer(int slot, PodInfo pod, long cpu, long memory, long storage) {
    if (checkpointSeq >= 0) {
      save(slot);
    } else {
      reloadable = false;
    }
    numbers.defer(slot, pod, cpu, memory, storage);
    orderStale = true;
    if (numbers.affinity(slot)) {
      affinityList = null;
    }
    if (numbers.antiAffinity(slot)) {
      antiList = null;
    }
  }

  /**
   * The view of {@code slot} with its deferred pods: made from the slot's view by adding them in the order placed
   * (the view placing them one by one would have made) and put in the slot in its place. {@code null} for an empty
   * slot.
   */
  private @Nullable SimNodeInfo current(int slot) {
    SimNodeInfo v = slots[slot];
    int k = numbers.deferredCount(slot);
    if (k > 0 && v != null) {
      PodInfo[] pods = deferredBuffer.length >= k ? deferredBuffer : (deferredBuffer = new PodInfo[k * 2]);
      int i = 0;
      for (int e = numbers.firstEntry(slot); e >= 0; e = numbers.next(e)) {
        pods[i++] = numbers.pod(e);
      }
      v = v.withPods(pods, k);
      java.util.Arrays.fill(pods, 0, k, null);
      slots[slot] = v;
      numbers.madeIntoView(slot);
    }
    return v;
  }

  /**
   * Whether every slot's numbers are those its view gives (the view made with its deferred pods first): a check for
   * tests of the numbers kept through placements, removals and rollbacks.
   */
  boolean numbersHoldViews() {
    for (int at = 0; at < nextSeq; at++) {
      if (!numbers.holds(at, current(at))) {
        return false;
      }
    }
    return true;
  }

  /**
   * The pods placed on the node in {@code slot} since it held {@code view}, in the order placed, when the node is
   * {@code view} plus those pods and nothing else changed it since (its view read now would be {@code view} with them
   * added: {@code nodeInfoAt(slot).pods()} is {@code view.pods()} followed by them); {@code null} otherwise. Reading
   * them does not make the node's view, which a caller that only needs the pods added (a drain simulation extending a
   * node's known drain) then never pays for.
   */
  public @Nullable List<PodInfo> podsAddedSince(int slot, NodeInfo view) {
    if (slot < 0 || slot >= nextSeq || slots[slot] != view) {
      return null;
    }
    int k = numbers.deferredCount(slot);
    if (k == 0) {
      return List.of();
    }
    List<PodInfo> pods = new ArrayList<>(k);
    podsAddedSince(slot, view, pods);
    return pods;
  }

  /**
   * {@link #podsAddedSince(int, NodeInfo)} appended to {@code out} (nothing appended when it gives {@code null} or no
   * pod), for a caller that collects them with other pods without a list of their own.
   *
   * @return whether the node is {@code view} plus the pods appended (else nothing was appended)
   */
  public boolean podsAddedSince(int slot, NodeInfo view, List<PodInfo> out) {
    if (slot < 0 || slot >= nextSeq || slots[slot] != view) {
      return false;
    }
    if (numbers.deferredCount(slot) > 0) {
      for (int e = numbers.firstEntry(slot); e >= 0; e = numbers.next(e)) {
        out.add(numbers.pod(e));
      }
    }
    return true;
  }

  /** Makes the views of every slot with deferred pods. */
  private void makeDeferred() {
    for (int e = 0, n = numbers.entries(); e < n; e++) {
      int at = numbers.slotOf(e);
      if (at < nextSeq) {
        current(at);
      }
    }
    numbers.clearDeferred();
  }

  /** Puts {@code view} in {@code slot} (null: empty), with its numbers; drops the slot's deferred pods. */
  private void put(int slot, @Nullable SimNodeInfo view) {
    slots[slot] = view;
    numbers.set(slot, view);
  }

  /** Removes the pod keyed {@code podKey} from {@code nodeName}; returns whether it was there. */
  public boolean removePod(String nodeName, String podKey) {
    return removePod(slot(nodeName), podKey);
  }

  /** Removes the pod keyed {@code podKey} from the node in {@code slot}; returns whether it was there. */
  public boolean removePod(int slot, String podKey) {
    SimNodeInfo n = slot >= 0 && slot < nextSeq ? current(slot) : null;
    if (n == null) {
      return false;
    }
    int at = slot;
    SimNodeInfo after = n.withoutPod(podKey);
    if (after == n) {
      return false;
    }
    if (dra != null) {
      for (PodInfo pi : n.pods()) {
        if (pi.key().equals(podKey)) {
          unreserveClaims(at, pi);
          break;
        }
      }
    }
    replace(at, n, after);
    return true;
  }

  private void replace(int slot, SimNodeInfo before, SimNodeInfo after) {
    if (checkpointSeq >= 0) {
      save(slot);
    } else {
      reloadable = false;
    }
    put(slot, after);
    orderStale = true;
    invalidate(before, after);
  }

  /** The current view of a node, or {@code null}. The view never changes; later changes make new views. */
  public @Nullable NodeInfo nodeInfo(String name) {
    return view(name);
  }

  private @Nullable SimNodeInfo view(String name) {
    Integer at = position.get(name);
    return at == null ? null : current(at);
  }

  /** Every node, in insertion order: a read-only view that follows later changes. */
  public List<NodeInfo> nodes() {
    return orderView;
  }

  public int size() {
    return live;
  }

  /** How many PreFilter+Filter checks ran so far (for benchmarks and logs). */
  public long checks() {
    return checks;
  }

  /** Whether {@code pod} passes every PreFilter and Filter plugin on {@code nodeName}. */
  public Status check(PodInfo pod, String nodeName) {
    NodeInfo n = view(nodeName);
    if (n == null) {
      return Status.unresolvable("node " + nodeName + " not found in the simulation");
    }
    SimCycleState state = new SimCycleState();
    boolean[] skip = new boolean[filter.length];
    Status pre = runPreFilter(state, pod, skip);
    if (pre != null) {
      return pre;
    }
    Set<String> allowed = state.read(ALLOWED);
    if (allowed != null && !allowed.contains(nodeName)) {
      return Status.unresolvable("node " + nodeName + " is excluded by PreFilter");
    }
    return runFilter(state, pod, n, skip);
  }

  /**
   * The first node, in insertion order, accepted by {@code candidate} on which {@code pod} passes every PreFilter
   * and Filter plugin; {@code null} when none.
   */
  public @Nullable String findFit(PodInfo pod, Predicate<NodeInfo> candidate) {
    return findFit(pod, nodes(), candidate);
  }

  /** Like {@link #findFit(PodInfo, Predicate)} over {@code order} (views or names of this simulation's nodes). */
  public @Nullable String findFit(PodInfo pod, Collection<NodeInfo> order, Predicate<NodeInfo> candidate) {
    SimCycleState state = new SimCycleState();
    boolean[] skip = new boolean[filter.length];
    if (runPreFilter(state, pod, skip) != null) {
      return null;
    }
    Set<String> allowed = state.read(ALLOWED);
    for (NodeInfo v : order) {
      NodeInfo n = view(v.name());
      if (n == null || (allowed != null && !allowed.contains(n.name())) || !candidate.test(n)) {
        continue;
      }
      if (runFilter(state, pod, n, skip).isSuccess()) {
        return n.name();
      }
    }
    return null;
  }

  /**
   * Upstream's search for a node ({@code SchedulerPluginRunner.RunFiltersUntilPassingNode}): like
   * {@link #findFit(PodInfo, Collection, Predicate)}, but starting at position {@code start} of {@code order} and
   * wrapping around, so that a caller that starts the next search after the node found spreads its pods round-robin
   * instead of filling the first nodes. Views of {@code order} no longer in this simulation are skipped.
   *
   * @return the position in {@code order} of the node found, or -1
   */
  public int findFitFrom(PodInfo pod, List<NodeInfo> order, int start, Predicate<NodeInfo> candidate) {
    int size = order.size();
    if (size == 0) {
      return -1;
    }
    SimCycleState state = new SimCycleState();
    boolean[] skip = new boolean[filter.length];
    if (runPreFilter(state, pod, skip) != null) {
      return -1;
    }
    Set<String> allowed = state.read(ALLOWED);
    int first = Math.floorMod(start, size);
    for (int i = 0; i < size; i++) {
      int at = first + i < size ? first + i : first + i - size;
      NodeInfo n = view(order.get(at).name());
      if (n == null || (allowed != null && !allowed.contains(n.name())) || !candidate.test(n)) {
        continue;
      }
      if (runFilter(state, pod, n, skip).isSuccess()) {
        return at;
      }
    }
    return -1;
  }

  /**
   * {@link #findFitFrom(PodInfo, List, int, Predicate)} over the slots: the search starts at slot {@code start}
   * (modulo {@link #slots()}) and wraps around, passing over removed nodes and the node in slot {@code excluded}. While
   * no node was added since a caller copied {@link #nodes()} with no node removed yet, the slots are the positions
   * of that copy, so this finds what the list form finds on the copy with a candidate test rejecting
   * {@code excluded} and the removed nodes.
   *
   * @return the slot of the node found, or -1
   */
  public int findFitFrom(PodInfo pod, int start, int excluded) {
    int size = nextSeq;
    if (size == 0) {
      return -1;
    }
    return search(prepare(pod), pod, start, excluded);
  }

  /** {@link #findFitFrom(PodInfo, int, int)} with {@code pod}'s PreFilter outcome {@code p}. */
  private int search(Prepared p, PodInfo pod, int start, int excluded) {
    int size = nextSeq;
    if (size == 0 || p.rejected()) {
      return -1;
    }
    SimCycleState state = p.state();
    int first = Math.floorMod(start, size);
    filterRan = false;
    int found = p.shape() != null && compact ? fastSearch(p, p.shape(), pod, first, excluded)
        : generalSearch(state, p.skip(), pod, first, excluded);
    forgetIfWritten(p, pod);
    return found;
  }

  /**
   * The live slot of the node {@code hint} names ({@code -1}: no hint, or the node is not here): the slot the entry
   * kept when it was set here while no rollback freed slots since ({@link #slotEpoch}: until then a slot holds one
   * node, so a slot holding a view holds that node), else looked up by name and kept.
   */
  private int hintedSlot(SchedulingHints hints, SchedulingHints.Entry hint) {
    String node = hints.hinted(hint);
    if (node == null) {
      return -1;
    }
    if (hint.simId == id && hint.slotEpoch == slotEpoch && hint.slot >= 0 && hint.slot < nextSeq) {
      return slots[hint.slot] != null ? hint.slot : liveSlot(node);
    }
    int h = liveSlot(node);
    if (h >= 0) {
      hint.simId = id;
      hint.slotEpoch = slotEpoch;
      hint.slot = h;
    }
    return h;
  }

  /**
   * After Filter ran with {@code p}'s state: when a Filter wrote to it, drops the outcome noted on the pod, so that
   * its next search runs PreFilter again (only a Filter run can have written to the state since the last search of
   * the same note, which checked it).
   */
  private void forgetIfWritten(Prepared p, PodInfo pod) {
    if (filterRan && p.state().writtenSinceFrozen() && pod instanceof SimulationPodInfo s
        && s.simulationNote() == p) {
      s.simulationNote(null);
    }
  }

  /**
   * {@link #fitsAt} on the pod's hinted slot {@code h} ({@code tryScheduleUsingHints}'s check), dropping the pod's
   * noted PreFilter outcome when a Filter wrote to its state ({@link #forgetIfWritten}; {@link #filterRan} then tells
   * the caller).
   */
  private boolean fitsOnHint(Prepared p, PodInfo pod, int h) {
    filterRan = false;
    boolean fits = fitsAt(p, pod, h);
    forgetIfWritten(p, pod);
    return fits;
  }

  /**
   * Whether {@code pod}, whose PreFilter outcome is {@code p} (not rejected), passes Filter on the node in slot
   * {@code at}: the check a search makes on each node it visits.
   */
  private boolean fitsAt(Prepared p, PodInfo pod, int at) {
    FilterShapes.Shape shape = p.shape();
    if (shape != null && compact) {
      checks++; // as runFilter counts
      if (shape.fit && !numbers.fits(at, p.cpu(), p.memory(), p.storage())) {
        return false;
      }
      int v = numbers.nodeVersion(at);
      if (!shape.known(at, v)) {
        filterRan = true;
        shape.record(at, v, shapes.passesNodeObject(shape, p.state(), pod, current(at)));
      }
      return shape.passes(at);
    }
    filterRan = true;
    Set<String> allowed = p.state().read(ALLOWED);
    SimNodeInfo n = current(at);
    return (allowed == null || allowed.contains(n.name())) && runFilter(p.state(), pod, n, p.skip()).isSuccess();
  }

  /**
   * Upstream's removal simulation of one node's pods ({@code RemovalSimulator.findPlaceFor}): places each of
   * {@code pods} on the node {@link #findFitFrom(PodInfo, int, int)} finds from slot {@code cursor[0]}, never on the
   * node in slot {@code excluded}, moving the cursor past each node found; the pods are placed by priority, highest
   * first, those of one priority in the order given ({@code groupByPriority}). When a pod has no place, the
   * placements made so far are undone (each placed pod object leaves the node it was placed on, the latest placement
   * first) and the cursor stays past the last node found.
   *
   * <p>The pods' notes are read in a pass of their own, and then what each note holds, before the first search, so
   * that the cache misses of reading many pods overlap instead of following one another search by search (what a
   * search then reads of its pod is in the cache; the searches and their results are those of one search after
   * another).
   *
   * @return whether every pod was placed
   */
  public boolean placeAll(List<PodInfo> pods, int[] cursor, int excluded) {
    return placeAll(pods, cursor, excluded, null);
  }

  /**
   * {@link #placeAll(List, int[], int)} as upstream's {@code HintingSimulator.TrySchedulePods} with
   * {@code breakOnFailure}: the pods of each priority (highest first) are first tried, in order, on the node
   * {@code hints} holds for each ({@code tryScheduleWithHints}: when that node is still in the simulation, is not the
   * one in slot {@code excluded} and the pod fits there), and then the pods of that priority which did not fit on
   * their hint are searched for as above, in order ({@code tryScheduleWithoutHints}); a search moves the cursor, a
   * hinted placement does not. Every placement is hinted for the pod, those made before a pod that fits nowhere
   * included (their placements are undone, their hints kept, as upstream's).
   *
   * @param hints the hints to read and set; {@code null}: none
   * @return whether every pod was placed
   */
  public boolean placeAll(List<PodInfo> pods, int[] cursor, int excluded, @Nullable SchedulingHints hints) {
    return place(pods, cursor, excluded, hints, null, false);
  }

  /**
   * Places {@code pods} as {@link #placeAll(List, int[], int, SchedulingHints)} does (no node excluded), but keeps the
   * placements made before a pod that fits nowhere: upstream's {@code TrySchedulePods} with {@code breakOnFailure} on
   * a snapshot its caller does not revert (the scale-down planner's injection of the pods of ongoing deletions,
   * {@code injectPods}). The pods after the one that fits nowhere are not placed.
   *
   * @return whether every pod was placed
   */
  public boolean placeUntilFailure(List<PodInfo> pods, int[] cursor, @Nullable SchedulingHints hints) {
    return place(pods, cursor, -1, hints, null, true);
  }

  /**
   * Upstream's {@code RemovalSimulator.findPlaceFor}: moves {@code pods} (copies without their node) off the node in
   * slot {@code from} as {@link #placeAll(List, int[], int, SchedulingHints)} places them, never back on that node,
   * while the node is simulated as upstream's ghost: its pods taken off and the node tainted {@code removalTaint}
   * ({@code replaceWithTaintedGhostNode}, what the node is during a real drain). The node stays in the cluster for the
   * plugins, so topology spread still counts it as a domain (with no pods) unless a constraint's
   * {@code nodeTaintsPolicy: Honor} leaves out nodes whose taints the pod does not tolerate, and no pod of the node is
   * counted by topology spread or inter-pod affinity. The moving pods' claims are released first (upstream's
   * {@code UnschedulePod}), and while the ghost stands the pods that stay (DaemonSet and mirror pods) hold no claim they
   * own and are no consumer of the others ({@code RemovePodOwnedClaims} of the node removed for its ghost), so the
   * devices those held are free for the moving pods. Afterwards the node is as before, whether or not every pod
   * found a place: a caller that removes it on success removes the node as it was with {@link #removeDrainedNodeAt}
   * (upstream removes the ghost).
   *
   * <p>The ghost is put in place before the first pod whose Filter plugins go beyond the node-local ones decided on
   * the slots' numbers (a pod with a {@linkplain FilterShapes shape}: no plugin of its Filter reads another node or
   * its pods, and its PreFilter only gets less restrictive with pods removed); the pods placed before it are placed
   * where they would be with the ghost, so the outcome is upstream's, and a candidate whose pods are all such pods
   * (most are) is never copied.
   *
   * @param removalTaint the taint the ghost carries (upstream's {@code ToBeDeletedByClusterAutoscaler=<unix
   *     seconds>:NoSchedule}); a node that already has a taint of its key and effect keeps its taints
   * @return whether every pod was placed
   * @throws IllegalArgumentException if slot {@code from} holds no node
   */
  public boolean placeElsewhere(List<PodInfo> pods, int[] cursor, int from, @Nullable SchedulingHints hints,
      Taint removalTaint) {
    Objects.requireNonNull(removalTaint, "removalTaint");
    if (from < 0 || from >= nextSeq || slots[from] == null) {
      throw new IllegalArgumentException("simulated cluster: cannot move pods off slot " + from + ": no node there");
    }
    return place(pods, cursor, from, hints, removalTaint, false);
  }

  /**
   * {@link #placeAll(List, int[], int, SchedulingHints)}, and with {@code ghostTaint} {@link #placeElsewhere}'s ghost
   * of the node in slot {@code excluded}; with {@code keepOnFailure} (only without a ghost or an excluded node)
   * {@link #placeUntilFailure}.
   */
  private boolean place(List<PodInfo> pods, int[] cursor, int excluded, @Nullable SchedulingHints hints,
      @Nullable Taint ghostTaint, boolean keepOnFailure) {
    int count = pods.size();
    if (nextSeq == 0) {
      return count == 0; // as the first search finds nothing
    }
    if (placedAt.length < count) {
      int n = Math.max(count, 2 * placedAt.length);
      placedAt = new int[n];
      notes = new Object[n];
      priorityOrder = new int[n];
      priorities = new int[n];
      pending = new int[n];
      placedOrder = new int[n];
    }
    Object[] notes = this.notes;
    int[] placedAt = this.placedAt;
    DraSnapshot.Mark released = releaseClaims(pods, excluded);
    DraSnapshot.Mark ghostReleased = ghostTaint == null ? null : releaseGhostClaims(pods, excluded);
    int[] priorities = this.priorities;
    for (int i = 0; i < count; i++) {
      PodInfo pod = pods.get(i);
      priorities[i] = pod.priority();
      notes[i] = pod instanceof SimulationPodInfo s ? s.simulationNote() : null;
    }
    for (int i = 0; i < count; i++) {
      if (notes[i] instanceof Prepared p) {
        notes[i] = p.shape();
      }
    }
    if (hints != null) {
      for (int i = 0; i < count; i++) {
        if (pods.get(i) instanceof SimulationPodInfo s && s.hintNote() instanceof SchedulingHints.Entry e) {
          notes[i] = e.node; // the hints read ahead too
        }
      }
    }
    java.util.Arrays.fill(notes, 0, count, null);
    int[] order = byPriority(priorities, count);
    int[] pending = this.pending;
    int[] placedOrder = this.placedOrder;
    int placed = 0;
    SimNodeInfo original = null; // the node in slot excluded while its ghost is there
    for (int g = 0; g < count; ) {
      int priority = priorities[order[g]];
      int end = g + 1;
      while (end < count && priorities[order[end]] == priority) {
        end++;
      }
      // the group's hints first (upstream's tryScheduleWithHints), then a search for each pod left (its
      // tryScheduleWithoutHints), in the order given
      int left = 0;
      for (int k = g; k < end; k++) {
        int i = order[k];
        PodInfo pod = pods.get(i);
        SchedulingHints.Entry hint = hints == null ? null : hints.entry(pod);
        notes[i] = hint;
        int h = hint == null ? -1 : hintedSlot(Objects.requireNonNull(hints), hint);
        if (h < 0 || h == excluded) {
          pending[left++] = i;
          continue;
        }
        Prepared p = prepare(pod);
        if (ghostTaint != null && original == null && (!compact || p.rejected() || p.shape() == null)) {
          original = ghost(excluded, ghostTaint);
          p = prepare(pod); // PreFilter with the ghost
        }
        if (p.rejected() || !fitsOnHint(p, pod, h)) {
          pending[left++] = i;
          continue;
        }
        // placed on its hinted node: the hint stands (its node is the slot's), renewed in this generation
        Objects.requireNonNull(hints).set(hint, Objects.requireNonNull(hint.node), id, slotEpoch, h);
        put(h, pod, p);
        placedAt[i] = h;
        placedOrder[placed++] = i;
      }
      for (int k = 0; k < left; k++) {
        int i = pending[k];
        PodInfo pod = pods.get(i);
        Prepared p = prepare(pod); // a new PreFilter when a Filter wrote to the state, as upstream's search runs one
        if (ghostTaint != null && original == null && (!compact || p.rejected() || p.shape() == null)) {
          original = ghost(excluded, ghostTaint);
          p = prepare(pod);
        }
        int at = search(p, pod, cursor[0], excluded);
        if (at < 0) {
          if (keepOnFailure) {
            return false; // no ghost, no node excluded: no claim was released
          }
          for (int j = placed - 1; j >= 0; j--) {
            unplace(placedAt[placedOrder[j]], pods.get(placedOrder[j]));
          }
          restore(excluded, original);
          if (ghostReleased != null) {
            Objects.requireNonNull(dra).reset(ghostReleased);
          }
          if (released != null) {
            Objects.requireNonNull(dra).reset(released);
          }
          return false;
        }
        cursor[0] = at + 1;
        found(at);
        searchPlacements++;
        if (notes[i] instanceof SchedulingHints.Entry hint) {
          Objects.requireNonNull(hints).set(hint, Objects.requireNonNull(slots[at]).name(), id, slotEpoch, at);
        }
        put(at, pod, p);
        placedAt[i] = at;
        placedOrder[placed++] = i;
      }
      g = end;
    }
    restore(excluded, original);
    if (ghostReleased != null) {
      Objects.requireNonNull(dra).reset(ghostReleased); // the node as it was, its pods' claims with it
    }
    return true;
  }

  /**
   * The indexes of the first {@code count} pods, whose priorities are {@code priorities}, grouped by priority,
   * highest first, each group in the order given (upstream's {@code groupByPriority}); in {@link #priorityOrder}.
   */
  private int[] byPriority(int[] priorities, int count) {
    int[] order = priorityOrder;
    boolean sorted = true;
    for (int i = 0; i < count; i++) {
      order[i] = i;
      if (i > 0 && priorities[i] > priorities[i - 1]) {
        sorted = false;
      }
    }
    if (!sorted) {
      for (int i = 1; i < count; i++) { // a stable insertion sort: the lists are a node's pods
        int v = order[i];
        int pr = priorities[v];
        int j = i - 1;
        while (j >= 0 && priorities[order[j]] < pr) {
          order[j + 1] = order[j];
          j--;
        }
        order[j + 1] = v;
      }
    }
    return order;
  }

  /** Puts {@code slot}'s node in place as its ghost tainted {@code taint}; returns the node it replaced. */
  private SimNodeInfo ghost(int slot, Taint taint) {
    SimNodeInfo original = Objects.requireNonNull(current(slot));
    replace(slot, original, SimNodeInfo.empty(tainted(original.node(), taint)));
    return original;
  }

  /** Adds {@code pod}, whose PreFilter outcome is {@code p}, to the node in {@code slot} (deferred when it can be). */
  private void put(int slot, PodInfo pod, Prepared p) {
    if (compact && pod instanceof SimulationPodInfo s && !s.hasAffinity() && !s.hasRequiredAntiAffinity()) {
      reserveClaims(slot, pod);
      defer(slot, pod, p.cpu(), p.memory(), p.storage()); // addPod's deferral, with the requests PreFilter noted
    } else {
      addPod(slot, pod);
    }
  }

  /** Puts {@code original} back in {@code slot} in place of the ghost there; nothing when {@code null}. */
  private void restore(int slot, @Nullable SimNodeInfo original) {
    if (original != null) {
      replace(slot, Objects.requireNonNull(current(slot)), original);
    }
  }

  /** {@code node} with {@code taint} added, unless it has a taint of that key and effect. */
  private static Node tainted(Node node, Taint taint) {
    for (Taint t : node.spec().taints()) {
      if (t.key().equals(taint.key()) && t.effect() == taint.effect()) {
        return node;
      }
    }
    return node.toBuilder().taint(taint).build();
  }

  /**
   * How many pods this simulation placed, over its life, on a node a search found ({@link #placeAll},
   * {@link #placeElsewhere}, {@link #placeUntilFailure}, {@link #placeFrom}; placements undone afterwards included)
   * rather than on their hint. A caller that places pods only where their hints say knows, from this count not
   * moving, that running the same placements again on the same cluster with the hints they set places every pod on
   * the same node in the same order.
   */
  public long searchPlacements() {
    return searchPlacements;
  }

  /**
   * Upstream's {@code HintingSimulator.tryScheduleUsingHints} for one pod: places {@code pod} on the node
   * {@code hints} holds for it when that node is still in this simulation and the pod passes PreFilter and Filter
   * there, and renews the hint in the current generation. Nothing changes when the pod is not placed.
   *
   * @return the slot the pod was placed in, or -1: no hint, its node gone, or the pod does not fit there
   */
  public int placeOnHint(PodInfo pod, SchedulingHints hints) {
    SchedulingHints.Entry hint = hints.entry(pod);
    int h = hintedSlot(hints, hint);
    if (h < 0) {
      return -1;
    }
    Prepared p = prepare(pod);
    if (p.rejected() || !fitsOnHint(p, pod, h)) {
      return -1;
    }
    hints.set(hint, Objects.requireNonNull(hint.node), id, slotEpoch, h);
    addPod(h, pod);
    return h;
  }

  /**
   * Upstream's {@code HintingSimulator.trySchedule} past its similar-pods check: places {@code pod} on the node
   * {@link #findFitFrom(PodInfo, int, int)} finds round-robin from slot {@code cursor[0]}
   * ({@code SchedulePodOnAnyNodeMatching}), moves the cursor past that node, and hints it for the pod in the current
   * generation. Nothing changes when the pod fits nowhere.
   *
   * @return the slot the pod was placed in, or -1
   */
  public int placeFrom(PodInfo pod, int[] cursor, SchedulingHints hints) {
    if (nextSeq == 0) {
      return -1;
    }
    int at = search(prepare(pod), pod, cursor[0], -1);
    if (at < 0) {
      return -1;
    }
    cursor[0] = at + 1;
    found(at);
    searchPlacements++;
    hints.set(hints.entry(pod), Objects.requireNonNull(slots[at]).name(), id, slotEpoch, at);
    addPod(at, pod);
    return at;
  }

  /**
   * Before {@code pods} leave the node in slot {@code from} for others (a drain simulation), their claims are released
   * there, as upstream unschedules them first: a claim the pod owns is deallocated and may be allocated where the pod
   * goes, a shared one keeps its allocation while other pods use it. Returns what to put back if they cannot all
   * move, or {@code null} when no claim is involved.
   */
  private DraSnapshot.@Nullable Mark releaseClaims(List<PodInfo> pods, int from) {
    DraSnapshot d = dra;
    if (d == null || from < 0 || from >= nextSeq || slots[from] == null) {
      return null;
    }
    List<io.fleetkit.api.core.Pod> withClaims = null;
    for (PodInfo pi : pods) {
      if (!pi.pod().spec().resourceClaims().isEmpty()) {
        if (withClaims == null) {
          withClaims = new ArrayList<>();
        }
        withClaims.add(pi.pod());
      }
    }
    if (withClaims == null) {
      return null;
    }
    DraSnapshot.Mark m = d.mark(withClaims);
    String name = slots[from].name();
    for (io.fleetkit.api.core.Pod p : withClaims) {
      // the pods here are copies without their node: they leave the node they are on in the simulation
      d.unreserve(p.withNodeName(name), name);
    }
    return m;
  }

  /**
   * While the node in slot {@code from} is the ghost of a drain simulation, the claims of its pods that do not move
   * ({@code moving} holds copies of those that do: DaemonSet and mirror pods stay) are released as upstream's ghost
   * releases them: {@code replaceWithTaintedGhostNode} removes the node, and with it each remaining pod's
   * {@linkplain DraSnapshot#removePodOwnedClaims pod-owned claims}, so the devices those claims held (a
   * network-attached device, say) are free for the pods that move. Returns what to put back when the node is
   * restored, or {@code null} when no claim is involved.
   */
  private DraSnapshot.@Nullable Mark releaseGhostClaims(List<PodInfo> moving, int from) {
    DraSnapshot d = dra;
    if (d == null || from < 0 || from >= nextSeq || slots[from] == null) {
      return null;
    }
    SimNodeInfo view = Objects.requireNonNull(current(from));
    List<io.fleetkit.api.core.Pod> staying = null;
    for (PodInfo pi : view.pods()) {
      io.fleetkit.api.core.Pod p = pi.pod();
      if (p.spec().resourceClaims().isEmpty() || isMoving(moving, p.metadata().uid())) {
        continue;
      }
      if (staying == null) {
        staying = new ArrayList<>();
      }
      staying.add(p);
    }
    if (staying == null) {
      return null;
    }
    DraSnapshot.Mark m = d.mark(staying);
    String name = view.name();
    for (io.fleetkit.api.core.Pod p : staying) {
      d.removePodOwnedClaims(p, name);
    }
    return m;
  }

  private static boolean isMoving(List<PodInfo> moving, String uid) {
    for (int i = 0, n = moving.size(); i < n; i++) {
      if (moving.get(i).pod().metadata().uid().equals(uid)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Undoes the latest placement of {@code pod} (the same object) on {@code slot}, the latest placement on it not yet
   * undone: a deferred one is taken back from the slot's numbers and deferred list without making the view.
   */
  private void unplace(int slot, PodInfo pod) {
    unreserveClaims(slot, pod);
    if (numbers.undefer(slot, Objects.requireNonNull(slots[slot]), pod)) {
      orderStale = true;
      return;
    }
    SimNodeInfo n = Objects.requireNonNull(current(slot));
    replace(slot, n, n.withoutLast(pod));
  }

  /** The round-robin search from slot {@code first}: every Filter plugin left after PreFilter on each slot's view. */
  private int generalSearch(SimCycleState state, boolean[] skip, PodInfo pod, int first, int excluded) {
    filterRan = true;
    Set<String> allowed = state.read(ALLOWED);
    int size = nextSeq;
    SimNodeInfo[] views = slots;
    for (int i = 0; i < size; i++) {
      int at = first + i < size ? first + i : first + i - size;
      if (views[at] == null || at == excluded) {
        continue;
      }
      SimNodeInfo n = current(at);
      if ((allowed != null && !allowed.contains(n.name()))) {
        continue;
      }
      if (runFilter(state, pod, n, skip).isSuccess()) {
        return at;
      }
    }
    return -1;
  }

  /**
   * The same search for a pod with a {@linkplain FilterShapes shape}: {@code NodeResourcesFit} on the slots' numbers,
   * the node-object plugins' verdict kept per shape and node object (run on the slot's view the first time).
   */
  private int fastSearch(Prepared p, FilterShapes.Shape shape, PodInfo pod, int first, int excluded) {
    int size = nextSeq;
    SimNodeInfo[] views = slots;
    SlotNumbers num = numbers;
    for (int i = 0; i < size; i++) {
      int at = first + i < size ? first + i : first + i - size;
      if (views[at] == null || at == excluded) {
        continue;
      }
      checks++; // as runFilter counts
      if (shape.fit && !num.fits(at, p.cpu(), p.memory(), p.storage())) {
        continue;
      }
      int v = num.nodeVersion(at);
      if (!shape.known(at, v)) {
        filterRan = true;
        shape.record(at, v, shapes.passesNodeObject(shape, p.state(), pod, current(at)));
      }
      if (shape.passes(at)) {
        return at;
      }
    }
    return -1;
  }

  /**
   * PreFilter's outcome for one pod object in {@link #findFitFrom(PodInfo, int, int)}: the cycle state it wrote, the
   * Filter plugins it skipped and whether it rejected the pod, with the lists of nodes with (anti-)affinity pods it
   * read ({@code null} when not read); the pod's {@linkplain FilterShapes shape} ({@code null}: the general path)
   * and its cpu, memory and ephemeral storage requests.
   */
  private record Prepared(Object owner, SimCycleState state, boolean[] skip, boolean rejected,
      @Nullable List<NodeInfo> affinityRead, @Nullable List<NodeInfo> antiRead, FilterShapes.@Nullable Shape shape,
      long cpu, long memory, long storage) {}

  /**
   * The PreFilter outcome for {@code pod}: the one this simulation noted on the pod ({@link SimulationPodInfo}) at an
   * earlier search of the same pod object, when that run read nothing of the simulation but the lists of nodes with
   * (anti-)affinity pods and those lists hold the same views now; else PreFilter runs, and its outcome is noted when
   * it read nothing else of the simulation. The plugins' other inputs (the pod object, which is immutable, their
   * arguments and the cluster objects of {@link FrameworkHandle#list}) are fixed for this simulation, so a run with
   * the same inputs makes the same state; Filter reads that state and never writes it (a search in which a Filter
   * wrote drops the note).
   */
  private Prepared prepare(PodInfo pod) {
    SimulationPodInfo noted = keepPreFilter && pod instanceof SimulationPodInfo s ? s : null;
    if (noted != null && noted.simulationNote() instanceof Prepared p && p.owner() == noteOwner
        && (p.affinityRead() == null || Lister.sameObjects(p.affinityRead(), affinityNodes()))
        && (p.antiRead() == null || Lister.sameObjects(p.antiRead(), antiNodes()))) {
      return p;
    }
    SimCycleState state = new SimCycleState();
    boolean[] skip = new boolean[filter.length];
    readVolatile = false;
    readAffinity = null;
    readAnti = null;
    boolean rejected = runPreFilter(state, pod, skip) != null;
    state.freeze();
    FilterShapes.Shape shape = rejected || state.read(ALLOWED) != null ? null : shapes.shapeOf(pod, skip);
    ResourceList r = pod.requests();
    Prepared p = new Prepared(noteOwner, state, skip, rejected, readAffinity, readAnti, shape, r.milliCpu(),
        r.memoryBytes(), r.ephemeralStorageBytes());
    if (noted != null) {
      noted.simulationNote(readVolatile ? null : p);
    }
    return p;
  }

  /**
   * Makes {@link #findFitFrom(PodInfo, int, int)} run PreFilter for every search instead of keeping its outcome per
   * pod (the reference for tests).
   */
  void runPreFilterEverySearch() {
    keepPreFilter = false;
  }

  /**
   * Makes searches run every Filter plugin on the views and placements make their views at once (the reference for
   * tests of the fast decision and the deferred placements).
   */
  void generalPathOnly() {
    compact = false;
  }

  @SuppressWarnings("unchecked")
  private static final io.fleetkit.api.framework.StateKey<Set<String>> ALLOWED =
      io.fleetkit.api.framework.StateKey.of("simulator/allowed-nodes", (Class<Set<String>>) (Class<?>) Set.class);

  private @Nullable Status runPreFilter(SimCycleState state, PodInfo pod, boolean[] skip) {
    Set<String> allowed = null;
    for (int i = 0; i < preFilter.length; i++) {
      PreFilterResult r = preFilter[i].preFilter(state, pod, handle);
      Status s = r.status();
      if (s.isSkip()) {
        if (preFilterToFilter[i] >= 0) {
          skip[preFilterToFilter[i]] = true;
        }
        continue;
      }
      if (!s.isSuccess()) {
        return s.withPlugin(preFilter[i].name());
      }
      Set<String> only = r.nodeNames();
      if (only != null) {
        if (allowed == null) {
          allowed = new java.util.HashSet<>(only);
        } else {
          allowed.retainAll(only);
        }
      }
    }
    if (allowed != null) {
      state.write(ALLOWED, allowed);
    }
    return null;
  }

  private Status runFilter(SimCycleState state, PodInfo pod, NodeInfo n, boolean[] skip) {
    checks++;
    for (int i = 0; i < filter.length; i++) {
      if (skip[i]) {
        continue;
      }
      Status s = filter[i].filter(state, pod, n);
      if (!s.isSuccess()) {
        return s.withPlugin(filter[i].name());
      }
    }
    return Status.success();
  }

  /** Drops the affinity node lists when the change touches a node holding pods with affinity. */
  private void invalidate(SimNodeInfo before, @Nullable SimNodeInfo after) {
    if (!before.podsWithAffinity().isEmpty() || (after != null && !after.podsWithAffinity().isEmpty())) {
      affinityList = null;
    }
    if (!before.podsWithRequiredAntiAffinity().isEmpty()
        || (after != null && !after.podsWithRequiredAntiAffinity().isEmpty())) {
      antiList = null;
    }
  }

  private List<NodeInfo> affinityNodes() {
    List<NodeInfo> l = affinityList;
    if (l == null) {
      List<NodeInfo> out = new ArrayList<>();
      for (NodeInfo n : order()) {
        if (!n.podsWithAffinity().isEmpty()) {
          out.add(n);
        }
      }
      l = List.copyOf(out);
      affinityList = l;
    }
    return l;
  }

  private List<NodeInfo> antiNodes() {
    List<NodeInfo> l = antiList;
    if (l == null) {
      List<NodeInfo> out = new ArrayList<>();
      for (NodeInfo n : order()) {
        if (!n.podsWithRequiredAntiAffinity().isEmpty()) {
          out.add(n);
        }
      }
      l = List.copyOf(out);
      antiList = l;
    }
    return l;
  }

  /** The framework handle and snapshot the simulation's plugins see: always the current state. */
  private final class Handle implements FrameworkHandle, Snapshot {
    @Override
    public Clock clock() {
      readVolatile = true;
      return clock;
    }

    @Override public Snapshot snapshot() { return this; }

    @Override
    public WaitingPods waitingPods() {
      readVolatile = true;
      return NO_WAITING;
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T> List<T> list(Class<T> kind) {
      if (dra != null && DraSnapshot.isDraKind(kind)) {
        if (kind != DeviceClass.class) {
          readVolatile = true; // claims and slices change with placements and nodes
        }
        return dra.list(kind);
      }
      List<?> l = objects.get(kind);
      return l == null ? List.of() : (List<T>) l;
    }

    @Override
    public Status runFilterPlugins(CycleState state, PodInfo pod, NodeInfo node) {
      readVolatile = true;
      for (FilterPlugin f : filter) {
        Status s = f.filter(state, pod, node);
        if (!s.isSuccess()) {
          return s.withPlugin(f.name());
        }
      }
      return Status.success();
    }

    @Override
    public Status runPreFilterExtensionAddPod(CycleState state, PodInfo podToSchedule, PodInfo other,
        NodeInfo node) {
      readVolatile = true;
      for (PreFilterPlugin p : preFilter) {
        PreFilterPlugin.PreFilterExtensions e = p.preFilterExtensions();
        if (e != null) {
          Status s = e.addPod(state, podToSchedule, other, node);
          if (!s.isSuccess()) {
            return s.withPlugin(p.name());
          }
        }
      }
      return Status.success();
    }

    @Override
    public Status runPreFilterExtensionRemovePod(CycleState state, PodInfo podToSchedule, PodInfo other,
        NodeInfo node) {
      readVolatile = true;
      for (PreFilterPlugin p : preFilter) {
        PreFilterPlugin.PreFilterExtensions e = p.preFilterExtensions();
        if (e != null) {
          Status s = e.removePod(state, podToSchedule, other, node);
          if (!s.isSuccess()) {
            return s.withPlugin(p.name());
          }
        }
      }
      return Status.success();
    }

    @Override
    public Map<String, Object> pluginArgs(String pluginName) {
      Map<String, Object> a = profile.pluginArgs().get(pluginName);
      return a == null ? Map.of() : a;
    }

    @Override
    public List<NodeInfo> nodes() {
      readVolatile = true;
      return SimulatedCluster.this.nodes();
    }

    @Override
    public List<NodeInfo> nodesWithAffinityPods() {
      List<NodeInfo> l = affinityNodes();
      readAffinity = l;
      return l;
    }

    @Override
    public List<NodeInfo> nodesWithRequiredAntiAffinityPods() {
      List<NodeInfo> l = antiNodes();
      readAnti = l;
      return l;
    }

    @Override
    public @Nullable NodeInfo get(String nodeName) {
      readVolatile = true;
      return view(nodeName);
    }

    @Override
    public int size() {
      readVolatile = true;
      return live;
    }
  }

  private static final WaitingPods NO_WAITING = new WaitingPods() {
    @Override public Set<String> keys() { return Set.of(); }
    @Override public void allow(String podKey, String pluginName) {}
    @Override public void reject(String podKey, String pluginName, String reason) {}
  };
}
