package io.fleetkit.autoscale.cluster;

import io.fleetkit.api.events.Event;
import io.fleetkit.api.events.EventRecorder;
import io.fleetkit.api.events.ObjectReference;
import io.fleetkit.api.text.GoFloats;
import io.fleetkit.api.time.GoDurations;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * The events the cluster autoscaler records on its status ConfigMap ({@code kube-system/cluster-autoscaler-status}
 * by default): upstream's {@code LogEventRecorder} ({@code clusterstate/utils/status.go}), through which the
 * autoscaler's main decisions reach users who cannot read its log (kubernetes/autoscaler {@code cluster-autoscaler},
 * commit 0e20a385). Each is recorded once per decision, about
 * {@code ObjectReference("v1", "ConfigMap", namespace, name, "", "")}:
 * <ul>
 *   <li>{@value #SCALED_UP_GROUP} (Normal, {@code scaleup/orchestrator/executor.go}) before a pool grows,
 *       {@code Scale-up: setting group small size to 3 instead of 1 (max: 10)}, and once it has grown,
 *       {@code Scale-up: group small size set to 3 instead of 1 (max: 10)};
 *   <li>{@value #SCALE_UP_FAILED} (Warning, {@code clusterstate.go} {@code handleInstanceCreationErrorsForNodeGroup})
 *       for the machines of one error the cloud refused,
 *       {@code Failed adding 2 nodes to group small due to OutOfResource.STOCKOUT; source errors: no machines};
 *   <li>{@value #SCALE_UP_TIMED_OUT} (Warning, {@code clusterstate.go} {@code updateScaleRequests}) when a pool's
 *       requested nodes did not become ready in time, {@code Nodes added to group small failed to register within
 *       15m10s};
 *   <li>{@value #MAX_NODES_TOTAL_REACHED} (Warning, {@code static_autoscaler.go}, the orchestrator's
 *       {@code GetCappedNewNodeCount}), {@code Max total nodes in cluster reached: 10};
 *   <li>{@value #CLUSTER_UNHEALTHY} (Warning, {@code static_autoscaler.go}) in each loop that halts,
 *       {@code Cluster is unhealthy};
 *   <li>{@value #SCALE_DOWN_EMPTY} (Normal, {@code scaledown/actuation/actuator.go}, {@code delete_in_batch.go}) when
 *       the deletion of an empty node starts, {@code Scale-down: removing empty node "n1"}, and when the node is gone,
 *       {@code Scale-down: empty node n1 removed};
 *   <li>{@value #SCALE_DOWN} (Normal, the same files) when a drain starts, {@code Scale-down: removing node n2,
 *       utilization: {0.25 0.5 0 0 memory 0.5}, pods to reschedule: web-0,web-1} (the utilization as Go prints
 *       upstream's {@code utilization.Info}: CPU, memory, GPU, DRA devices, the resource that decided, its value),
 *       and when the drained node is gone, {@code Scale-down: node n2 removed with drain}.
 * </ul>
 * The events.k8s.io action, which upstream's legacy recorder does not have, is {@code ScaleUp} for the scale-up
 * events, {@code ScaleDown} for the scale-down ones and {@code Autoscale} for {@value #CLUSTER_UNHEALTHY}.
 *
 * <p>Without a recorder, or with {@code --write-status-configmap=false}
 * ({@link AutoscalerOptions#writeStatusConfigMap()}), nothing is recorded and no note is built.
 *
 * <p>Upstream builds its recorder with {@code --record-duplicated-events=false} by default
 * ({@code utils/kubernetes/factory.go}): a spam filter of burst {@value #SPAM_BURST}, refilled at one event per 5
 * minutes, over {@value #LRU_CACHE_SIZE} keys ({@link #spamKey}), so that a status event whose note repeats within 5
 * minutes (a halted loop's {@code Cluster is unhealthy}) is shown once. The autoscaler records every decision; a
 * caller who wants upstream's filtering gives it such a recorder (with FleetKit's observability module:
 * {@code EventCorrelator.builder().burst(SPAM_BURST).qps(SPAM_QPS).lruCacheSize(LRU_CACHE_SIZE)
 * .spamKey(StatusEvents::spamKey)}).
 *
 * <p>Immutable and thread-safe if the recorder is.
 */
public final class StatusEvents {
  /** A pool is being grown, or was grown (Normal). */
  public static final String SCALED_UP_GROUP = "ScaledUpGroup";
  /** The cloud refused machines of a scale-up (Warning). */
  public static final String SCALE_UP_FAILED = "ScaleUpFailed";
  /** A pool's requested nodes did not become ready within its {@code maxNodeProvisionTime} (Warning). */
  public static final String SCALE_UP_TIMED_OUT = "ScaleUpTimedOut";
  /** The cluster is at {@code maxNodesTotal} (Warning). */
  public static final String MAX_NODES_TOTAL_REACHED = "MaxNodesTotalReached";
  /** The loop halted: too many nodes are unready (Warning). */
  public static final String CLUSTER_UNHEALTHY = "ClusterUnhealthy";
  /** An empty node is being removed, or was removed (Normal). */
  public static final String SCALE_DOWN_EMPTY = "ScaleDownEmpty";
  /** A node is being drained and removed, or was removed (Normal). */
  public static final String SCALE_DOWN = "ScaleDown";

  /** Upstream's {@code defaultBurstSize}: events per spam key before the filter drops them. */
  public static final int SPAM_BURST = 1;
  /** Upstream's {@code defaultQPS}: the spam filter's refill, one event per key per 5 minutes. */
  public static final double SPAM_QPS = 1.0 / 300;
  /** Upstream's {@code defaultLRUCache}: the spam keys remembered. */
  public static final int LRU_CACHE_SIZE = 8192;

  private static final String SCALE_UP_ACTION = "ScaleUp";
  private static final String SCALE_DOWN_ACTION = "ScaleDown";
  private static final String AUTOSCALE_ACTION = "Autoscale";

  /** Records nothing. */
  static final StatusEvents NONE = new StatusEvents(EventRecorder.NOOP,
      configMap("kube-system", "cluster-autoscaler-status"));

  private final EventRecorder recorder;
  private final ObjectReference configMap;

  private StatusEvents(EventRecorder recorder, ObjectReference configMap) {
    this.recorder = recorder;
    this.configMap = configMap;
  }

  /**
   * The status events of an autoscaler with {@code options}, recorded with {@code recorder} (as given: the caller
   * makes it best effort); {@link #NONE} when it is {@link EventRecorder#NOOP} or the options do not write the status
   * ConfigMap.
   */
  static StatusEvents of(EventRecorder recorder, AutoscalerOptions options) {
    Objects.requireNonNull(recorder, "recorder");
    if (recorder == EventRecorder.NOOP || !options.writeStatusConfigMap()) {
      return NONE;
    }
    return new StatusEvents(recorder, configMap(options.configNamespace(), options.statusConfigMapName()));
  }

  private static ObjectReference configMap(String namespace, String name) {
    return new ObjectReference("v1", "ConfigMap", namespace, name, "", "");
  }

  /** Whether events are recorded: callers build what they need for a note only then. */
  boolean enabled() {
    return recorder != EventRecorder.NOOP;
  }

  /** The ConfigMap the events are about. */
  ObjectReference configMap() {
    return configMap;
  }

  /** Before {@code s}'s pool grows (upstream's {@code executeScaleUp}, before {@code IncreaseSize}). */
  void scalingUp(PoolScaleUp s) {
    if (enabled()) {
      record(Event.NORMAL, SCALED_UP_GROUP, SCALE_UP_ACTION, "Scale-up: setting group " + s.pool() + " size to "
          + s.newSize() + " instead of " + s.currentSize() + " (max: " + s.maxSize() + ")");
    }
  }

  /** Once {@code s}'s pool has grown (upstream's {@code executeScaleUp}, after {@code IncreaseSize}). */
  void scaledUp(PoolScaleUp s) {
    if (enabled()) {
      record(Event.NORMAL, SCALED_UP_GROUP, SCALE_UP_ACTION, "Scale-up: group " + s.pool() + " size set to "
          + s.newSize() + " instead of " + s.currentSize() + " (max: " + s.maxSize() + ")");
    }
  }

  /** The machines of {@code f} the cloud refused ({@link ScaleUpFailure#eventMessage}). */
  void scaleUpFailed(ScaleUpFailure f) {
    if (enabled()) {
      record(Event.WARNING, SCALE_UP_FAILED, SCALE_UP_ACTION, f.eventMessage());
    }
  }

  /** {@code pool}'s requested nodes are not ready {@code since} after their request. */
  void scaleUpTimedOut(String pool, Duration since) {
    if (enabled()) {
      record(Event.WARNING, SCALE_UP_TIMED_OUT, SCALE_UP_ACTION, "Nodes added to group " + pool
          + " failed to register within " + GoDurations.format(since));
    }
  }

  /** The cluster is at {@code maxNodesTotal}. */
  void maxNodesTotalReached(int maxNodesTotal) {
    if (enabled()) {
      record(Event.WARNING, MAX_NODES_TOTAL_REACHED, SCALE_UP_ACTION, "Max total nodes in cluster reached: "
          + maxNodesTotal);
    }
  }

  /** The loop halted on an unhealthy cluster. */
  void clusterUnhealthy() {
    if (enabled()) {
      record(Event.WARNING, CLUSTER_UNHEALTHY, AUTOSCALE_ACTION, "Cluster is unhealthy");
    }
  }

  /** The deletion of empty {@code node} starts (the node is tainted). */
  void removingEmptyNode(String node) {
    if (enabled()) {
      // Go's %q of a node name (no character of a DNS name needs escaping)
      record(Event.NORMAL, SCALE_DOWN_EMPTY, SCALE_DOWN_ACTION, "Scale-down: removing empty node \"" + node + "\"");
    }
  }

  /** The drain of {@code node} starts (the node is tainted), its pods named {@code podNames} to move. */
  void removingNode(String node, NodeUtilization utilization, List<String> podNames) {
    if (enabled()) {
      record(Event.NORMAL, SCALE_DOWN, SCALE_DOWN_ACTION, "Scale-down: removing node " + node + ", utilization: "
          + utilization(utilization) + ", pods to reschedule: " + String.join(",", podNames));
    }
  }

  /** {@code node} is deleted, after a drain or as an empty node. */
  void removed(String node, boolean drained) {
    if (enabled()) {
      if (drained) {
        record(Event.NORMAL, SCALE_DOWN, SCALE_DOWN_ACTION, "Scale-down: node " + node + " removed with drain");
      } else {
        record(Event.NORMAL, SCALE_DOWN_EMPTY, SCALE_DOWN_ACTION, "Scale-down: empty node " + node + " removed");
      }
    }
  }

  private void record(String type, String reason, String action, String note) {
    recorder.event(configMap, null, type, reason, action, note);
  }

  /**
   * Upstream's {@code utilization.Info} as Go's {@code %v} prints it, {@code {CpuUtil MemUtil GpuUtil
   * DynamicResourceUtil ResourceName Utilization}}: a GPU node has only its GPU utilization, a node with DRA devices
   * only its most used device pool's, any other node its CPU and memory utilization.
   */
  static String utilization(NodeUtilization u) {
    double cpu = 0;
    double memory = 0;
    double gpu = 0;
    double devices = 0;
    if (u.gpuNode()) {
      gpu = u.gpu();
    } else if (u.devices() != null) {
      devices = u.value();
    } else {
      cpu = u.cpu();
      memory = u.memory();
    }
    return "{" + GoFloats.formatFloat(cpu) + " " + GoFloats.formatFloat(memory) + " " + GoFloats.formatFloat(gpu) + " " + GoFloats.formatFloat(devices) + " "
        + u.resourceName() + " " + GoFloats.formatFloat(u.value()) + "}";
  }

  /**
   * Upstream's spam-filter key ({@code getCustomSpamKeyFunc}): the note alone for an event about the default status
   * ConfigMap {@code kube-system/cluster-autoscaler-status} (so that each distinct status event passes), otherwise the
   * reason, the reporting controller and instance and the regarded object (so that each reason about an object
   * passes once per refill).
   */
  public static String spamKey(Event e) {
    ObjectReference r = e.regarding();
    if (r.name().equals("cluster-autoscaler-status") && r.namespace().equals("kube-system")
        && r.kind().equals("ConfigMap")) {
      return e.note();
    }
    return String.join("", e.reason(), e.reportingController(), e.reportingInstance(), r.kind(), r.namespace(),
        r.name(), r.uid(), r.apiVersion());
  }
}
