package io.fleetkit.simulator;

import io.fleetkit.api.apps.Deployment;
import io.fleetkit.api.apps.ReplicaSet;
import io.fleetkit.api.apps.StatefulSet;
import io.fleetkit.api.rollouts.Rollout;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodPhase;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.meta.OwnerReference;
import io.fleetkit.api.simulation.WorkloadLoad;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.autoscale.hpa.ContainerUsage;
import io.fleetkit.autoscale.hpa.MetricsSource;
import io.fleetkit.autoscale.hpa.PodResourceMetrics;
import io.fleetkit.api.time.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import io.fleetkit.api.store.Watch;
import io.fleetkit.api.store.WatchEventType;
import org.jspecify.annotations.Nullable;

/**
 * The resource metrics API of a simulated cluster: a workload's requests/s at the current simulated time
 * ({@link io.fleetkit.api.simulation.LoadPattern#rateAt}) times its per-request cost, spread evenly over its serving
 * pods. Pods that are not ready report no usage (the HPA leaves them out of CPU utilization until they are), pods
 * of workloads without load report zero.
 *
 * <p>A pod serves while it is Running, Ready and not being deleted ({@link #serving(Pod)}) and its node has not
 * failed: from the instant a node fails ({@link #nodeDown}) its pods serve nothing and report no usage (metrics-server
 * cannot scrape a dead kubelet), although the store still shows them Ready until the node lifecycle controller marks
 * them (clients see errors from the failure on). Single-threaded, as the simulation.
 */
public final class LoadMetrics implements MetricsSource {
  /** The window each sample covers (metrics-server's default resolution). */
  public static final Duration WINDOW = Duration.ofSeconds(15);

  private final ObjectStore store;
  private final ManualClock clock;
  private final Instant start;
  private final List<WorkloadLoad> loads;
  /** The namespaces of the loads' workloads: only their pods and ReplicaSets are grouped. */
  private final Set<String> namespaces = new TreeSet<>();
  /** The loads by the namespace and selector of their workloads, taken with the snapshot. */
  private Map<SelectorKey, WorkloadLoad> loadsBySelector = Map.of();
  /** The selector of each load's workload (null: none) when {@link #loadsBySelector} was made, by load index. */
  private final @Nullable LabelSelector[] loadSelectors;
  /** {@link #loadFor}'s answers by selector instance, for {@link #loadsBySelector} as it is (cleared with it). */
  private final IdentityHashMap<LabelSelector, LoadOf> loadsByInstance = new IdentityHashMap<>();
  /** Workload ({@code Deployment/ns/name}) of each ReplicaSet a Deployment controls, by ReplicaSet uid. */
  private final Map<String, String> workloadOfReplicaSet = new HashMap<>();
  /** The pods of each workload now, kept up to date from the watches. */
  private final Map<String, LivePods> live = new HashMap<>();
  /** Changes whenever the serving pods of a workload may have changed, or the grouping was made anew. */
  private long servingEpoch;
  /** Changes whenever a workload is put in {@link #live} or taken out (so a {@link WorkloadState}'s link is checked). */
  private long liveEpoch;
  /** The nodes that failed and are not back ({@link #nodeDown}): their pods serve nothing. */
  private final Set<String> downNodes = new HashSet<>();
  /** The workload each grouped pod was put under, by uid (the same string at every version of the pod). */
  private final Map<String, String> workloadOfPod = new HashMap<>();
  /** What is kept per workload ({@link WorkloadLoad#target}): one object, found by the load instance. */
  private final Map<String, WorkloadState> byTarget = new HashMap<>();
  /** Each load's {@link WorkloadState}, by load instance (the loads given, and others met since, bounded). */
  private final Map<WorkloadLoad, WorkloadState> stateOfLoad = new IdentityHashMap<>();
  /** The instant of the open snapshot, or null; the snapshot is {@link #frozen} over {@link #live}. */
  private @Nullable Instant snapshotAt;
  /** Workloads whose pods changed since the snapshot was opened: their pods as the snapshot saw them. */
  private final Map<String, List<Pod>> frozen = new HashMap<>();
  /** Whether every workload is frozen (the grouping itself changed while a snapshot was open). */
  private boolean allFrozen;
  /** Set when a ReplicaSet changed its workload: the next snapshot regroups the pods from the store. */
  private boolean regroup = true;
  /** The usage reported for each container of a serving pod: the last one made, shared while it is the same. */
  private @Nullable List<ContainerUsage> lastUsage;
  private final Watch replicaSets;
  private final Watch podWatch;
  /** The first load with a memory cost on each workload, by {@link WorkloadLoad#target}. */
  private final Map<String, WorkloadLoad> memoryLoads = new HashMap<>();

  private record SelectorKey(String namespace, LabelSelector selector) {}

  /**
   * The serving pods filtered from a pod list, with each one's name and first container's name (null without
   * containers): what {@link #podResourceMetrics} reports, read from the pods once.
   */
  private record Serving(Object from, LabelSelector selector, List<Pod> pods, String[] names,
      @Nullable String[] containers, @Nullable Object servingStamp) {
    static Serving of(Object from, LabelSelector selector, List<Pod> pods) {
      String[] names = new String[pods.size()];
      String[] containers = new String[pods.size()];
      for (int i = 0; i < names.length; i++) {
        Pod p = pods.get(i);
        names[i] = p.metadata().name();
        containers[i] = p.spec().containers().isEmpty() ? null : p.spec().containers().get(0).name();
      }
      return new Serving(from, selector, pods, names, containers, null);
    }
  }

  private record ServingCount(List<Pod> from, int count) {}

  /**
   * What is kept for one workload's reads, in one place (a sync of the HPA reads all of it): the serving pods for
   * the pod list they were filtered from, how many serve for the list they were counted from, and the last
   * {@link #resourceMetricsVersion}, given again while it is equal.
   */
  private static final class WorkloadState {
    final String target;
    @Nullable Serving serving;
    @Nullable ServingCount count;
    @Nullable Version version;
    /** {@code live.get(target)} as it was at {@link #liveEpoch} (-1: not looked up). */
    @Nullable LivePods livePods;
    long liveEpoch = -1;
    /** The load's total usage of {@link #totalResource} at {@link #totalAt}, or null. */
    @Nullable Instant totalAt;
    /** The serving pods' stamp {@link #capacity} was computed for (null: none yet). */
    @Nullable Object capacityOf;
    double capacity;
    @Nullable String totalResource;
    double total;

    WorkloadState(String target) {
      this.target = target;
    }
  }

  public LoadMetrics(ObjectStore store, ManualClock clock, Instant start, List<WorkloadLoad> loads) {
    this.store = Objects.requireNonNull(store, "store");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.start = Objects.requireNonNull(start, "start");
    this.loads = List.copyOf(loads);
    this.loadSelectors = new LabelSelector[this.loads.size()];
    for (WorkloadLoad l : this.loads) {
      namespaces.add(l.namespace());
      stateOfLoad.put(l, byTarget.computeIfAbsent(l.target(), WorkloadState::new));
      if (l.memoryPerRequest() > 0) {
        memoryLoads.putIfAbsent(l.target(), l);
      }
    }
    String rv = store.resourceVersion();
    this.replicaSets = store.watch(ReplicaSet.class, rv, e -> onReplicaSet(e.type(), e.object()));
    this.podWatch = store.watch(Pod.class, rv, e -> onPod(e.type(), e.object()));
  }

  /** Stops following the store. */
  public void close() {
    replicaSets.close();
    podWatch.close();
  }

  /** Requests/s on {@code load} now. */
  public double rate(WorkloadLoad load) {
    return load.pattern().rateAt(Duration.between(start, clock.now()));
  }

  /**
   * The requests/s {@code load}'s serving pods can take now, as the pods are (not as this instant's first read saw
   * them): each serving pod's own CPU request (a pod made from an older template, or resized, keeps its own) over the
   * load's {@code cpuPerRequest} (infinite when requests cost no CPU; 0 while the workload has no pod). Computed again
   * only when the serving pods changed.
   */
  public double capacity(WorkloadLoad load) {
    if (load.cpuMilliPerRequest() == 0) {
      return Double.POSITIVE_INFINITY;
    }
    if (regroup) {
      group(); // an open snapshot froze every workload when the grouping changed: its reads keep their answers
    }
    WorkloadState state = state(load);
    LivePods pods = livePods(state);
    if (pods == null) {
      return 0;
    }
    // the serving pods' stamp changes with them: the capacity is computed again only then, from their requests'
    // sum, which the pods kept up to date as each came
    if (state.capacityOf != pods.servingStamp) {
      state.capacityOf = pods.servingStamp;
      state.capacity = pods.servingMilliCpu() / (double) load.cpuMilliPerRequest();
    }
    return state.capacity;
  }

  /**
   * The working set now, in bytes, of the container named {@code container} of {@code pod} (a kubelet's copy of it):
   * for a pod that serves ({@link #serving(Pod)}, on a node that has not failed) of a workload whose load has a
   * {@code memoryPerRequest}, its share of the load's memory, {@code rate × memoryPerRequest / serving pods}, in its
   * first container (the one the resource metrics report); 0 otherwise. What the simulated kubelets' OOM killer and
   * eviction manager read ({@link io.fleetkit.reconcile.node.MemoryUsage}).
   */
  public long memoryUsage(Pod pod, String container) {
    if (memoryLoads.isEmpty() || pod.spec().containers().isEmpty()
        || !pod.spec().containers().get(0).name().equals(container) || !serves(pod)) {
      return 0;
    }
    if (regroup) {
      group(); // an open snapshot froze every workload when the grouping changed: its reads keep their answers
    }
    String workload = workloadOfPod.get(pod.metadata().uid());
    WorkloadLoad load = workload == null ? null : memoryLoads.get(workload);
    LivePods pods = load == null ? null : live.get(workload);
    int serving = pods == null ? 0 : pods.servingCount();
    return serving == 0 ? 0 : Math.round(rate(load) * load.memoryPerRequest() / serving);
  }

  /**
   * Node {@code node} failed ({@code down}: its kubelet stopped) or came back (or was deleted, so that its name is
   * free): from now on its pods serve nothing, or serve again as their status says. The capacities and
   * {@link #servingEpoch} change at this instant; the HPA reads of this instant made before keep their answers.
   */
  public void nodeDown(String node, boolean down) {
    Objects.requireNonNull(node, "node");
    if (!(down ? downNodes.add(node) : downNodes.remove(node)) || regroup) {
      return; // no change, or the next grouping reads every pod anew
    }
    for (Map.Entry<String, LivePods> e : live.entrySet()) {
      LivePods pods = e.getValue();
      List<Pod> on = new ArrayList<>();
      for (Pod p : pods.list()) {
        if (node.equals(p.spec().nodeName())) {
          on.add(p);
        }
      }
      if (on.isEmpty()) {
        continue;
      }
      freeze(e.getKey());
      Object serving = pods.servingStamp;
      for (Pod p : on) {
        pods.put(p); // serving again, or not, as the node is now
      }
      if (pods.servingStamp != serving) {
        servingEpoch++;
      }
    }
  }

  /**
   * A number that changes whenever any workload's serving pods may have changed: while it stays, every
   * {@link #capacity} stays.
   */
  long servingEpoch() {
    return servingEpoch;
  }

  /** The selector of the workload {@code load} targets, if it exists. */
  public Optional<LabelSelector> selector(WorkloadLoad load) {
    if (load.kind().equals(StatefulSet.KIND)) {
      return store.get(StatefulSet.class, load.namespace(), load.name()).map(s -> s.spec().selector());
    }
    if (load.kind().equals(Rollout.KIND)) {
      return store.get(Rollout.class, load.namespace(), load.name()).map(r -> r.spec().selector());
    }
    return store.get(Deployment.class, load.namespace(), load.name()).map(d -> d.spec().selector());
  }

  private @Nullable WorkloadLoad loadFor(String namespace, LabelSelector selector) {
    return loadOf(namespace, selector).load();
  }

  /** The load of the workload {@code selector} selects in {@code namespace}, with what is kept for it. */
  private LoadOf loadOf(String namespace, LabelSelector selector) {
    podsOf(null); // the per-instant snapshot, with the loads by selector
    // the HPA asks with its target's selector, the same instance at every sync: found by reference while the
    // loads by selector are the same map
    LoadOf last = loadsByInstance.get(selector);
    if (last != null && last.namespace().equals(namespace)) {
      return last;
    }
    WorkloadLoad load = loadsBySelector.get(new SelectorKey(namespace, selector));
    if (loadsByInstance.size() > 2 * loads.size() + 16) { // callers that build a selector per call
      loadsByInstance.clear();
    }
    LoadOf of = new LoadOf(namespace, load, load == null ? null : state(load));
    loadsByInstance.put(selector, of);
    return of;
  }

  /**
   * What {@link #loadOf} found for a selector instance in a namespace (the load may be null: none), with the
   * load's {@link WorkloadState}.
   */
  private record LoadOf(String namespace, @Nullable WorkloadLoad load, @Nullable WorkloadState state) {}

  @Override
  public List<PodResourceMetrics> podResourceMetrics(String namespace, LabelSelector selector, String resource) {
    WorkloadLoad load = loadFor(namespace, selector);
    Object pods = load != null ? stateOf(load) : store.list(Pod.class, namespace, selector).items();
    double total = 0;
    if (load != null) {
      double perRequest = resource.equals("memory") ? load.memoryPerRequest() * 1000 : load.cpuMilliPerRequest();
      total = rate(load) * perRequest;
    }
    Serving serving = serving(load, pods, selector);
    int ready = serving.pods().size();
    Instant now = clock.now();
    List<PodResourceMetrics> out = new ArrayList<>(ready);
    for (int i = 0; i < ready; i++) {
      String container = serving.containers()[i];
      if (container == null) {
        continue;
      }
      long milli = Math.round(total / ready);
      out.add(new PodResourceMetrics(serving.names()[i], now, WINDOW, usage(container, milli)));
    }
    return out;
  }

  /** One container's usage, the same list as last time when it is the same. */
  private List<ContainerUsage> usage(String container, long milli) {
    List<ContainerUsage> last = lastUsage;
    if (last != null && last.get(0).milliValue() == milli && last.get(0).name().equals(container)) {
      return last;
    }
    last = List.of(new ContainerUsage(container, milli));
    lastUsage = last;
    return last;
  }

  /**
   * The serving pods (the same list while they are unchanged) and the load's total usage now: what
   * {@link #podResourceMetrics} spreads. Null for a workload without load (its pods are listed afresh each time).
   */
  @Override
  public @Nullable Object resourceMetricsVersion(String namespace, LabelSelector selector, String resource) {
    LoadOf of = loadOf(namespace, selector);
    WorkloadLoad load = of.load();
    WorkloadState state = of.state();
    if (load == null || state == null) {
      return null;
    }
    List<Pod> pods = serving(state, stateOf(state), selector).pods();
    double total = total(load, state, resource);
    Version last = state.version;
    if (last != null && last.pods == pods && Double.compare(last.total, total) == 0) {
      return last;
    }
    Version v = new Version(pods, total);
    state.version = v;
    return v;
  }

  /** {@code load}'s total usage of {@code resource} now: its rate times the per-request cost. */
  private double total(WorkloadLoad load, WorkloadState state, String resource) {
    Instant now = clock.now();
    if (now.equals(state.totalAt) && resource.equals(state.totalResource)) {
      return state.total;
    }
    double perRequest = resource.equals("memory") ? load.memoryPerRequest() * 1000 : load.cpuMilliPerRequest();
    double total = rate(load) * perRequest;
    state.totalAt = now;
    state.totalResource = resource;
    state.total = total;
    return total;
  }

  /** {@code live.get(state.target)}, looked up again only when workloads were put in or taken out since. */
  private @Nullable LivePods livePods(WorkloadState state) {
    if (state.liveEpoch != liveEpoch) {
      state.livePods = live.get(state.target);
      state.liveEpoch = liveEpoch;
    }
    return state.livePods;
  }

  /** What is kept for {@code load}'s workload. */
  private WorkloadState state(WorkloadLoad load) {
    WorkloadState s = stateOfLoad.get(load);
    if (s == null) { // a load equal to one given, or another: found by its workload
      s = byTarget.computeIfAbsent(load.target(), WorkloadState::new);
      if (stateOfLoad.size() < 2 * loads.size() + 16) {
        stateOfLoad.put(load, s);
      }
    }
    return s;
  }

  private String target(WorkloadLoad load) {
    return state(load).target;
  }

  /** A {@link #resourceMetricsVersion}: equal when the pod list is the same instance and the total the same. */
  private record Version(List<Pod> pods, double total) {
    @Override
    public boolean equals(Object o) {
      return o instanceof Version v && v.pods == pods && Double.compare(v.total, total) == 0;
    }

    @Override
    public int hashCode() {
      return System.identityHashCode(pods) * 31 + Double.hashCode(total);
    }
  }

  /** Drops the per-instant snapshot, so that the next read sees the pods as they are now. */
  public void refresh() {
    closeSnapshot();
  }

  /**
   * The serving pods {@code selector} matches among {@code pods}: {@code load}'s workload's as the snapshot sees
   * them ({@link #stateOf}), or a list of the store's.
   */
  private Serving serving(@Nullable WorkloadLoad load, Object pods, LabelSelector selector) {
    return serving(load == null ? null : state(load), pods, selector);
  }

  private Serving serving(@Nullable WorkloadState state, Object pods, LabelSelector selector) {
    Serving cached = state == null ? null : state.serving;
    if (cached != null && cached.from() == pods
        && (cached.selector() == selector || cached.selector().equals(selector))) {
      return cached;
    }
    Serving made;
    if (pods instanceof List<?> list) {
      List<Pod> out = new ArrayList<>();
      for (Object o : list) {
        Pod p = (Pod) o;
        if (serves(p) && selector.matches(p.metadata().labels())) {
          out.add(p);
        }
      }
      made = Serving.of(pods, selector, out);
    } else { // the workload's pods now: the serving ones are kept apart, with what is reported of them
      LivePods livePods = Objects.requireNonNull(livePods(Objects.requireNonNull(state)));
      if (selector != livePods.selector && !selector.equals(livePods.selector)) {
        livePods.selector = selector;
      }
      selector = Objects.requireNonNull(livePods.selector); // one instance: a pod's match is checked by reference
      if (cached != null && cached.servingStamp() == livePods.servingStamp && cached.selector() == selector) {
        // only pods that do not serve changed (a creation, a binding): the same serving pods
        made = new Serving(pods, selector, cached.pods(), cached.names(), cached.containers(), livePods.servingStamp);
        state.serving = made;
        return made;
      }
      int size = livePods.servingCount();
      Pod[] out = new Pod[size];
      String[] names = new String[size];
      String[] containers = new String[size];
      // a walk of arrays by place (this method is compiled early: it answers every read, mostly from its cache)
      livePods.match(selector);
      int n = 0;
      for (int i = 0, places = livePods.size(); i < places; i++) {
        Pod p = livePods.matchingAt(i);
        if (p != null) {
          out[n] = p;
          names[n] = livePods.nameAt(i);
          containers[n++] = livePods.containerAt(i);
        }
      }
      made = n == size ? new Serving(pods, selector, Arrays.asList(out), names, containers, livePods.servingStamp)
          : new Serving(pods, selector, Arrays.asList(Arrays.copyOf(out, n)), Arrays.copyOf(names, n),
              Arrays.copyOf(containers, n), livePods.servingStamp);
    }
    if (state != null) {
      state.serving = made;
    }
    return made;
  }

  /**
   * What {@code load}'s workload's pods are as this instant's snapshot sees them: the list frozen when they changed
   * after it was opened, else the stamp of their current state (a new one at every change).
   */
  private Object stateOf(WorkloadLoad load) {
    podsOf(null);
    return stateOf(state(load));
  }

  /** {@link #stateOf(WorkloadLoad)} once the snapshot is open. */
  private Object stateOf(WorkloadState state) {
    if (allFrozen || !frozen.isEmpty()) {
      List<Pod> f = frozen.get(state.target);
      if (f != null || allFrozen) {
        return f != null ? f : List.of();
      }
    }
    LivePods livePods = livePods(state);
    return livePods == null ? List.of() : livePods.stamp;
  }

  /** How many pods of {@code load}'s workload serve traffic now. */
  public int servingPods(WorkloadLoad load) {
    Object now = stateOf(load);
    WorkloadState state = state(load);
    if (!(now instanceof List<?>)) {
      return Objects.requireNonNull(live.get(state.target)).servingCount();
    }
    List<Pod> pods = podsOf(load);
    ServingCount cached = state.count;
    if (cached != null && cached.from() == pods) { // the same list: the same pods, unchanged
      return cached.count();
    }
    int n = 0;
    for (Pod p : pods) {
      if (serves(p)) {
        n++;
      }
    }
    state.count = new ServingCount(pods, n);
    return n;
  }

  /**
   * The pods of {@code load}'s workload as they were at the first read of this simulated instant, grouped by their
   * controller (a Deployment's through its ReplicaSets). Pods change only when the workload controllers run, after
   * the HPA in the same instant, so the snapshot is what every HPA of that instant would have read. The grouping is
   * kept from the pod and ReplicaSet watches (a workload whose pods change after the snapshot was opened keeps its
   * pods as they were for the rest of the instant), not rebuilt from a list of the namespace per instant.
   */
  private List<Pod> podsOf(@Nullable WorkloadLoad load) {
    Instant now = clock.now();
    if (!now.equals(snapshotAt)) {
      closeSnapshot();
      if (regroup) {
        group();
      }
      // the loads' workloads' selectors now; the map is rebuilt only when one of them is another instance
      boolean same = true;
      for (int i = 0; i < loads.size(); i++) {
        LabelSelector s = selector(loads.get(i)).orElse(null);
        if (s != loadSelectors[i]) {
          loadSelectors[i] = s;
          same = false;
        }
      }
      if (!same) {
        Map<SelectorKey, WorkloadLoad> bySelector = new HashMap<>();
        for (int i = 0; i < loads.size(); i++) {
          LabelSelector s = loadSelectors[i];
          if (s != null) {
            bySelector.putIfAbsent(new SelectorKey(loads.get(i).namespace(), s), loads.get(i));
          }
        }
        loadsBySelector = bySelector;
        loadsByInstance.clear();
      }
      snapshotAt = now;
    }
    if (load == null) {
      return List.of();
    }
    String w = target(load);
    List<Pod> f = frozen.get(w);
    if (f != null || allFrozen) {
      return f != null ? f : List.of();
    }
    return listOf(w);
  }

  private void closeSnapshot() {
    snapshotAt = null;
    frozen.clear();
    allFrozen = false;
  }

  private List<Pod> listOf(String workload) {
    LivePods pods = live.get(workload);
    return pods == null ? List.of() : pods.list();
  }

  /**
   * Whether a snapshot is open at this instant. One opened at an earlier instant is closed first: the next read
   * (at a later instant) would close it before looking, so what it froze could never be read.
   */
  private boolean snapshotOpen() {
    if (snapshotAt != null && !snapshotAt.equals(clock.now())) {
      closeSnapshot();
    }
    return snapshotAt != null;
  }

  /** Before {@code workload}'s pods change: an open snapshot keeps what it saw. */
  private void freeze(String workload) {
    if (snapshotOpen() && !allFrozen && !frozen.containsKey(workload)) {
      List<Pod> now = listOf(workload);
      frozen.put(workload, now);
      LivePods livePods = live.get(workload);
      WorkloadState state = byTarget.get(workload);
      Serving read = state == null ? null : state.serving;
      if (livePods != null && read != null && read.from() == livePods.stamp) { // what was read stays the answer
        state.serving = new Serving(now, read.selector(), read.pods(), read.names(), read.containers(), null);
      }
    }
  }

  /** Regroups every pod of the loads' namespaces from the store. */
  private void group() {
    regroup = false;
    servingEpoch++;
    live.clear();
    liveEpoch++;
    workloadOfPod.clear();
    workloadOfReplicaSet.clear();
    for (String ns : namespaces) {
      for (ReplicaSet rs : store.list(ReplicaSet.class, ns).items()) {
        String w = workloadOf(rs);
        if (w != null) {
          workloadOfReplicaSet.put(rs.metadata().uid(), w);
        }
      }
      for (Pod p : store.list(Pod.class, ns).items()) {
        put(p);
      }
    }
  }

  private static @Nullable String workloadOf(ReplicaSet rs) {
    OwnerReference ref = rs.metadata().controllerRef();
    return ref != null && (ref.kind().equals(Deployment.KIND) || ref.kind().equals(Rollout.KIND))
        ? ref.kind() + "/" + rs.metadata().namespace() + "/" + ref.name() : null;
  }

  private void onReplicaSet(WatchEventType type, ReplicaSet rs) {
    if (regroup || !namespaces.contains(rs.metadata().namespace())) {
      return;
    }
    String w = type == WatchEventType.DELETED ? null : workloadOf(rs);
    if (!Objects.equals(w, workloadOfReplicaSet.get(rs.metadata().uid()))) {
      if (snapshotOpen() && !allFrozen) { // the open snapshot keeps every workload as it was
        for (String k : live.keySet()) {
          freeze(k);
        }
        allFrozen = true;
      }
      regroup = true;
      servingEpoch++;
    }
  }

  private void onPod(WatchEventType type, Pod p) {
    if (regroup || !namespaces.contains(p.metadata().namespace())) {
      return;
    }
    String key = p.metadata().uid();
    String old = workloadOfPod.get(key);
    if (old != null && type != WatchEventType.DELETED && old.equals(workloadOf(p))) {
      freeze(old); // stays in its workload (a status write, a binding): replaced in place
      LivePods pods = live.get(old);
      Object serving = pods.servingStamp;
      pods.put(p);
      if (pods.servingStamp != serving) {
        servingEpoch++;
      }
      return;
    }
    workloadOfPod.remove(key);
    if (old != null) {
      freeze(old);
      LivePods pods = live.get(old);
      Object serving = pods.servingStamp;
      pods.remove(p.metadata().name());
      if (pods.servingStamp != serving) {
        servingEpoch++;
      }
      if (pods.isEmpty()) {
        live.remove(old);
        liveEpoch++;
      }
    }
    if (type != WatchEventType.DELETED) {
      put(p);
    }
  }

  private void put(Pod p) {
    String w = workloadOf(p);
    if (w != null) {
      freeze(w);
      LivePods pods = live.get(w);
      if (pods == null) {
        pods = new LivePods(this::serves);
        live.put(w, pods);
        liveEpoch++;
      }
      Object serving = pods.servingStamp;
      pods.put(p);
      if (pods.servingStamp != serving) {
        servingEpoch++;
      }
      workloadOfPod.put(p.metadata().uid(), w);
    }
  }

  /**
   * The workload {@code p} is grouped under: its StatefulSet, or its ReplicaSet's Deployment or Rollout; null for
   * none.
   */
  private @Nullable String workloadOf(Pod p) {
    OwnerReference ref = p.metadata().controllerRef();
    if (ref == null) {
      return null;
    }
    return ref.kind().equals("StatefulSet") ? "StatefulSet/" + p.metadata().namespace() + "/" + ref.name()
        : workloadOfReplicaSet.get(ref.uid());
  }

  /** Whether {@code p}'s status says it takes traffic: running, ready and not being deleted. */
  static boolean serving(Pod p) {
    return p.status().phase() == PodPhase.Running && p.metadata().deletionTimestamp() == null && p.isReady();
  }

  /** Whether {@code p} takes traffic now: {@link #serving(Pod)} on a node that has not failed. */
  private boolean serves(Pod p) {
    return serving(p) && (downNodes.isEmpty() || !downNodes.contains(p.spec().nodeName()));
  }
}
