package io.fleetkit.autoscale.vpa;

import io.fleetkit.api.FleetKitException;
import io.fleetkit.api.autoscaling.VerticalPodAutoscaler;
import io.fleetkit.api.autoscaling.VerticalPodAutoscalerCheckpoint;
import io.fleetkit.api.autoscaling.VerticalPodAutoscalerCheckpointSpec;
import io.fleetkit.api.autoscaling.VerticalPodAutoscalerCheckpointStatus;
import io.fleetkit.api.core.Container;
import io.fleetkit.api.core.ContainerState;
import io.fleetkit.api.core.ContainerStateType;
import io.fleetkit.api.core.ContainerStatus;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.store.WatchEvent;
import io.fleetkit.api.store.WatchEventType;
import io.fleetkit.autoscale.hpa.ContainerUsage;
import io.fleetkit.autoscale.hpa.MetricsSource;
import io.fleetkit.autoscale.hpa.PodResourceMetrics;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The VPA recommender's loop over an {@link ObjectStore} (upstream's {@code recommender} with its cluster feeder and
 * checkpoint writer), one {@link #runOnce} per {@code --recommender-interval}:
 *
 * <ol>
 *   <li>on the first run, the history of each VPA's containers is restored from their
 *       {@link VerticalPodAutoscalerCheckpoint}s ({@code InitFromCheckpoints}): a checkpoint of a VPA that does not
 *       exist, of another version or with a histogram that does not load is skipped (and logged);
 *   <li>each VPA's target pods' usage, read from a {@link MetricsSource}, goes into one {@link ContainerUsageState}
 *       per container name, and the {@link VpaRecommender}'s recommendation is written to the VPA's status when it
 *       changed;
 *   <li>each VPA's histories are written as checkpoints named {@code <vpa>-<container>} ({@code StoreCheckpoints}):
 *       the VPAs checkpointed longest ago first, at most {@link Builder#maxCheckpointedVpasPerRun} of them per run;
 *   <li>every {@link Builder#checkpointsGcInterval}, checkpoints whose VPA is gone are deleted
 *       ({@code GarbageCollectCheckpoints}).
 * </ol>
 *
 * A VPA's history is dropped when the VPA is deleted. Single-threaded: one caller runs the loop.
 */
public final class VpaRecommenderLoop {
  private static final Logger LOG = LoggerFactory.getLogger(VpaRecommenderLoop.class);

  private final ObjectStore store;
  private final MetricsSource metrics;
  private final Clock clock;
  private final VpaRecommender recommender;
  private final boolean checkpoints;
  private final int maxCheckpointedVpasPerRun;
  private final Duration checkpointsGcInterval;
  /** VPA key to container name to history. */
  private final Map<String, Map<String, ContainerUsageState>> usage = new HashMap<>();
  /** VPA key to when its checkpoints were last written. */
  private final Map<String, Instant> checkpointWritten = new HashMap<>();
  private boolean restored;
  private @Nullable Instant lastGc;
  /** Each pod as {@link #observe} last saw it, by uid: the old pod of upstream's {@code OnUpdate}. */
  private final Map<String, Pod> lastSeen = new HashMap<>();
  /** OOM kills observed since the last run, in the order seen ({@code observedOomsChannel}). */
  private final List<Oom> ooms = new ArrayList<>();

  /** One observed OOM kill ({@code oom.OomInfo}): the pod's namespace and labels find its VPA. */
  private record Oom(String namespace, Map<String, String> labels, String container, Instant at, long memory) {}

  private VpaRecommenderLoop(Builder b) {
    this.store = b.store;
    this.metrics = b.metrics;
    this.clock = b.clock;
    this.recommender = b.recommender;
    this.checkpoints = b.checkpoints;
    this.maxCheckpointedVpasPerRun = b.maxCheckpointedVpasPerRun;
    this.checkpointsGcInterval = b.checkpointsGcInterval;
  }

  /** A loop over {@code store}, reading usage from {@code metrics}, on {@code clock}. */
  public static Builder builder(ObjectStore store, MetricsSource metrics, Clock clock) {
    return new Builder(store, metrics, clock);
  }

  /**
   * The recommender's OOM observer ({@code oom.observer.OnUpdate}), fed every pod watch event; the pod's previous
   * version is the one this observer last saw. A container OOM-killed since then ({@code isNewOOM}: its state is
   * {@code Terminated} with reason {@code OOMKilled} and was not terminated before, or its restart count went up;
   * {@code isPreviousOOM}: it runs again with a higher restart count after a state that was not terminated, and its
   * {@code lastState} is {@code Terminated} with reason {@code OOMKilled}) is kept, with that termination's finish time
   * and the container's memory request in the previous version, until the next {@link #runOnce}; that run records
   * it into the container's history of the VPA whose target selects the pod ({@link ContainerUsageState#recordOom})
   * after its usage samples, as the cluster feeder drains the OOM channel. An OOM no VPA targets is dropped.
   */
  public void observe(WatchEvent<Pod> event) {
    Pod pod = event.object();
    String uid = pod.metadata().uid();
    if (event.type() == WatchEventType.DELETED) {
      lastSeen.remove(uid);
      return;
    }
    Pod old = lastSeen.put(uid, pod);
    if (old == null || old.status().containerStatuses() == pod.status().containerStatuses()) {
      return;
    }
    for (ContainerStatus s : pod.status().containerStatuses()) {
      ContainerStatus before = null;
      for (ContainerStatus o : old.status().containerStatuses()) {
        if (o.name().equals(s.name())) {
          before = o;
        }
      }
      if (before == null) {
        continue;
      }
      boolean wasTerminated = before.state().type() == ContainerStateType.Terminated;
      boolean restarted = s.restartCount() > before.restartCount();
      boolean newOom = s.state().type() == ContainerStateType.Terminated && OOM_KILLED.equals(s.state().reason())
          && (!wasTerminated || restarted);
      ContainerState last = s.lastState();
      boolean previousOom = s.state().type() == ContainerStateType.Running && !wasTerminated && restarted
          && last != null && OOM_KILLED.equals(last.reason());
      if (!newOom && !previousOom) {
        continue;
      }
      ContainerState oom = newOom ? s.state() : last;
      Container spec = null;
      for (Container c : old.spec().containers()) {
        if (c.name().equals(s.name())) {
          spec = c;
        }
      }
      if (spec != null && oom.finishedAt() != null) {
        ooms.add(new Oom(pod.metadata().namespace(), pod.metadata().labels(), s.name(), oom.finishedAt(),
            spec.resources().requests().memoryBytes()));
      }
    }
  }

  /** The reason of a container the kernel's OOM killer ended. */
  static final String OOM_KILLED = "OOMKilled";

  /** One pass: restore (first pass only), recommend, checkpoint, collect garbage when due. */
  public void runOnce() {
    Instant now = clock.instant();
    List<VerticalPodAutoscaler> vpas = store.list(VerticalPodAutoscaler.class).items();
    if (checkpoints && !restored) {
      restore(vpas, now);
    }
    restored = true;
    Set<String> present = new HashSet<>();
    for (VerticalPodAutoscaler vpa : vpas) {
      present.add(vpa.metadata().key());
      recommend(vpa, now);
    }
    ooms.clear(); // those no VPA targets
    usage.keySet().retainAll(present);
    checkpointWritten.keySet().retainAll(present);
    if (checkpoints) {
      writeCheckpoints(vpas, now);
      Instant gc = lastGc;
      if (gc == null || !now.isBefore(gc.plus(checkpointsGcInterval))) {
        collectGarbage(present);
        lastGc = now;
      }
    }
  }

  /** The histories of {@code vpa}'s containers, by container name; empty when none. */
  public Map<String, ContainerUsageState> history(VerticalPodAutoscaler vpa) {
    Map<String, ContainerUsageState> h = usage.get(vpa.metadata().key());
    return h == null ? Map.of() : Collections.unmodifiableMap(h);
  }

  /** The name of the checkpoint of {@code container} under the VPA named {@code vpaName}. */
  public static String checkpointName(String vpaName, String container) {
    return vpaName + "-" + container;
  }

  private void restore(List<VerticalPodAutoscaler> vpas, Instant now) {
    Map<String, VerticalPodAutoscaler> byKey = new HashMap<>();
    Set<String> namespaces = new HashSet<>();
    for (VerticalPodAutoscaler v : vpas) {
      byKey.put(v.metadata().namespace() + "/" + v.metadata().name(), v);
      namespaces.add(v.metadata().namespace());
    }
    for (String ns : namespaces) {
      for (VerticalPodAutoscalerCheckpoint c : store.list(VerticalPodAutoscalerCheckpoint.class, ns).items()) {
        VerticalPodAutoscaler vpa = byKey.get(ns + "/" + c.spec().vpaObjectName());
        if (vpa == null) {
          LOG.warn("VPA checkpoint {}: cannot load checkpoint to missing VPA object {}/{}", c.metadata().key(), ns,
              c.spec().vpaObjectName());
          continue;
        }
        ContainerUsageState s = new ContainerUsageState(now);
        try {
          s.loadFromCheckpoint(c.status());
        } catch (IllegalArgumentException e) {
          LOG.warn("VPA checkpoint {}: cannot load checkpoint for VPA {}: {}", c.metadata().key(),
              vpa.metadata().key(), e.getMessage());
          continue;
        }
        usage.computeIfAbsent(vpa.metadata().key(), k -> new LinkedHashMap<>()).put(c.spec().containerName(), s);
        LOG.debug("VPA {}: history of container {} restored from {}", vpa.metadata().key(),
            c.spec().containerName(), c.metadata().key());
      }
    }
  }

  private void recommend(VerticalPodAutoscaler vpa, Instant now) {
    String ns = vpa.metadata().namespace();
    LabelSelector selector;
    try {
      selector = VpaTargets.selector(store, ns, vpa.spec().targetRef());
    } catch (RuntimeException e) {
      LOG.debug("VPA {}: target not read: {}", vpa.metadata().key(), e.getMessage());
      return;
    }
    List<PodResourceMetrics> cpu;
    List<PodResourceMetrics> memoryMetrics;
    try {
      memoryMetrics = metrics.podResourceMetrics(ns, selector, "memory");
      cpu = metrics.podResourceMetrics(ns, selector, "cpu");
    } catch (RuntimeException e) {
      LOG.debug("VPA {}: metrics not read: {}", vpa.metadata().key(), e.getMessage());
      return;
    }
    Map<String, ContainerUsageState> states = usage.computeIfAbsent(vpa.metadata().key(), k -> new LinkedHashMap<>());
    Map<String, Long> memory = new HashMap<>();
    for (PodResourceMetrics m : memoryMetrics) {
      for (ContainerUsage c : m.containers()) {
        memory.put(m.podName() + "/" + c.name(), c.milliValue() / 1000);
      }
    }
    for (PodResourceMetrics m : cpu) {
      Optional<Pod> pod = store.get(Pod.class, ns, m.podName());
      if (pod.isEmpty()) {
        continue;
      }
      for (ContainerUsage c : m.containers()) {
        long request = 0;
        for (Container ct : pod.get().spec().containers()) {
          if (ct.name().equals(c.name())) {
            request = ct.resources().requests().milliCpu();
          }
        }
        ContainerUsageState s = states.computeIfAbsent(c.name(), k -> new ContainerUsageState(now));
        s.addCpuSample(now, c.milliValue(), request);
        s.addMemorySample(now, memory.getOrDefault(m.podName() + "/" + c.name(), 0L));
      }
    }
    for (Iterator<Oom> it = ooms.iterator(); it.hasNext(); ) {
      Oom oom = it.next();
      if (oom.namespace().equals(ns) && selector.matches(oom.labels())) {
        it.remove();
        states.computeIfAbsent(oom.container(), k -> new ContainerUsageState(now)).recordOom(oom.at(), oom.memory());
      }
    }
    if (states.isEmpty()) {
      return;
    }
    VerticalPodAutoscaler next = recommender.withRecommendation(vpa, states);
    if (!next.equals(vpa)) {
      store.updateStatus(next);
    }
  }

  private void writeCheckpoints(List<VerticalPodAutoscaler> vpas, Instant now) {
    List<VerticalPodAutoscaler> order = new ArrayList<>(vpas);
    order.removeIf(v -> !usage.containsKey(v.metadata().key()) || usage.get(v.metadata().key()).isEmpty());
    // upstream getVpasToCheckpoint: the oldest checkpoint first (never written is the oldest); then by key here
    order.sort(Comparator.comparing((VerticalPodAutoscaler v) -> checkpointWritten.getOrDefault(v.metadata().key(),
        Instant.MIN)).thenComparing(v -> v.metadata().key()));
    int written = 0;
    for (VerticalPodAutoscaler vpa : order) {
      if (written++ >= maxCheckpointedVpasPerRun) {
        break;
      }
      boolean all = true;
      for (Map.Entry<String, ContainerUsageState> e : usage.get(vpa.metadata().key()).entrySet()) {
        all &= writeCheckpoint(vpa, e.getKey(), e.getValue().saveToCheckpoint(now));
      }
      if (all) {
        checkpointWritten.put(vpa.metadata().key(), now);
      }
    }
  }

  private boolean writeCheckpoint(VerticalPodAutoscaler vpa, String container,
      VerticalPodAutoscalerCheckpointStatus status) {
    String ns = vpa.metadata().namespace();
    String name = checkpointName(vpa.metadata().name(), container);
    try {
      Optional<VerticalPodAutoscalerCheckpoint> old = store.get(VerticalPodAutoscalerCheckpoint.class, ns, name);
      VerticalPodAutoscalerCheckpointSpec spec = new VerticalPodAutoscalerCheckpointSpec(vpa.metadata().name(),
          container);
      if (old.isEmpty()) {
        store.create(new VerticalPodAutoscalerCheckpoint(ObjectMeta.builder().namespace(ns).name(name).build(), spec,
            status));
      } else {
        VerticalPodAutoscalerCheckpoint c = old.get();
        store.updateWithStatus(new VerticalPodAutoscalerCheckpoint(c.metadata(), spec, status));
      }
      return true;
    } catch (FleetKitException | IllegalArgumentException e) {
      LOG.warn("VPA {}: cannot save checkpoint for container {}: {}", vpa.metadata().key(), container,
          e.getMessage());
      return false;
    }
  }

  private void collectGarbage(Set<String> vpaKeys) {
    for (VerticalPodAutoscalerCheckpoint c : store.list(VerticalPodAutoscalerCheckpoint.class).items()) {
      String vpa = c.metadata().namespace() + "/" + c.spec().vpaObjectName();
      if (!vpaKeys.contains(vpa)) {
        try {
          store.delete(VerticalPodAutoscalerCheckpoint.class, c.metadata().namespace(), c.metadata().name());
          LOG.debug("orphaned VPA checkpoint {} deleted", c.metadata().key());
        } catch (FleetKitException e) {
          LOG.warn("failed to delete orphaned checkpoint {}: {}", c.metadata().key(), e.getMessage());
        }
      }
    }
  }

  /** Options of a {@link VpaRecommenderLoop}. */
  public static final class Builder {
    private final ObjectStore store;
    private final MetricsSource metrics;
    private final Clock clock;
    private VpaRecommender recommender = VpaRecommender.DEFAULT;
    private boolean checkpoints = true;
    private int maxCheckpointedVpasPerRun = Integer.MAX_VALUE;
    private Duration checkpointsGcInterval = Duration.ofMinutes(10);

    private Builder(ObjectStore store, MetricsSource metrics, Clock clock) {
      this.store = Objects.requireNonNull(store, "store");
      this.metrics = Objects.requireNonNull(metrics, "metrics");
      this.clock = Objects.requireNonNull(clock, "clock");
    }

    /** The estimators ({@link VpaRecommender#DEFAULT}: upstream's). */
    public Builder recommender(VpaRecommender r) {
      this.recommender = Objects.requireNonNull(r, "recommender");
      return this;
    }

    /**
     * Whether histories are restored from and written to checkpoints (default true, as upstream's
     * {@code --storage=checkpoint}).
     */
    public Builder checkpoints(boolean on) {
      this.checkpoints = on;
      return this;
    }

    /**
     * How many VPAs' checkpoints a run writes at most, those written longest ago first (default: all; upstream
     * bounds the writes by {@code --checkpoints-timeout} and writes at least {@code --min-checkpoints}).
     */
    public Builder maxCheckpointedVpasPerRun(int n) {
      if (n < 1) {
        throw new IllegalArgumentException("vpa recommender: maxCheckpointedVpasPerRun " + n + " must be >= 1");
      }
      this.maxCheckpointedVpasPerRun = n;
      return this;
    }

    /** How often checkpoints of deleted VPAs are deleted ({@code --checkpoints-gc-interval}, default 10 min). */
    public Builder checkpointsGcInterval(Duration d) {
      if (d.isNegative() || d.isZero()) {
        throw new IllegalArgumentException("vpa recommender: checkpointsGcInterval " + d + " must be > 0");
      }
      this.checkpointsGcInterval = d;
      return this;
    }

    public VpaRecommenderLoop build() {
      return new VpaRecommenderLoop(this);
    }
  }
}
