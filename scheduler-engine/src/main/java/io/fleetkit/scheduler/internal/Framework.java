package io.fleetkit.scheduler.internal;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.metrics.MetricsRegistry;
import io.fleetkit.api.framework.BindPlugin;
import io.fleetkit.api.framework.Binder;
import io.fleetkit.api.framework.ClusterEvent;
import io.fleetkit.api.framework.CycleState;
import io.fleetkit.api.framework.EnqueueExtensions;
import io.fleetkit.api.framework.ExtensionPoint;
import io.fleetkit.api.framework.FilterPlugin;
import io.fleetkit.api.framework.FrameworkHandle;
import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.framework.NodeInfos;
import io.fleetkit.api.framework.NodeToStatus;
import io.fleetkit.api.framework.PermitPlugin;
import io.fleetkit.api.framework.PermitResult;
import io.fleetkit.api.framework.Plugin;
import io.fleetkit.api.framework.PluginFactory;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.framework.PostBindPlugin;
import io.fleetkit.api.framework.PostFilterPlugin;
import io.fleetkit.api.framework.PostFilterResult;
import io.fleetkit.api.framework.PreBindPlugin;
import io.fleetkit.api.framework.PreEnqueuePlugin;
import io.fleetkit.api.framework.PreFilterPlugin;
import io.fleetkit.api.framework.PreFilterResult;
import io.fleetkit.api.framework.PreScorePlugin;
import io.fleetkit.api.framework.QueueSortPlugin;
import io.fleetkit.api.framework.ReservePlugin;
import io.fleetkit.api.framework.SchedulerProfile;
import io.fleetkit.api.framework.ScorePlugin;
import io.fleetkit.api.framework.Snapshot;
import io.fleetkit.api.framework.Status;
import io.fleetkit.scheduler.nodetable.NodeTable;
import io.fleetkit.scheduler.nodetable.TableFilter;
import io.fleetkit.scheduler.nodetable.TableScore;
import io.fleetkit.api.framework.WaitingPods;
import io.fleetkit.scheduler.PluginRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntFunction;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One profile's runtime, kube's {@code frameworkImpl} ({@code pkg/scheduler/framework/runtime/framework.go}): its
 * plugins sorted into an array per extension point, once, by {@link SchedulerProfile#pluginsAt} (a multiPoint plugin
 * joins every point it implements unless disabled there, and a point's own enabled plugins come first, as kube's
 * {@code expandMultiPointPlugins}), the score weights, the {@link FrameworkHandle} its plugins were created with, and one
 * {@code run<Point>} method per extension point. Every run method attributes its outcome to the plugin that decided
 * it ({@link Status#plugin()}), and turns a plugin's exception into an {@link Status.Code#ERROR} status naming the
 * plugin and the point; no exception from a plugin leaves this class.
 *
 * <p>Confined to the scheduling thread (the scheduler's cycle lock), except {@link #runFilter} and the Score fan-out,
 * which the scheduler's worker threads run in parallel on distinct nodes.
 */
public final class Framework implements FrameworkHandle {
  private static final Logger LOG = LoggerFactory.getLogger(Framework.class);
  /** kube's {@code maxTimeout} for Permit waits. */
  private static final long MAX_PERMIT_WAIT_NANOS = Duration.ofMinutes(15).toNanos();

  private final String schedulerName;
  private final @Nullable Integer percentageOfNodesToScore;
  private final SchedulerProfile profile;
  private final Clock clock;
  private final ClusterSnapshot snapshot;
  private final WaitingPods waitingPods;
  private final ClusterObjects objects;
  /** The scheduler's binder, or a refusing one ({@link #binder()}). */
  private final Binder binder;
  /** Where {@link #activate} goes; connected by the scheduler, which builds its queue after the frameworks. */
  private volatile java.util.function.Consumer<List<String>> activator = keys -> { };
  private java.util.function.@Nullable Function<String, @Nullable List<PodInfo>> nominatedPods;

  final QueueSortPlugin queueSort;
  private final String queueSortName;
  private final PreEnqueuePlugin[] preEnqueue;
  private final String[] preEnqueueNames;
  private final PreFilterPlugin[] preFilter;
  private final String[] preFilterNames;
  /** For each PreFilter plugin, the index of the same plugin in {@link #filter}, or -1. */
  private final int[] preFilterToFilter;
  private final FilterPlugin[] filter;
  /** {@link #filter}'s fast paths over the node table, null where a plugin has none. */
  private final TableFilter[] tableFilter;
  private final String[] filterNames;
  private final PostFilterPlugin[] postFilter;
  private final String[] postFilterNames;
  private final PreScorePlugin[] preScore;
  private final String[] preScoreNames;
  private final int[] preScoreToScore;
  private final ScorePlugin[] score;
  /**
   * Per Score plugin, whether it has a NormalizeScore of its own (kube's {@code ScoreExtensions() != nil}): only those
   * run (and are timed) at {@code ScoreExtensionNormalize}, as kube's {@code RunScorePlugins} skips the others.
   */
  private final boolean[] scoreNormalizes;
  /** {@link #score}'s fast paths over the node table, null where a plugin has none. */
  private final TableScore[] tableScore;
  private final String[] scoreNames;
  private final long[] scoreWeights;
  private final ReservePlugin[] reserve;
  private final String[] reserveNames;
  private final PermitPlugin[] permit;
  private final String[] permitNames;
  private final PreBindPlugin[] preBind;
  private final String[] preBindNames;
  private final BindPlugin[] bind;
  private final String[] bindNames;
  private final PostBindPlugin[] postBind;
  private final String[] postBindNames;
  /** Events each plugin registered; plugins absent from the map register every event. */
  private final Map<String, Set<ClusterEvent>> registeredEvents = new HashMap<>();
  /** The plugins that registered events, in the profile's order, for their per-pod queueing hints. */
  private final Map<String, EnqueueExtensions> enqueueExtensions = new LinkedHashMap<>();
  /** Score buffers, one per Score plugin, reused across cycles. */
  private long[][] scoreBufs;
  /** Per Score plugin, its scores kept across cycles ({@link TableScore#scoreKey}); null for plugins without a key. */
  private final @Nullable ScoreCache[] scoreCaches;
  /** This cycle's cache slot per Score plugin; null where the plugin gave no key. Written before the fan-out. */
  private final ScoreCache.@Nullable Slot[] cycleSlots;
  /**
   * The cached, non-normalising Score plugins' weighted sum kept across cycles; null when turned off
   * ({@link #cacheScoreSums}), and then every plugin is scored and weighed on its own.
   */
  private @Nullable CachedScoreSum cachedSum = new CachedScoreSum();
  /** Scratch for {@link CachedScoreSum#prepare}: per Score plugin, whether it is summed (or skipped) this cycle. */
  private final boolean[] sumMembers;
  /**
   * Whether Score leaves out the plugins whose normalised score is {@link TableScore#uniformScore uniform} this cycle
   * (adding their weighted value to every total instead); on by default. For tests comparing the two ways.
   */
  private boolean skipUniformScores = true;
  /** Scratch for {@link #markUniform}: per Score plugin, whether it is skipped or uniform this cycle. */
  private final boolean[] uniformOrSkipped;
  /** What {@link #markUniform} found: the uniform plugins' weighted scores, summed. */
  private long uniformOffset;
  /** Whether the last successful {@link #runScore} knows the highest of its totals, and that total. */
  private boolean totalsMaxKnown;
  private long totalsMax;
  /** Scratch for {@link ScoreCache.Slot#scoreAll}: the positions, nodes and scores of the nodes not kept. */
  private int[] missPos = new int[0];
  private int[] missNodes = new int[0];
  private long[] missOut = new long[0];
  /** The first Score error of the running cycle; reused across cycles (set by the fan-out's threads). */
  private final AtomicReference<Status> scoreError = new AtomicReference<>();
  /** Plugin execution durations; null unless a metrics registry was given. */
  private @Nullable PluginTimings timings;
  /** See {@link Prefetch}; never read. */
  @SuppressWarnings("unused")
  private int prefetchSink;

  Framework(SchedulerProfile profile, PluginRegistry registry, Clock clock, ClusterSnapshot snapshot,
      WaitingPods waitingPods, ClusterObjects objects) {
    this(profile, registry, clock, snapshot, waitingPods, objects, null);
  }

  /**
   * @param binder the scheduler's binder, which {@link #binder()} gives the plugins (the DefaultBinder plugin binds
   *     through it); {@code null} for a framework that cannot bind (then {@link FrameworkHandle}'s refusing default)
   */
  Framework(SchedulerProfile profile, PluginRegistry registry, Clock clock, ClusterSnapshot snapshot,
      WaitingPods waitingPods, ClusterObjects objects, @Nullable Binder binder) {
    this.profile = profile;
    this.schedulerName = profile.schedulerName();
    this.percentageOfNodesToScore = profile.percentageOfNodesToScore();
    this.clock = clock;
    this.snapshot = snapshot;
    this.waitingPods = waitingPods;
    this.objects = objects;
    this.binder = binder != null ? binder : FrameworkHandle.super.binder();

    // Every plugin the profile names, created once: its multiPoint plugins, then those enabled at some point only.
    Map<String, Plugin> created = new LinkedHashMap<>();
    List<String> toCreate = new ArrayList<>();
    profile.plugins().forEach(r -> toCreate.add(r.name()));
    for (ExtensionPoint point : ExtensionPoint.values()) {
      profile.pointPlugins(point).enabled().forEach(r -> toCreate.add(r.name()));
    }
    for (String name : toCreate) {
      if (created.containsKey(name)) {
        continue;
      }
      PluginFactory f = registry.factory(name);
      if (f == null) {
        throw new IllegalArgumentException("profile " + schedulerName + ": plugin \"" + name
            + "\" is not registered; registered plugins: " + registry.names());
      }
      Plugin p = f.create(this);
      if (p == null) {
        throw new IllegalArgumentException("profile " + schedulerName + ": the factory of plugin \"" + name
            + "\" returned null");
      }
      created.put(name, p);
      if (p instanceof EnqueueExtensions x) {
        registeredEvents.put(name, registered(x.eventsToRegister()));
        enqueueExtensions.put(name, x);
      }
    }
    // The plugins of each point, in kube's order (SchedulerProfile#pluginsAt), built once: the cycle reads arrays.
    EnumMap<ExtensionPoint, List<SchedulerProfile.PluginRef>> at = new EnumMap<>(ExtensionPoint.class);
    for (ExtensionPoint point : ExtensionPoint.values()) {
      at.put(point, profile.pluginsAt(point, name -> point.isImplementedBy(created.get(name))));
    }
    List<SchedulerProfile.PluginRef> sorts = at.get(ExtensionPoint.QUEUE_SORT);
    if (sorts.size() != 1) {
      throw new IllegalArgumentException("profile " + schedulerName + ": exactly one QueueSort plugin is required, "
          + "found " + sorts.size() + " " + sorts.stream().map(SchedulerProfile.PluginRef::name).toList());
    }
    queueSortName = sorts.get(0).name();
    queueSort = (QueueSortPlugin) created.get(queueSortName);
    preEnqueue = pluginsAt(created, at.get(ExtensionPoint.PRE_ENQUEUE), PreEnqueuePlugin[]::new);
    preEnqueueNames = namesAt(at.get(ExtensionPoint.PRE_ENQUEUE));
    preFilter = pluginsAt(created, at.get(ExtensionPoint.PRE_FILTER), PreFilterPlugin[]::new);
    preFilterNames = namesAt(at.get(ExtensionPoint.PRE_FILTER));
    filter = pluginsAt(created, at.get(ExtensionPoint.FILTER), FilterPlugin[]::new);
    tableFilter = Arrays.stream(filter).map(p -> p instanceof TableFilter t ? t : null).toArray(TableFilter[]::new);
    filterNames = namesAt(at.get(ExtensionPoint.FILTER));
    failedAtScratch = new int[filter.length];
    filterNanosScratch = new long[filter.length];
    postFilter = pluginsAt(created, at.get(ExtensionPoint.POST_FILTER), PostFilterPlugin[]::new);
    postFilterNames = namesAt(at.get(ExtensionPoint.POST_FILTER));
    preScore = pluginsAt(created, at.get(ExtensionPoint.PRE_SCORE), PreScorePlugin[]::new);
    preScoreNames = namesAt(at.get(ExtensionPoint.PRE_SCORE));
    List<SchedulerProfile.PluginRef> scoring = at.get(ExtensionPoint.SCORE);
    score = pluginsAt(created, scoring, ScorePlugin[]::new);
    scoreNanosScratch = new long[score.length];
    scoreFailedScratch = new boolean[score.length];
    tableScore = Arrays.stream(score).map(p -> p instanceof TableScore t ? t : null).toArray(TableScore[]::new);
    scoreNames = namesAt(scoring);
    scoreNormalizes = new boolean[score.length];
    for (int i = 0; i < score.length; i++) {
      scoreNormalizes[i] = hasNormalizeScore(score[i]);
    }
    scoreWeights = new long[score.length];
    for (int i = 0; i < score.length; i++) {
      // kube's NewFramework / getScoreWeights: "a weight of zero is not permitted", a Score plugin's 0 counts as 1
      scoreWeights[i] = Math.max(1, scoring.get(i).weight());
    }
    scoreBufs = new long[score.length][];
    scoreCaches = Arrays.stream(tableScore).map(t -> t == null ? null : new ScoreCache()).toArray(ScoreCache[]::new);
    cycleSlots = new ScoreCache.Slot[score.length];
    sumMembers = new boolean[score.length];
    uniformOrSkipped = new boolean[score.length];
    reserve = pluginsAt(created, at.get(ExtensionPoint.RESERVE), ReservePlugin[]::new);
    reserveNames = namesAt(at.get(ExtensionPoint.RESERVE));
    permit = pluginsAt(created, at.get(ExtensionPoint.PERMIT), PermitPlugin[]::new);
    permitNames = namesAt(at.get(ExtensionPoint.PERMIT));
    preBind = pluginsAt(created, at.get(ExtensionPoint.PRE_BIND), PreBindPlugin[]::new);
    preBindNames = namesAt(at.get(ExtensionPoint.PRE_BIND));
    bind = pluginsAt(created, at.get(ExtensionPoint.BIND), BindPlugin[]::new);
    bindNames = namesAt(at.get(ExtensionPoint.BIND));
    postBind = pluginsAt(created, at.get(ExtensionPoint.POST_BIND), PostBindPlugin[]::new);
    postBindNames = namesAt(at.get(ExtensionPoint.POST_BIND));
    preFilterToFilter = crossIndex(preFilter, filter);
    preScoreToScore = crossIndex(preScore, score);
  }

  private static <T> T[] pluginsAt(Map<String, Plugin> created, List<SchedulerProfile.PluginRef> refs,
      IntFunction<T[]> array) {
    T[] out = array.apply(refs.size());
    for (int i = 0; i < out.length; i++) {
      @SuppressWarnings("unchecked")
      T p = (T) created.get(refs.get(i).name());
      out[i] = p;
    }
    return out;
  }

  private static String[] namesAt(List<SchedulerProfile.PluginRef> refs) {
    return refs.stream().map(SchedulerProfile.PluginRef::name).toArray(String[]::new);
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

  String schedulerName() {
    return schedulerName;
  }

  /** The names of the plugins that run at {@code point}, in the order they run (kube's {@code ListPlugins}). */
  List<String> pluginNamesAt(ExtensionPoint point) {
    String[] names = switch (point) {
      case PRE_ENQUEUE -> preEnqueueNames;
      case QUEUE_SORT -> new String[] {queueSortName};
      case PRE_FILTER -> preFilterNames;
      case FILTER -> filterNames;
      case POST_FILTER -> postFilterNames;
      case PRE_SCORE -> preScoreNames;
      case SCORE -> scoreNames;
      case RESERVE -> reserveNames;
      case PERMIT -> permitNames;
      case PRE_BIND -> preBindNames;
      case BIND -> bindNames;
      case POST_BIND -> postBindNames;
    };
    return List.of(names);
  }

  /** The score weights, in the order of {@link #pluginNamesAt pluginNamesAt(SCORE)}. */
  long[] scoreWeights() {
    return scoreWeights.clone();
  }

  /**
   * Records {@code scheduler_plugin_execution_duration_seconds} into {@code metrics} from now on (sampled), holding
   * the observations made under the engine lock in {@code buffer} (which the scheduler flushes).
   */
  void recordPluginDurations(MetricsRegistry metrics, ObservationBuffer buffer) {
    String[][] names = new String[PluginTimings.Point.values().length][];
    for (PluginTimings.Point p : PluginTimings.Point.values()) {
      names[p.ordinal()] = switch (p) {
        case PRE_ENQUEUE -> preEnqueueNames;
        case PRE_FILTER -> preFilterNames;
        case FILTER -> filterNames;
        case POST_FILTER -> postFilterNames;
        case PRE_SCORE -> preScoreNames;
        case SCORE, NORMALIZE_SCORE -> scoreNames;
        case RESERVE, UNRESERVE -> reserveNames;
        case PERMIT -> permitNames;
        case PRE_BIND -> preBindNames;
        case BIND -> bindNames;
        case POST_BIND -> postBindNames;
      };
    }
    timings = new PluginTimings(metrics, names, buffer);
  }

  /** {@code scheduler_plugin_evaluation_total}'s extension points, in the order of {@link #evaluations}. */
  private static final String[] EVALUATED = {"PreFilter", "Filter", "PreScore", "Score"};

  /**
   * Counts plugin evaluations into {@code scheduler_plugin_evaluation_total} from now on: summed per
   * [PreFilter, Filter, PreScore, Score][plugin] on the scheduling thread and added to the counters by
   * {@link #flushEvaluations()}, so a Filter run over 500 nodes costs one addition per plugin, not 500.
   */
  void countEvaluations(MetricsRegistry metrics) {
    String[][] names = {preFilterNames, filterNames, preScoreNames, scoreNames};
    io.fleetkit.api.metrics.Counter[][] counters = new io.fleetkit.api.metrics.Counter[names.length][];
    long[][] counts = new long[names.length][];
    for (int p = 0; p < names.length; p++) {
      counters[p] = new io.fleetkit.api.metrics.Counter[names[p].length];
      counts[p] = new long[names[p].length];
      for (int i = 0; i < names[p].length; i++) {
        counters[p][i] = metrics.counter(io.fleetkit.scheduler.metrics.SchedulerMetrics.PLUGIN_EVALUATION,
            names[p][i], EVALUATED[p], schedulerName);
      }
    }
    evaluationCounters = counters;
    evaluations = counts;
  }

  /** Per Filter plugin, the nodes it rejected in the last search; reused. */
  private final int[] failedAtScratch;
  /** A sampled cycle's per-plugin durations of a Filter or Score batch run under the engine lock; reused. */
  private final long[] filterNanosScratch;
  private final long[] scoreNanosScratch;
  private final boolean[] scoreFailedScratch;

  /** Pending evaluation counts [point][plugin]; null unless a registry was given. */
  private long @Nullable [][] evaluations;
  private io.fleetkit.api.metrics.Counter @Nullable [][] evaluationCounters;

  /** Adds the evaluations counted since the last flush to their counters. */
  void flushEvaluations() {
    long[][] counts = evaluations;
    if (counts == null) {
      return;
    }
    for (int p = 0; p < counts.length; p++) {
      for (int i = 0; i < counts[p].length; i++) {
        if (counts[p][i] != 0) {
          evaluationCounters[p][i].increment(counts[p][i]);
          counts[p][i] = 0;
        }
      }
    }
  }

  /**
   * A zeroed array of one count per Filter plugin for the search about to be counted (the nodes each plugin
   * rejected), or null when evaluations are not counted (no registry): the search then takes no counting step at all.
   */
  int @Nullable [] filterFailureCounts() {
    if (evaluations == null) {
      return null;
    }
    int[] failedAt = failedAtScratch;
    Arrays.fill(failedAt, 0);
    return failedAt;
  }

  /**
   * Counts the Filter calls of a search that examined {@code processed} nodes, of which plugin {@code j} rejected
   * {@code failedAt[j]} (from {@link #filterFailureCounts()}): plugin {@code j} ran on each node no earlier plugin
   * rejected, unless PreFilter's Skip skipped it.
   */
  void countFilterEvaluations(boolean @Nullable [] skip, int[] failedAt, int processed) {
    long[][] counts = evaluations;
    if (counts == null || processed == 0) {
      return;
    }
    int n = filter.length;
    long reached = processed;
    for (int j = 0; j < n; j++) {
      if (skip == null || !skip[j]) {
        counts[1][j] += reached;
      }
      reached -= failedAt[j];
    }
  }

  /** The timings when {@code state}'s cycle is sampled, else null. */
  private @Nullable PluginTimings timed(CycleState state) {
    PluginTimings t = timings;
    return t != null && state instanceof ArrayCycleState a && a.recordPluginMetrics ? t : null;
  }

  String queueSortName() {
    return queueSortName;
  }

  @Nullable Integer percentageOfNodesToScore() {
    return percentageOfNodesToScore;
  }

  boolean hasFilters() {
    return filter.length > 0;
  }

  int filterCount() {
    return filter.length;
  }

  String filterName(int index) {
    return filterNames[index];
  }

  /**
   * Whether the profile has no plugin at {@code extensionPoint} ({@link SchedulerInstruments#RESERVE},
   * {@link SchedulerInstruments#UNRESERVE}, {@link SchedulerInstruments#PERMIT}, {@link SchedulerInstruments#PRE_BIND}
   * or {@link SchedulerInstruments#POST_BIND}; false for the other points, which run more than their plugins).
   */
  boolean runsNothingAt(int extensionPoint) {
    return switch (extensionPoint) {
      case SchedulerInstruments.RESERVE, SchedulerInstruments.UNRESERVE -> reserve.length == 0;
      case SchedulerInstruments.PERMIT -> permit.length == 0;
      case SchedulerInstruments.PRE_BIND -> preBind.length == 0;
      case SchedulerInstruments.POST_BIND -> postBind.length == 0;
      default -> false;
    };
  }

  boolean hasPostFilters() {
    return postFilter.length > 0;
  }

  /**
   * A plugin's registrations as the queue matches them: {@link ClusterEvent#TARGET_POD_UPDATE} stands for every
   * {@code TARGET_POD_*} event, as upstream's general {@code Update} action matches its specific ones.
   */
  static EnumSet<ClusterEvent> registered(Set<ClusterEvent> events) {
    EnumSet<ClusterEvent> r = events.isEmpty() ? EnumSet.noneOf(ClusterEvent.class) : EnumSet.copyOf(events);
    if (r.contains(ClusterEvent.TARGET_POD_UPDATE)) {
      for (ClusterEvent e : ClusterEvent.values()) {
        if (e.isTargetPodUpdate()) {
          r.add(e);
        }
      }
    }
    return r;
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
   * Whether {@code plugin} registered {@code event}, as upstream matches an event against a gating plugin's
   * {@code GatingPluginEvents}: a plugin that does not implement {@link EnqueueExtensions} (or a name the profile
   * does not know, or none) registers every event.
   */
  boolean pluginRegisters(String plugin, ClusterEvent event) {
    Set<ClusterEvent> events = registeredEvents.get(plugin);
    return events == null || events.contains(event);
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

  /**
   * {@link #movesOn(Set, ClusterEvent)} for an event that carries the changed object: a rejector that registered it
   * is also asked for its per-pod hint ({@link EnqueueExtensions#isSchedulableAfter}).
   */
  boolean movesOn(Set<String> rejectors, ClusterEvent event, Pod pod, @Nullable Object oldObject,
      @Nullable Object newObject) {
    if (rejectors.isEmpty()) {
      return true;
    }
    if (rejectors.size() == 1) {
      String r = rejectors.iterator().next();
      Set<ClusterEvent> events = registeredEvents.get(r);
      return events == null || (events.contains(event)
          && hint(r, enqueueExtensions.get(r), pod, event, oldObject, newObject));
    }
    // The rejectors' hints in the profile's order, as upstream's queueing hint lists; the first Queue answers.
    int enqueueAware = 0;
    for (Map.Entry<String, EnqueueExtensions> e : enqueueExtensions.entrySet()) {
      if (!rejectors.contains(e.getKey())) {
        continue;
      }
      enqueueAware++;
      if (registeredEvents.get(e.getKey()).contains(event)
          && hint(e.getKey(), e.getValue(), pod, event, oldObject, newObject)) {
        return true;
      }
    }
    return enqueueAware < rejectors.size(); // a rejector that registered no events moves on every event
  }

  /** {@link #requeueStrategy}: the event does not help the pod (kube's {@code queueSkip}). */
  static final int REQUEUE_SKIP = 0;
  /** The pod goes to backoffQ, or activeQ if its backoff is over (kube's {@code queueAfterBackoff}). */
  static final int REQUEUE_AFTER_BACKOFF = 1;
  /** The pod goes to activeQ at once (kube's {@code queueImmediately}). */
  static final int REQUEUE_IMMEDIATELY = 2;

  /**
   * Where {@code event} sends a pod rejected by {@code rejectors}, of which {@code pending} answered
   * {@link Status.Code#PENDING}, as kube's {@code isPodWorthRequeuing}: a Queue from a pending plugin (its hint, or,
   * for an event carrying no object or a plugin without hints, its registration) is {@link #REQUEUE_IMMEDIATELY}; a
   * Queue from any other rejector {@link #REQUEUE_AFTER_BACKOFF}; none {@link #REQUEUE_SKIP}. Without pending plugins
   * it is {@link #movesOn} (after backoff or skip).
   *
   * @param hinted whether the event carries the changed object ({@code oldObject}/{@code newObject}) for the hints
   */
  int requeueStrategy(Set<String> rejectors, Set<String> pending, ClusterEvent event, boolean hinted, Pod pod,
      @Nullable Object oldObject, @Nullable Object newObject) {
    if (pending.isEmpty()) {
      boolean moves = hinted ? movesOn(rejectors, event, pod, oldObject, newObject) : movesOn(rejectors, event);
      return moves ? REQUEUE_AFTER_BACKOFF : REQUEUE_SKIP;
    }
    // the rejectors' hints in the profile's order, as upstream's hint lists: a pending plugin's Queue decides at
    // once, another's is remembered while a pending plugin may still answer
    int strategy = REQUEUE_SKIP;
    for (Map.Entry<String, EnqueueExtensions> e : enqueueExtensions.entrySet()) {
      String r = e.getKey();
      if (rejectors.contains(r) && registeredEvents.get(r).contains(event)
          && (!hinted || hint(r, e.getValue(), pod, event, oldObject, newObject))) {
        if (pending.contains(r)) {
          return REQUEUE_IMMEDIATELY;
        }
        strategy = REQUEUE_AFTER_BACKOFF;
      }
    }
    // a rejector without EnqueueExtensions registers every event, its hint upstream's default Queue
    for (String r : rejectors) {
      if (!registeredEvents.containsKey(r)) {
        if (pending.contains(r)) {
          return REQUEUE_IMMEDIATELY;
        }
        strategy = REQUEUE_AFTER_BACKOFF;
      }
    }
    return strategy;
  }

  /** A plugin's queueing hint; one that throws counts as Queue, as upstream treats a hint's error. */
  private static boolean hint(String name, EnqueueExtensions plugin, Pod pod, ClusterEvent event,
      @Nullable Object oldObject, @Nullable Object newObject) {
    try {
      return plugin.isSchedulableAfter(pod, event, oldObject, newObject);
    } catch (RuntimeException e) {
      LOG.debug("queueing hint of {} failed for {}; re-queueing pod {}: {}", name, event, pod.metadata().key(),
          e.toString());
      return true;
    }
  }

  /**
   * Whether {@code plugin} overrides {@link ScorePlugin#normalizeScores} (the interface's default does nothing): kube's
   * {@code ScoreExtensions() != nil}.
   */
  static boolean hasNormalizeScore(ScorePlugin plugin) {
    try {
      return plugin.getClass().getMethod("normalizeScores", CycleState.class,
          PodInfo.class, List.class, long[].class).getDeclaringClass() != ScorePlugin.class;
    } catch (NoSuchMethodException e) {
      return true;
    }
  }

  /** Builds a status for an exception thrown by {@code plugin} at {@code point}. */
  static Status errorStatus(String plugin, String point, RuntimeException e) {
    return Status.error("running " + point + " plugin " + plugin + ": " + e).withPlugin(plugin);
  }

  // ------------------------------------------------------------------------------------ PreEnqueue, PreFilter

  /** Runs PreEnqueue; the first non-success wins. */
  Status runPreEnqueue(Pod pod) {
    PluginTimings t = timings != null && preEnqueue.length > 0
        && ThreadLocalRandom.current().nextInt(100) < PluginTimings.SAMPLE_PERCENT ? timings : null;
    for (int i = 0; i < preEnqueue.length; i++) {
      Status s;
      long t0 = t == null ? 0 : System.nanoTime();
      try {
        s = preEnqueue[i].preEnqueue(pod);
      } catch (RuntimeException e) {
        s = errorStatus(preEnqueueNames[i], "PreEnqueue", e);
        if (t != null) {
          t.observeDirect(PluginTimings.Point.PRE_ENQUEUE, i, Status.Code.ERROR, System.nanoTime() - t0);
        }
        return s;
      }
      if (t != null) {
        t.observeDirect(PluginTimings.Point.PRE_ENQUEUE, i, s.code(), System.nanoTime() - t0);
      }
      if (!s.isSuccess()) {
        return s.withPlugin(preEnqueueNames[i]);
      }
    }
    return Status.success();
  }

  /**
   * What PreFilter decided.
   *
   * @param status success; a rejection (attributed to its plugin) that PostFilter may still answer; or an error whose
   *     message is the cycle's
   * @param rejectors the plugins whose registered events may make the pod schedulable again (on rejection)
   * @param allowed the node names the PreFilter results narrowed the cycle to; null when none narrowed it
   * @param narrowedBy the plugins that narrowed it, in order; null when none did
   */
  record PreFilterOutcome(Status status, Set<String> rejectors, @Nullable Set<String> allowed,
      @Nullable List<String> narrowedBy) {}

  /**
   * Runs PreFilter as kube's {@code RunPreFilterPlugins}: a Skip marks the plugin's Filter skipped for this cycle, the
   * first rejection or error stops, and node-name results are intersected (an empty intersection rejects the pod as
   * unresolvable, naming the plugins).
   */
  PreFilterOutcome runPreFilter(ArrayCycleState state, PodInfo pod) {
    PluginTimings t = timed(state);
    if (t == null) {
      return runPreFilter(state, pod, null);
    }
    PluginTimings.Run run = t.run(PluginTimings.Point.PRE_FILTER, preFilter.length, state, true);
    try {
      return runPreFilter(state, pod, run);
    } finally {
      run.observe();
    }
  }

  private PreFilterOutcome runPreFilter(ArrayCycleState state, PodInfo pod, PluginTimings.@Nullable Run run) {
    Set<String> allowed = null;
    List<String> narrowedBy = null;
    for (int i = 0; i < preFilter.length; i++) {
      PreFilterResult r;
      if (evaluations != null) {
        evaluations[0][i]++;
      }
      try {
        r = preFilter[i].preFilter(state, pod, snapshot);
        if (run != null) {
          run.done(i, r.status().code());
        }
      } catch (RuntimeException e) {
        if (run != null) {
          run.done(i, Status.Code.ERROR);
        }
        return new PreFilterOutcome(Status.error(errorStatus(preFilterNames[i], "PreFilter", e).message()), Set.of(),
            allowed, narrowedBy);
      }
      Status s = r.status();
      if (s.isSkip()) {
        int fi = preFilterToFilter[i];
        if (fi >= 0) {
          if (state.skipFilter == null) {
            state.skipFilter = new boolean[filter.length];
          }
          state.skipFilter[fi] = true;
        }
        continue;
      }
      if (s.code() == Status.Code.UNSCHEDULABLE || s.code() == Status.Code.UNSCHEDULABLE_AND_UNRESOLVABLE) {
        // a PreFilter plugin's PENDING is an error, as upstream's RunPreFilterPlugins
        return new PreFilterOutcome(s.withPlugin(preFilterNames[i]), Set.of(preFilterNames[i]), allowed, narrowedBy);
      }
      if (!s.isSuccess()) {
        return new PreFilterOutcome(Status.error(s.message().isEmpty()
            ? "PreFilter plugin " + preFilterNames[i] + " returned " + s.code() : s.message()), Set.of(), allowed,
            narrowedBy);
      }
      if (r.nodeNames() != null) {
        if (narrowedBy == null) {
          narrowedBy = new ArrayList<>(2);
        }
        narrowedBy.add(preFilterNames[i]);
        if (allowed == null) {
          allowed = new HashSet<>(r.nodeNames());
        } else {
          allowed.retainAll(r.nodeNames());
        }
        if (run != null) {
          run.restart(); // the intersection is not the next plugin's time
        }
        if (allowed.isEmpty()) {
          String msg = narrowedBy.size() == 1
              ? "node(s) didn't satisfy plugin " + narrowedBy.get(0)
              : "node(s) didn't satisfy plugin(s) " + Diagnosis.goList(narrowedBy) + " simultaneously";
          return new PreFilterOutcome(Status.unresolvable(msg).withPlugin(preFilterNames[i]), Set.copyOf(narrowedBy),
              allowed, narrowedBy);
        }
      }
    }
    return new PreFilterOutcome(Status.success(), Set.of(), allowed, narrowedBy);
  }

  // ------------------------------------------------------------------------------------------ Filter

  /**
   * Runs the Filter plugins not skipped by {@code skip} on one node. Returns -1 when the node fits; otherwise the
   * failing plugin's index, its status (not yet attributed: see {@link #filterName}) stored in
   * {@code statusOut[slot]}. Called from the worker threads, each on its own slots.
   */
  int runFilter(CycleState state, boolean @Nullable [] skip, PodInfo pod, NodeInfo node, Status[] statusOut,
      int slot) {
    if (timings != null && PluginTimings.timesNode(slot)) {
      PluginTimings t = timed(state);
      if (t != null) {
        return runFilterTimed(t, state, skip, pod, node, statusOut, slot);
      }
    }
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

  /**
   * {@link #runFilter} on the node at position {@code node} of {@code table}: plugins with a {@link TableFilter} path
   * read the table's arrays, the others the node's view.
   */
  int runFilter(CycleState state, boolean @Nullable [] skip, PodInfo pod, NodeTable table, int node,
      Status[] statusOut, int slot) {
    if (timings != null && PluginTimings.timesNode(slot)) {
      return runFilter(state, skip, pod, table.view(node), statusOut, slot);
    }
    FilterPlugin[] fs = filter;
    TableFilter[] tf = tableFilter;
    for (int j = 0; j < fs.length; j++) {
      if (skip != null && skip[j]) {
        continue;
      }
      Status s;
      try {
        TableFilter t = tf[j];
        s = t != null ? t.filter(state, pod, table, node) : fs[j].filter(state, pod, table.view(node));
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

  /**
   * {@link #runFilter(CycleState, boolean[], PodInfo, NodeTable, int, Status[], int)} for every position
   * {@code pos} in {@code [from, to)} on node {@code nodes[pos]} of {@code table}, plugin by plugin over the whole
   * range: each plugin sees only the nodes that passed the plugins before it, as in the per-node order, so every node
   * gets the same answer and status. {@code failed[pos]} receives -1 or the failing plugin's index. Plugins with a
   * {@link TableFilter} path run it over the range ({@link TableFilter#filterAll}); a plugin that throws is run again
   * node by node, turning the exception into that node's error as the per-node path does. {@code locked}: the range
   * runs on the thread holding the engine lock (a sampled cycle's timings are then held in the scheduler's buffer and
   * use scratch arrays), not on a worker thread.
   */
  void runFilterRange(CycleState state, boolean @Nullable [] skip, PodInfo pod, NodeTable table, int[] nodes,
      int from, int to, Status[] statusOut, int[] failed, boolean locked) {
    PluginTimings timer = timings == null ? null : timed(state);
    Arrays.fill(failed, from, to, -1);
    FilterPlugin[] fs = filter;
    if (timer == null) {
      for (int j = 0; j < fs.length; j++) {
        if (skip != null && skip[j]) {
          continue;
        }
        filterRange(j, state, pod, table, nodes, from, to, statusOut, failed);
      }
      return;
    }
    // a sampled cycle: one clock read per plugin (each plugin's end is the next one's start), observed after the batch
    long[] nanos = locked ? filterNanosScratch : new long[fs.length];
    long t0 = System.nanoTime();
    for (int j = 0; j < fs.length; j++) {
      if (skip != null && skip[j]) {
        nanos[j] = -1;
        continue;
      }
      filterRange(j, state, pod, table, nodes, from, to, statusOut, failed);
      long t1 = System.nanoTime();
      nanos[j] = t1 - t0;
      t0 = t1;
    }
    timer.observeFilterRange(nanos, failed, statusOut, from, to, locked);
  }

  /** Filter plugin {@code j} over the positions of {@code [from, to)} that no earlier plugin failed. */
  private void filterRange(int j, CycleState state, PodInfo pod, NodeTable table, int[] nodes, int from, int to,
      Status[] statusOut, int[] failed) {
    TableFilter t = tableFilter[j];
    if (t != null && tableFilterRange(t, j, state, pod, table, nodes, from, to, statusOut, failed)) {
      return;
    }
    filterEach(j, filter[j], t, state, pod, table, nodes, from, to, statusOut, failed);
  }

  /**
   * A plugin's {@link TableFilter#filterAll} over {@code [from, to)}: one call site for every plugin's range, its loop
   * compiled on its own. False when the plugin threw (positions it already failed keep their status).
   */
  private static boolean tableFilterRange(TableFilter t, int j, CycleState state, PodInfo pod, NodeTable table,
      int[] nodes, int from, int to, Status[] statusOut, int[] failed) {
    try {
      t.filterAll(state, pod, table, nodes, from, to, failed, j, statusOut);
      return true;
    } catch (RuntimeException e) {
      return false;
    }
  }

  /**
   * Filter plugin {@code j} node by node over the positions of {@code [from, to)} not yet failed: a plugin without a
   * table path, or one whose range threw (each node's exception then becomes that node's error).
   */
  private void filterEach(int j, FilterPlugin f, @Nullable TableFilter t, CycleState state, PodInfo pod,
      NodeTable table, int[] nodes, int from, int to, Status[] statusOut, int[] failed) {
    int touched = 0;
    for (int pos = from; pos < to; pos++) {
      if (failed[pos] >= 0) {
        continue;
      }
      if (t == null && pos + Prefetch.DISTANCE < to) {
        touched += Prefetch.touch(table.view(nodes[pos + Prefetch.DISTANCE]));
      }
      Status s;
      try {
        s = t != null ? t.filter(state, pod, table, nodes[pos]) : f.filter(state, pod, table.view(nodes[pos]));
      } catch (RuntimeException e) {
        s = errorStatus(filterNames[j], "Filter", e);
      }
      if (s.code() != Status.Code.SUCCESS) {
        statusOut[pos] = s;
        failed[pos] = j;
      }
    }
    prefetchSink = touched;
  }

  /** Whether a Filter plugin not skipped by {@code skip} reads node views (has no {@link TableFilter} path). */
  boolean filtersReadViews(boolean @Nullable [] skip) {
    return readsViews(tableFilter, skip);
  }

  private static boolean readsViews(Object[] tablePaths, boolean @Nullable [] skip) {
    for (int j = 0; j < tablePaths.length; j++) {
      if (tablePaths[j] == null && (skip == null || !skip[j])) {
        return true;
      }
    }
    return false;
  }

  /** {@link #runFilter}, timing each plugin (a sampled cycle's sampled node). */
  private int runFilterTimed(PluginTimings t, CycleState state, boolean @Nullable [] skip, PodInfo pod,
      NodeInfo node, Status[] statusOut, int slot) {
    FilterPlugin[] fs = filter;
    for (int j = 0; j < fs.length; j++) {
      if (skip != null && skip[j]) {
        continue;
      }
      Status s;
      long t0 = System.nanoTime();
      try {
        s = fs[j].filter(state, pod, node);
      } catch (RuntimeException e) {
        s = errorStatus(filterNames[j], "Filter", e);
      }
      t.observeDirect(PluginTimings.Point.FILTER, j, s.code(), System.nanoTime() - t0); // maybe a worker thread
      if (s.code() != Status.Code.SUCCESS) {
        statusOut[slot] = s;
        return j;
      }
    }
    return -1;
  }

  // ------------------------------------------------------------------------------------------ PostFilter

  /**
   * What PostFilter decided: the successful result (its victims to evict and node to nominate), if any, and the
   * message to append to the FitError (the successful plugin's reasons, else every plugin's).
   */
  record PostFilterOutcome(@Nullable PostFilterResult success, String message) {}

  /**
   * Runs PostFilter (preemption) as kube's {@code RunPostFilterPlugins}, in dry-run mode: the first success wins; a
   * plugin other than Unschedulable stops the run. A plugin that answers with an empty nominated node name (no node can
   * be made to fit) makes the framework call {@code noNodeCanFit}, which drops the pod's earlier nomination; later
   * plugins see the pod {@code pod} supplies then.
   */
  PostFilterOutcome runPostFilter(ArrayCycleState state, Supplier<PodInfo> pod, NodeToStatus statuses,
      Runnable noNodeCanFit) {
    state.setPreemptionDryRun(true);
    try {
      List<String> reasons = new ArrayList<>(1);
      PluginTimings t = timed(state);
      for (int i = 0; i < postFilter.length; i++) {
        PostFilterResult r;
        long t0 = t == null ? 0 : System.nanoTime();
        try {
          r = postFilter[i].postFilter(state, pod.get(), snapshot, statuses);
        } catch (RuntimeException e) {
          r = PostFilterResult.of(errorStatus(postFilterNames[i], "PostFilter", e));
        }
        Status s = r.status();
        if (t != null) {
          t.observe(PluginTimings.Point.POST_FILTER, i, s.code(), System.nanoTime() - t0);
        }
        if (s.isSuccess()) {
          return new PostFilterOutcome(r, s.message());
        }
        reasons.addAll(s.reasons());
        if ("".equals(r.nominatedNodeName())) {
          noNodeCanFit.run();
        }
        if (s.code() != Status.Code.UNSCHEDULABLE) {
          break;
        }
      }
      return new PostFilterOutcome(null, String.join(", ", reasons));
    } finally {
      state.setPreemptionDryRun(false);
    }
  }

  // ------------------------------------------------------------------------------------- PreScore, Score

  /** Runs PreScore; a Skip skips the plugin's Score for this cycle. Returns success or the error to fail with. */
  Status runPreScore(ArrayCycleState state, PodInfo pod, List<NodeInfo> nodes) {
    PluginTimings t = timed(state);
    if (t == null) {
      return runPreScore(state, pod, nodes, null);
    }
    PluginTimings.Run run = t.run(PluginTimings.Point.PRE_SCORE, preScore.length, state, true);
    try {
      return runPreScore(state, pod, nodes, run);
    } finally {
      run.observe();
    }
  }

  private Status runPreScore(ArrayCycleState state, PodInfo pod, List<NodeInfo> nodes,
      PluginTimings.@Nullable Run run) {
    for (int i = 0; i < preScore.length; i++) {
      Status s;
      if (evaluations != null) {
        evaluations[2][i]++;
      }
      try {
        s = preScore[i].preScore(state, pod, nodes);
      } catch (RuntimeException e) {
        s = errorStatus(preScoreNames[i], "PreScore", e);
      }
      if (run != null) {
        run.done(i, s.code());
      }
      if (s.isSkip()) {
        int si = preScoreToScore[i];
        if (si >= 0) {
          if (state.skipScore == null) {
            state.skipScore = new boolean[score.length];
          }
          state.skipScore[si] = true;
        }
      } else if (!s.isSuccess()) {
        return s.code() == Status.Code.ERROR ? s.withPlugin(preScoreNames[i])
            : Status.error("PreScore plugin " + preScoreNames[i] + ": " + s.message());
      }
    }
    return Status.success();
  }

  /**
   * Whether Score keeps the cached, non-normalising plugins' weighted sum per node ({@link CachedScoreSum}; on by
   * default) or scores and weighs every plugin on its own: the same totals either way. For tests comparing the two.
   */
  void cacheScoreSums(boolean on) {
    cachedSum = on ? new CachedScoreSum() : null;
  }

  /**
   * Runs Score for the first {@code k} of {@code nodes} (fanned out over {@code runner} in chunks when the work exceeds
   * {@code inlineWork} evaluations), then NormalizeScore, checks the range [0, 100] and adds each plugin's scores
   * times its weight into {@code totals[0..k)}, as kube's {@code RunScorePlugins}. {@code nodeList} is the same nodes
   * as a list, {@code indices} their positions in {@code table} (read by the plugins' {@link TableScore} paths).
   * Returns success or the error to fail with.
   */
  Status runScore(ArrayCycleState state, PodInfo pod, NodeTable table, int[] indices, List<NodeInfo> nodeList,
      int k, long[] totals, ParallelRunner runner, int inlineWork) {
    totalsMaxKnown = false;
    ScorePlugin[] plugins = score;
    TableScore[] ts = tableScore;
    boolean[] skip = state.skipScore;
    int active = 0;
    for (int j = 0; j < plugins.length; j++) {
      if (skip != null && skip[j]) {
        continue;
      }
      active++;
      if (evaluations != null) {
        evaluations[3][j] += k;
      }
      if (scoreBufs[j] == null || scoreBufs[j].length != k) {
        scoreBufs[j] = new long[k];
      }
    }
    if (active == 0) {
      Arrays.fill(totals, 0, k, 0L);
      return Status.success();
    }
    long[][] bufs = scoreBufs;
    PluginTimings timer = timed(state);
    long offset = 0;
    if (skipUniformScores) {
      // plugins that give every node the same normalised score: their weighted score is added to every total in a
      // pass made anyway (the first one that writes the totals), instead of a Score, a NormalizeScore and a weighing
      // (in a sampled cycle too: the answers are timed together, see PluginTimings.observeUniform)
      int u = markUniform(ts, skip, state, pod, table);
      if (u > 0) {
        if (timer != null) {
          timer.observeUniform(uniformOrSkipped, skip, scoreNormalizes, u, k, state);
        }
        skip = uniformOrSkipped;
        offset = uniformOffset;
        active -= u;
        if (active == 0) {
          Arrays.fill(totals, 0, k, offset);
          return Status.success();
        }
      }
    }
    boolean serial = k * active <= inlineWork || runner.parallelism() == 1;
    boolean summed = false;
    if (serial && cachedSum != null) {
      // the cached, non-normalising plugins as one kept sum in the totals; the others skipped below and weighed onto it
      // (in a sampled cycle too: the members are timed together, see PluginTimings.observeKeptSum)
      boolean[] members = sumMembers;
      int m = cachedSum.prepare(ts, scoreNormalizes, skip, state, pod, members);
      if (m > 0 && cachedSum.sum(ts, scoreWeights, state, pod, table, indices, k, totals, offset)) {
        if (timer != null) {
          timer.observeKeptSum(members, m, k, state);
        }
        summed = true;
        active -= m;
        for (int j = 0; j < plugins.length; j++) {
          members[j] |= skip != null && skip[j];
        }
        if (active == 0) {
          totalsMax = cachedSum.max(); // the sum's pass wrote every total: its highest is known
          totalsMaxKnown = true;
          return Status.success();
        }
      }
    }
    boolean[] rest = summed ? sumMembers : skip; // the plugins still to score
    AtomicReference<Status> error = scoreError;
    error.set(null);
    boolean prefetch = readsViews(ts, rest);
    ScoreCache.Slot[] slots = cycleSlots;
    Arrays.fill(slots, null);
    pickCacheSlots(state, pod, table, rest, k);
    if (serial) {
      // one chunk on this thread: no job to hand off
      scoreRange(plugins, ts, slots, rest, bufs, state, pod, table, indices, 0, k, error, prefetch, timer, true);
    } else {
      int chunk = Math.max(16, k / (runner.parallelism() * 2));
      runner.run(k, chunk, (from, to) -> scoreRange(plugins, ts, slots, rest, bufs, state, pod, table, indices, from,
          to, error, prefetch, timer, false));
    }
    Arrays.fill(slots, null);
    if (error.get() != null) {
      return error.get();
    }
    PluginTimings.Run run = timer == null ? null
        : timer.run(PluginTimings.Point.NORMALIZE_SCORE, plugins.length, state, false);
    try {
      return normalizeAndWeigh(plugins, rest, bufs, state, pod, nodeList, k, totals, !summed, summed ? 0 : offset,
          run);
    } finally {
      if (run != null) {
        run.observe();
      }
    }
  }

  /**
   * Marks in {@link #uniformOrSkipped} the plugins skipped this cycle ({@code skip}) and those not skipped whose
   * {@link TableScore#uniformScore} names the normalised score every node gets; returns how many are uniform and
   * leaves their weighted scores, summed, in {@link #uniformOffset}.
   *
   * <p>Why leaving them out decides the same: such a plugin adds {@code c = weight * score} to every node's total, so
   * each total is the others' sum plus the same {@code c}. Adding one constant to every total keeps their order and
   * which positions hold the highest, so {@code selectHost} sees the same tied positions and makes the same draw. The
   * totals themselves are kept exact: {@code c} is added in the first pass that writes them. The plugin promises its
   * Score and NormalizeScore would succeed with that value in [0, 100], so no error is lost either.
   */
  private int markUniform(TableScore[] ts, boolean @Nullable [] skip, ArrayCycleState state, PodInfo pod,
      NodeTable table) {
    int count = 0;
    long offset = 0;
    for (int j = 0; j < ts.length; j++) {
      boolean skipped = skip != null && skip[j];
      uniformOrSkipped[j] = skipped;
      if (skipped || ts[j] == null) {
        continue;
      }
      long v;
      try {
        v = ts[j].uniformScore(state, pod, table);
      } catch (RuntimeException e) {
        v = TableScore.NOT_UNIFORM; // scored the usual way, which reports the error
      }
      if (v >= ScorePlugin.MIN_NODE_SCORE && v <= ScorePlugin.MAX_NODE_SCORE) {
        uniformOrSkipped[j] = true;
        offset += v * scoreWeights[j];
        count++;
      }
    }
    uniformOffset = offset;
    return count;
  }

  /**
   * After a successful {@link #runScore}: the highest of the totals it wrote, when the pass that wrote them noted it
   * on the way (the kept sums alone made the totals); else {@link Long#MIN_VALUE}, and the caller finds it itself.
   */
  long knownTotalsMax() {
    return totalsMaxKnown ? totalsMax : Long.MIN_VALUE;
  }

  /**
   * Whether Score leaves out plugins whose normalised score is uniform ({@link #markUniform}; on by default) or runs
   * them as every other plugin: the same totals either way. For tests comparing the two.
   */
  void skipUniformScores(boolean on) {
    skipUniformScores = on;
  }

  /**
   * As kube's {@code RunScorePlugins}: NormalizeScore for every plugin, then each plugin's scores checked against
   * [0, 100] and weighed into {@code totals} (the first plugin assigning, plus {@code offset}, the others adding).
   */
  private Status normalizeAndWeigh(ScorePlugin[] plugins, boolean @Nullable [] skip, long[][] bufs,
      ArrayCycleState state, PodInfo pod, List<NodeInfo> nodeList, int k, long[] totals, boolean assign, long offset,
      PluginTimings.@Nullable Run run) {
    for (int j = 0; j < plugins.length; j++) {
      if ((skip != null && skip[j]) || !scoreNormalizes[j]) {
        continue;
      }
      try {
        plugins[j].normalizeScores(state, pod, nodeList, bufs[j]);
      } catch (RuntimeException e) {
        if (run != null) {
          run.done(j, Status.Code.ERROR);
        }
        return errorStatus(scoreNames[j], "NormalizeScore", e);
      }
      if (run != null) {
        run.done(j, Status.Code.SUCCESS);
      }
    }
    // two plugins per pass over the totals (the first pass assigns unless the totals hold the cached sum, the others
    // add), scores checked on the way
    boolean first = assign;
    int pending = -1; // a plugin waiting for a partner
    for (int j = 0; j <= plugins.length; j++) {
      if (j < plugins.length && skip != null && skip[j]) {
        continue;
      }
      if (j < plugins.length && pending < 0) {
        pending = j;
        continue;
      }
      if (pending < 0) {
        break;
      }
      int a = pending;
      int b = j < plugins.length ? j : -1;
      pending = -1;
      boolean valid = b < 0
          ? weigh(bufs[a], scoreWeights[a], totals, k, first, offset)
          : weighPair(bufs[a], scoreWeights[a], bufs[b], scoreWeights[b], totals, k, first, offset);
      first = false;
      if (!valid) {
        Status bad = invalidScore(a, bufs[a], nodeList, k);
        if (bad == null && b >= 0) {
          bad = invalidScore(b, bufs[b], nodeList, k);
        }
        if (bad == null) {
          throw new IllegalStateException("Score: a pass found a score outside the range and no plugin holds it");
        }
        return bad;
      }
    }
    return Status.success();
  }

  /**
   * {@code totals[pos] = scores[pos] * weight + offset} ({@code set}) or {@code +=} for {@code pos} in {@code [0, k)}; false
   * when a score is outside [{@link ScorePlugin#MIN_NODE_SCORE}, {@link ScorePlugin#MAX_NODE_SCORE}] (the totals are
   * then not used). The check is an or of signs, not a branch per score, so the loop has no exit but its end.
   */
  private static boolean weigh(long[] scores, long weight, long[] totals, int k, boolean set, long offset) {
    long signs = 0;
    if (set) {
      for (int pos = 0; pos < k; pos++) {
        long v = scores[pos];
        totals[pos] = v * weight + offset;
        signs |= (v - ScorePlugin.MIN_NODE_SCORE) | (ScorePlugin.MAX_NODE_SCORE - v);
      }
    } else {
      for (int pos = 0; pos < k; pos++) {
        long v = scores[pos];
        totals[pos] += v * weight;
        signs |= (v - ScorePlugin.MIN_NODE_SCORE) | (ScorePlugin.MAX_NODE_SCORE - v);
      }
    }
    return signs >= 0;
  }

  /** {@link #weigh} of two plugins' scores in one pass over the totals. */
  private static boolean weighPair(long[] a, long wa, long[] b, long wb, long[] totals, int k, boolean set,
      long offset) {
    long signs = 0;
    if (set) {
      for (int pos = 0; pos < k; pos++) {
        long x = a[pos];
        long y = b[pos];
        totals[pos] = x * wa + y * wb + offset;
        signs |= (x - ScorePlugin.MIN_NODE_SCORE) | (ScorePlugin.MAX_NODE_SCORE - x)
            | (y - ScorePlugin.MIN_NODE_SCORE) | (ScorePlugin.MAX_NODE_SCORE - y);
      }
    } else {
      for (int pos = 0; pos < k; pos++) {
        long x = a[pos];
        long y = b[pos];
        totals[pos] += x * wa + y * wb;
        signs |= (x - ScorePlugin.MIN_NODE_SCORE) | (ScorePlugin.MAX_NODE_SCORE - x)
            | (y - ScorePlugin.MIN_NODE_SCORE) | (ScorePlugin.MAX_NODE_SCORE - y);
      }
    }
    return signs >= 0;
  }

  /** kube's error for plugin {@code j}'s first score in {@code scores[0..k)} outside the range, or null if none. */
  private @Nullable Status invalidScore(int j, long[] scores, List<NodeInfo> nodeList, int k) {
    for (int pos = 0; pos < k; pos++) {
      long v = scores[pos];
      if (v < ScorePlugin.MIN_NODE_SCORE || v > ScorePlugin.MAX_NODE_SCORE) {
        return Status.error("plugin " + scoreNames[j] + " returns an invalid score " + v + " for node "
            + nodeList.get(pos).name() + "; it should be in the range [0, 100] after normalizing")
            .withPlugin(scoreNames[j]);
      }
    }
    return null;
  }

  /**
   * Score for positions {@code [from, to)}, plugin by plugin over the whole range ({@link TableScore#scoreAll} where a
   * plugin has a table path): the same scores as node by node. A plugin that throws is run again node by node so that
   * the error is attributed as on the per-node path.
   */
  private void scoreRange(ScorePlugin[] plugins, TableScore[] ts, ScoreCache.@Nullable Slot[] slots,
      boolean @Nullable [] skip, long[][] bufs, ArrayCycleState state, PodInfo pod, NodeTable table, int[] indices,
      int from, int to, AtomicReference<Status> error, boolean prefetch, @Nullable PluginTimings timer,
      boolean locked) {
    if (timer == null) {
      for (int j = 0; j < plugins.length; j++) {
        if (skip != null && skip[j]) {
          continue;
        }
        scoreRange(j, plugins, ts, slots, bufs, state, pod, table, indices, from, to, error, prefetch);
      }
      return;
    }
    // a sampled cycle: one clock read per plugin (each plugin's end is the next one's start), observed after the batch
    long[] nanos = locked ? scoreNanosScratch : new long[plugins.length];
    boolean[] failedPlugin = locked ? scoreFailedScratch : new boolean[plugins.length];
    long t0 = System.nanoTime();
    for (int j = 0; j < plugins.length; j++) {
      if (skip != null && skip[j]) {
        nanos[j] = -1;
        continue;
      }
      failedPlugin[j] = !scoreRange(j, plugins, ts, slots, bufs, state, pod, table, indices, from, to, error,
          prefetch);
      long t1 = System.nanoTime();
      nanos[j] = t1 - t0;
      t0 = t1;
    }
    for (int j = 0; j < plugins.length; j++) {
      if (nanos[j] >= 0) {
        timer.observeScoreRange(j, failedPlugin[j] ? Status.Code.ERROR : Status.Code.SUCCESS, from, to, nanos[j],
            locked);
      }
    }
  }

  /** Score plugin {@code j} over {@code [from, to)}; false when it threw on a node. */
  private boolean scoreRange(int j, ScorePlugin[] plugins, TableScore[] ts, ScoreCache.@Nullable Slot[] slots,
      long[][] bufs, ArrayCycleState state, PodInfo pod, NodeTable table, int[] indices, int from, int to,
      AtomicReference<Status> error, boolean prefetch) {
    TableScore t = ts[j];
    long[] out = bufs[j];
    if (t != null && tableScoreRange(t, slots[j], state, pod, table, indices, from, to, out)) {
      return true;
    }
    return scoreEach(j, plugins[j], t, state, pod, table, indices, from, to, out, error, prefetch);
  }

  /**
   * A plugin's {@link TableScore#scoreAll} over {@code [from, to)}, through its {@link ScoreCache} slot when it has
   * one this cycle (the kept scores read back, the plugin asked for the others, which are then kept): one call site
   * for every plugin's range, its loop compiled on its own. False when the plugin threw (the slot then keeps what it
   * kept before).
   */
  private boolean tableScoreRange(TableScore t, ScoreCache.@Nullable Slot slot, ArrayCycleState state, PodInfo pod,
      NodeTable table, int[] indices, int from, int to, long[] out) {
    int[] nodes = indices;
    long[] dst = out;
    int end = to;
    if (slot != null) {
      end = slot.reuse(table, indices, from, to, out, missPos, missNodes, 0, null);
      nodes = missNodes;
      dst = missOut;
    }
    try {
      if (end > from) {
        t.scoreAll(state, pod, table, nodes, from, end, dst);
      }
    } catch (RuntimeException e) {
      return false;
    }
    if (slot != null) {
      slot.keep(table, from, end, missPos, missNodes, missOut, out, 0, null);
    }
    return true;
  }

  /** Score plugin {@code j} node by node over {@code [from, to)}; false when it threw on a node. */
  private boolean scoreEach(int j, ScorePlugin plugin, @Nullable TableScore t, ArrayCycleState state, PodInfo pod,
      NodeTable table, int[] indices, int from, int to, long[] out, AtomicReference<Status> error, boolean prefetch) {
    boolean ok = true;
    int touched = 0;
    for (int pos = from; pos < to; pos++) {
      if (t == null && prefetch && pos + Prefetch.DISTANCE < to) {
        touched += Prefetch.touch(table.view(indices[pos + Prefetch.DISTANCE]));
      }
      try {
        out[pos] = t != null ? t.score(state, pod, table, indices[pos]) : plugin.score(state, pod,
            table.view(indices[pos]));
      } catch (RuntimeException e) {
        error.compareAndSet(null, errorStatus(scoreNames[j], "Score", e));
        out[pos] = 0;
        ok = false;
      }
    }
    prefetchSink = touched;
    return ok;
  }

  /**
   * Picks this cycle's {@link ScoreCache} slot for each Score plugin that gives a key (a plugin whose key throws is
   * scored without its cache; Score then reports the error as before), and sizes the scratch for {@code k} nodes.
   */
  private void pickCacheSlots(ArrayCycleState state, PodInfo pod, NodeTable table, boolean @Nullable [] skip, int k) {
    TableScore[] ts = tableScore;
    boolean any = false;
    for (int j = 0; j < ts.length; j++) {
      if (ts[j] == null || (skip != null && skip[j])) {
        continue;
      }
      long[] key;
      try {
        key = ts[j].scoreKey(state, pod);
      } catch (RuntimeException e) {
        key = null;
      }
      if (key != null) {
        cycleSlots[j] = scoreCaches[j].slot(key, table);
        any = true;
      }
    }
    if (any && missPos.length < k) {
      int len = Math.max(k, missPos.length * 2);
      missPos = new int[len];
      missNodes = new int[len];
      missOut = new long[len];
    }
  }

  // ------------------------------------------------------------------------------------ Reserve, Permit

  /** Runs Reserve in order; the first non-success, attributed to its plugin, stops (the caller unreserves all). */
  Status runReserve(ArrayCycleState state, PodInfo pod, String nodeName) {
    PluginTimings t = timed(state);
    for (int i = 0; i < reserve.length; i++) {
      Status s;
      long t0 = t == null ? 0 : System.nanoTime();
      try {
        s = reserve[i].reserve(state, pod, nodeName);
      } catch (RuntimeException e) {
        s = errorStatus(reserveNames[i], "Reserve", e);
      }
      if (t != null) {
        t.observe(PluginTimings.Point.RESERVE, i, s.code(), System.nanoTime() - t0);
      }
      if (!s.isSuccess()) {
        return s.withPlugin(reserveNames[i]);
      }
    }
    return Status.success();
  }

  /** Runs Unreserve of every Reserve plugin in reverse order; failures are logged, as kube ignores them. */
  void runUnreserve(ArrayCycleState state, PodInfo pod, String nodeName) {
    PluginTimings t = timed(state);
    for (int i = reserve.length - 1; i >= 0; i--) {
      long t0 = t == null ? 0 : System.nanoTime();
      Status.Code code = Status.Code.SUCCESS;
      try {
        reserve[i].unreserve(state, pod, nodeName);
      } catch (RuntimeException e) {
        code = Status.Code.ERROR;
        LOG.warn("Unreserve of plugin {} failed for pod {}", reserveNames[i], pod.key(), e);
      }
      if (t != null) {
        t.observe(PluginTimings.Point.UNRESERVE, i, code, System.nanoTime() - t0);
      }
    }
  }

  /**
   * What Permit decided: success, a rejection or error attributed to its plugin, or {@link Status#isWait() wait} with
   * each waiting plugin's deadline (nanoseconds on the scheduler's clock, in plugin order).
   */
  record PermitOutcome(Status status, Map<String, Long> deadlines) {}

  /**
   * Runs Permit as kube's {@code RunPermitPlugins}: a rejection stops; waits are collected with their timeouts, capped
   * at 15 minutes.
   */
  PermitOutcome runPermit(ArrayCycleState state, PodInfo pod, String nodeName, long nowNanos) {
    LinkedHashMap<String, Long> waits = null;
    PluginTimings t = timed(state);
    for (int i = 0; i < permit.length; i++) {
      PermitResult pr;
      long t0 = t == null ? 0 : System.nanoTime();
      try {
        pr = permit[i].permit(state, pod, nodeName);
      } catch (RuntimeException e) {
        pr = PermitResult.reject(errorStatus(permitNames[i], "Permit", e));
      }
      Status s = pr.status();
      if (t != null) {
        t.observe(PluginTimings.Point.PERMIT, i, s.code(), System.nanoTime() - t0);
      }
      if (s.isWait()) {
        if (waits == null) {
          waits = new LinkedHashMap<>();
        }
        long timeout = Math.min(Math.max(0, pr.timeout().toNanos()), MAX_PERMIT_WAIT_NANOS);
        waits.put(permitNames[i], nowNanos + timeout);
      } else if (!s.isSuccess()) {
        return new PermitOutcome(s.withPlugin(permitNames[i]), Map.of());
      }
    }
    return waits == null ? PERMITTED : new PermitOutcome(Status.waiting(), waits);
  }

  /** Every Permit plugin allowed (or there is none). */
  private static final PermitOutcome PERMITTED = new PermitOutcome(Status.success(), Map.of());

  // -------------------------------------------------------------------------------- PreBind, Bind, PostBind

  /** Runs PreBind in order; the first non-success, attributed to its plugin, stops. */
  Status runPreBind(ArrayCycleState state, PodInfo pod, String nodeName) {
    PluginTimings t = timed(state);
    for (int i = 0; i < preBind.length; i++) {
      Status s;
      long t0 = t == null ? 0 : System.nanoTime();
      try {
        s = preBind[i].preBind(state, pod, nodeName);
      } catch (RuntimeException e) {
        s = errorStatus(preBindNames[i], "PreBind", e);
      }
      if (t != null) {
        t.observeDirect(PluginTimings.Point.PRE_BIND, i, s.code(), System.nanoTime() - t0); // maybe a binding thread
      }
      if (!s.isSuccess()) {
        return s.withPlugin(preBindNames[i]);
      }
    }
    return Status.success();
  }

  /**
   * Runs Bind until a plugin does not Skip, and returns its status attributed to it; {@link Status#skip()} when every
   * plugin skipped, or when the profile has none (see {@link #bindsThroughBinder()}).
   */
  Status runBind(ArrayCycleState state, PodInfo pod, String nodeName) {
    PluginTimings t = timed(state);
    for (int i = 0; i < bind.length; i++) {
      Status s;
      long t0 = t == null ? 0 : System.nanoTime();
      try {
        s = bind[i].bind(state, pod, nodeName);
      } catch (RuntimeException e) {
        s = errorStatus(bindNames[i], "Bind", e);
      }
      if (t != null) {
        t.observeDirect(PluginTimings.Point.BIND, i, s.code(), System.nanoTime() - t0); // maybe a binding thread
      }
      if (!s.isSkip()) {
        return s.withPlugin(bindNames[i]);
      }
    }
    return Status.skip();
  }

  /**
   * Whether the profile has no Bind plugin, so that the scheduler's {@link Binder} binds its pods: FleetKit's
   * compatibility rule for profiles written before the DefaultBinder plugin existed (kube refuses such a profile:
   * "at least one bind plugin is needed"). A profile with Bind plugins that all skip a pod fails its binding, as kube.
   */
  boolean bindsThroughBinder() {
    return bind.length == 0;
  }

  /** The failure of a binding that every Bind plugin of the profile skipped (kube's binding cycle fails it too). */
  Status everyBindSkipped() {
    return Status.error("profile " + schedulerName + ": every Bind plugin skipped the pod ("
        + String.join(", ", bindNames) + "), so nothing bound it");
  }

  @Override
  public Binder binder() {
    return binder;
  }

  /** Runs PostBind; failures are logged (the pod is bound). */
  void runPostBind(ArrayCycleState state, PodInfo pod, String nodeName) {
    PluginTimings t = timed(state);
    for (int i = 0; i < postBind.length; i++) {
      long t0 = t == null ? 0 : System.nanoTime();
      Status.Code code = Status.Code.SUCCESS;
      try {
        postBind[i].postBind(state, pod, nodeName);
      } catch (RuntimeException e) {
        code = Status.Code.ERROR;
        LOG.warn("PostBind plugin {} failed for pod {}", postBindNames[i], pod.key(), e);
      }
      if (t != null) {
        t.observe(PluginTimings.Point.POST_BIND, i, code, System.nanoTime() - t0);
      }
    }
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

  void activator(java.util.function.Consumer<List<String>> activator) {
    this.activator = activator;
  }

  /** Where {@link #runFilterPluginsWithNominatedPods} finds the pods nominated to a node (the engine's nominator). */
  void nominatedPods(java.util.function.Function<String, @Nullable List<PodInfo>> nominatedPods) {
    this.nominatedPods = nominatedPods;
  }

  @Override
  public Status runFilterPluginsWithNominatedPods(CycleState state, PodInfo pod, NodeInfo node) {
    List<PodInfo> nominated = nominatedPods == null ? null : nominatedPods.apply(node.name());
    List<PodInfo> added = null;
    if (nominated != null) {
      for (PodInfo np : nominated) {
        if (np.priority() >= pod.priority() && !np.key().equals(pod.key())) {
          if (added == null) {
            added = new ArrayList<>(2);
          }
          added.add(np);
        }
      }
    }
    if (added == null) {
      return runFilterPlugins(state, pod, node);
    }
    List<PodInfo> all = new ArrayList<>(node.pods().size() + added.size());
    all.addAll(node.pods());
    all.addAll(added);
    NodeInfo withNominated = NodeInfos.of(node.node(), all);
    CycleState copy = state.copy();
    for (PodInfo np : added) {
      Status s = runPreFilterExtensionAddPod(copy, pod, np, withNominated);
      if (!s.isSuccess()) {
        return s.code() == Status.Code.ERROR ? s : Status.error(s.message()); // upstream's AsStatus(err)
      }
    }
    Status s = runFilterPlugins(copy, pod, withNominated);
    return s.isSuccess() ? runFilterPlugins(state, pod, node) : s;
  }

  @Override
  public void activate(java.util.Collection<String> podKeys) {
    if (!podKeys.isEmpty()) {
      activator.accept(List.copyOf(podKeys));
    }
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
