package io.fleetkit.simulator;

import io.fleetkit.api.apps.Deployment;
import io.fleetkit.api.apps.ReplicaSet;
import io.fleetkit.api.apps.StatefulSet;
import io.fleetkit.api.batch.Job;
import io.fleetkit.api.batch.JobCondition;
import io.fleetkit.api.core.ContainerStatus;
import io.fleetkit.api.core.LoadBalancerIngress;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.NodeCondition;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.ReplicationController;
import io.fleetkit.api.gateway.HTTPBackendRef;
import io.fleetkit.api.gateway.HTTPRoute;
import io.fleetkit.api.gateway.HTTPRouteRule;
import io.fleetkit.api.core.PodCondition;
import io.fleetkit.api.core.Service;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.meta.OwnerReference;
import io.fleetkit.api.scheduling.Taint;
import io.fleetkit.api.scheduling.TaintEffect;
import io.fleetkit.api.rollouts.AnalysisRun;
import io.fleetkit.api.rollouts.AnalysisRunStatus;
import io.fleetkit.api.rollouts.Rollout;
import io.fleetkit.api.rollouts.RolloutStatus;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.store.Watch;
import io.fleetkit.api.store.WatchEventType;
import io.fleetkit.queueing.controller.QueueLabels;
import io.fleetkit.reconcile.node.TaintEvictionController;
import java.time.Duration;
import java.util.ArrayList;
import io.fleetkit.api.events.EventRecorder;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Set;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/** Turns store changes into timeline events by comparing each object with the last version it saw. */
final class TimelineRecorder implements AutoCloseable {
  private final ObjectStore store;
  private final Supplier<Duration> elapsed;
  private final boolean podEvents;
  private final List<TimelineEvent> events = new ArrayList<>();
  /** The last version seen of each pod, kept only with pod events. */
  private final Map<String, Pod> pods = new HashMap<>();
  /** The pods being deleted gracefully (their deletion was recorded when they were marked), by key. */
  private final Set<String> terminating = new HashSet<>();
  private final Map<String, Node> nodes = new HashMap<>();
  private final Map<String, String> workloads = new HashMap<>();
  private final List<Watch> watches = new ArrayList<>();
  private final Set<String> failingCreates = new HashSet<>();
  /** The reasons of {@code QuotaReserved=False} that take a queued Job's quota away. */
  private static final Set<String> EVICTION_REASONS = Set.of(QueueLabels.REASON_PREEMPTED,
      QueueLabels.REASON_PODS_READY_TIMEOUT, QueueLabels.REASON_ADMISSION_CHECK, QueueLabels.REASON_DEACTIVATED,
      QueueLabels.REASON_FAILED_TO_START, QueueLabels.REASON_NODE_FAILURES);
  /** Per Job, the reason and transition time of the last eviction recorded. */
  private final Map<String, String> evictions = new HashMap<>();
  /** The ingress points of each Service's load balancer, by object id, while it has one. */
  private final Map<String, List<String>> balancers = new HashMap<>();
  /** The timeline kind of a queued Job waiting for its admission checks. */
  static final String CHECKS_WAIT = "QueueWaitingForChecks";
  /** Per Job, the transition time of the last wait for admission checks recorded. */
  private final Map<String, String> checkWaits = new HashMap<>();
  /** The Warning events put on the timeline: object id, reason and note. */
  private final Set<List<String>> warned = new HashSet<>();

  TimelineRecorder(ObjectStore store, Supplier<Duration> elapsed, boolean podEvents) {
    this.store = store;
    this.elapsed = elapsed;
    this.podEvents = podEvents;
    watches.add(store.watch(Node.class, "0", e -> node(e.type(), e.object())));
    watches.add(store.watch(Pod.class, "0", e -> pod(e.type(), e.object())));
    watches.add(store.watch(Deployment.class, "0", e -> {
      if (e.type() != WatchEventType.DELETED) {
        Deployment d = e.object();
        workload("Deployment", d.metadata().key(), d.status().readyReplicas() + "/" + d.spec().replicas()
            + " ready");
      }
    }));
    watches.add(store.watch(StatefulSet.class, "0", e -> {
      if (e.type() != WatchEventType.DELETED) {
        StatefulSet s = e.object();
        workload("StatefulSet", s.metadata().key(), s.status().readyReplicas() + "/" + s.spec().replicas()
            + " ready");
      }
    }));
    watches.add(store.watch(ReplicationController.class, "0", e -> {
      if (e.type() != WatchEventType.DELETED) {
        ReplicationController rc = e.object();
        workload("ReplicationController", rc.metadata().key(), rc.status().readyReplicas() + "/"
            + rc.spec().replicas() + " ready");
      }
    }));
    watches.add(store.watch(Rollout.class, "0", e -> {
      if (e.type() != WatchEventType.DELETED) {
        RolloutStatus st = e.object().status();
        String step = RolloutSummary.stepProgress(e.object());
        workload("Rollout", e.object().metadata().key(), st.phase() + (step == null ? "" : ", step " + step)
            + ", weight " + st.canaryWeight() + "%"
            + (st.stableRs().isEmpty() ? "" : ", stable " + st.stableRs())
            + (st.message().isEmpty() ? "" : ": " + st.message()));
      }
    }));
    watches.add(store.watch(AnalysisRun.class, "0", e -> {
      if (e.type() != WatchEventType.DELETED) {
        AnalysisRunStatus st = e.object().status();
        workload("AnalysisRun", e.object().metadata().key(), st.phase()
            + (st.message().isEmpty() ? "" : ": " + st.message()));
      }
    }));
    watches.add(store.watch(Service.class, "0", e -> loadBalancer(e.type(), e.object())));
    watches.add(store.watch(HTTPRoute.class, "0", e -> {
      if (e.type() != WatchEventType.DELETED) {
        routeWeights(e.object());
      }
    }));
    watches.add(store.watch(Job.class, "0", e -> {
      if (e.type() != WatchEventType.DELETED) {
        Job j = e.object();
        // finished pods the controller saw but has not yet counted (upstream's uncountedTerminatedPods, moved to the
        // counts by its next sync) are named, so that a step where active drops and nothing is counted reads right
        int uncounted = j.status().uncountedTerminatedPods().succeeded().size()
            + j.status().uncountedTerminatedPods().failed().size();
        workload("Job", j.metadata().key(), "active " + j.status().active() + ", succeeded "
            + j.status().succeeded() + ", failed " + j.status().failed()
            + (uncounted == 0 ? "" : ", " + uncounted + " finished not yet counted"));
        queueEviction(j);
        checksWait(j);
      }
    }));
  }

  /**
   * The controllers' events as timeline entries: {@code FailedCreate} (the denial as message) the first time a
   * workload fails to create a pod, and again only after one of its creates succeeded, so that retries with
   * backoff do not flood the timeline.
   */
  EventRecorder controllerEvents() {
    return (regarding, related, type, reason, action, note) -> {
      String id = regarding.kind() + "/" + (regarding.namespace().isEmpty() ? "" : regarding.namespace() + "/")
          + regarding.name();
      if (EventRecorder.FAILED_CREATE.equals(reason)) {
        if (failingCreates.add(id)) {
          add(EventRecorder.FAILED_CREATE, id, note);
        }
      } else if (EventRecorder.SUCCESSFUL_CREATE.equals(reason)) {
        failingCreates.remove(id);
      }
    };
  }

  /**
   * Warning events as timeline entries named by their reason ({@code ProvisioningFailed}, {@code FailedBinding},
   * ...), each once per object, reason and message, so that retries with backoff do not flood the timeline while a
   * new cause of failure still shows; Normal events are not recorded.
   */
  EventRecorder warningEvents() {
    return (regarding, related, type, reason, action, note) -> {
      if (!io.fleetkit.api.events.Event.WARNING.equals(type)) {
        return;
      }
      String id = regarding.kind() + "/" + (regarding.namespace().isEmpty() ? "" : regarding.namespace() + "/")
          + regarding.name();
      if (warned.add(List.of(id, reason, note))) {
        add(reason, id, note);
      }
    };
  }

  void add(String kind, String object, String message) {
    events.add(new TimelineEvent(elapsed.get(), kind, object, message));
  }

  List<TimelineEvent> events() {
    return List.copyOf(events);
  }

  int size() {
    return events.size();
  }

  /**
   * {@code LoadBalancer} when a Service's {@code status.loadBalancer} gets or changes its ingress points ("at
   * 203.0.113.1"), and when they go ("released 203.0.113.1").
   */
  private void loadBalancer(WatchEventType type, Service s) {
    String id = "Service/" + s.metadata().key();
    List<String> now = new ArrayList<>();
    if (type != WatchEventType.DELETED && s.status().loadBalancer() != null) {
      for (LoadBalancerIngress i : s.status().loadBalancer().ingress()) {
        now.add(i.ip().isEmpty() ? i.hostname() : i.ip());
      }
    }
    List<String> before = balancers.getOrDefault(id, List.of());
    if (now.equals(before)) {
      return;
    }
    if (now.isEmpty()) {
      balancers.remove(id);
      add("LoadBalancer", id, "released " + String.join(", ", before));
    } else {
      balancers.put(id, List.copyOf(now));
      add("LoadBalancer", id, "at " + String.join(", ", now));
    }
  }

  /** {@code RouteWeights} when the backend weights of an HTTPRoute change (e.g. set by a canary's router). */
  private void routeWeights(HTTPRoute route) {
    List<String> parts = new ArrayList<>();
    for (HTTPRouteRule rule : route.spec().rules()) {
      List<String> refs = new ArrayList<>();
      for (HTTPBackendRef b : rule.backendRefs()) {
        refs.add(b.name() + " " + b.weight());
      }
      parts.add(String.join(", ", refs));
    }
    String id = "HTTPRoute/" + route.metadata().key();
    String weights = String.join("; ", parts);
    String old = workloads.put(id, weights);
    if (old != null && !old.equals(weights)) {
      add("RouteWeights", id, weights);
    }
  }

  /**
   * {@code QueueEviction} when a queued Job loses its quota: its {@code QuotaReserved} condition turns False with a
   * reason of eviction (preempted, {@code waitForPodsReady}'s timeout, an admission check's Retry, deactivation, a
   * failed start, a failed node of its topology assignment without replacement); the message is the reason and the
   * condition's message.
   */
  private void queueEviction(Job j) {
    JobCondition c = j.status().condition(QueueLabels.QUOTA_RESERVED);
    if (c == null || c.status() != ConditionStatus.False || !EVICTION_REASONS.contains(c.reason())) {
      return;
    }
    String id = "Job/" + j.metadata().key();
    String at = c.reason() + "@" + c.lastTransitionTime();
    if (!at.equals(evictions.put(id, at))) {
      add("QueueEviction", id, c.reason() + ": " + c.message());
    }
  }

  /**
   * {@code QueueWaitingForChecks} when a queued Job's quota is reserved and it waits, suspended, for its admission
   * checks ({@code QuotaReserved=True} reason {@code WaitingForAdmissionChecks}): once per reservation, the message
   * naming the ClusterQueue and each check's state.
   */
  private void checksWait(Job j) {
    JobCondition c = j.status().condition(QueueLabels.QUOTA_RESERVED);
    if (c == null || c.status() != ConditionStatus.True
        || !QueueLabels.REASON_WAITING_FOR_CHECKS.equals(c.reason())) {
      return;
    }
    String id = "Job/" + j.metadata().key();
    String at = c.reason() + "@" + c.lastTransitionTime();
    if (!at.equals(checkWaits.put(id, at))) {
      add(CHECKS_WAIT, id, c.message());
    }
  }

  private void workload(String kind, String key, String state) {
    String id = kind + "/" + key;
    if (!state.equals(workloads.put(id, state))) {
      add(kind + "Status", id, state);
    }
  }

  private void node(WatchEventType type, Node n) {
    String id = "Node/" + n.name();
    if (type == WatchEventType.DELETED) {
      nodes.remove(n.name());
      add("NodeDeleted", id, "");
      return;
    }
    Node old = nodes.put(n.name(), n);
    ConditionStatus before = ready(old);
    ConditionStatus after = ready(n);
    if (before != after && after != null) {
      NodeCondition c = n.status().condition(NodeCondition.READY);
      add("Node" + (after == ConditionStatus.True ? "Ready" : after == ConditionStatus.Unknown ? "Unreachable"
          : "NotReady"), id, "Ready=" + after + (c == null || c.reason().isEmpty() ? "" : " (" + c.reason() + ")"));
    }
    // the kubelet's eviction manager (only with a memory model): under pressure, and out of it again
    NodeCondition memory = n.status().condition(NodeCondition.MEMORY_PRESSURE);
    NodeCondition memoryBefore = old == null ? null : old.status().condition(NodeCondition.MEMORY_PRESSURE);
    boolean pressure = memory != null && memory.status() == ConditionStatus.True;
    boolean pressureBefore = memoryBefore != null && memoryBefore.status() == ConditionStatus.True;
    if (pressure != pressureBefore && memory != null && (pressure || memory.status() == ConditionStatus.False)) {
      add(pressure ? "NodeMemoryPressure" : "NodeMemoryPressureOver", id, "MemoryPressure=" + memory.status() + " ("
          + memory.reason() + ")");
    }
    List<Taint> oldTaints = old == null ? List.of() : old.spec().taints();
    for (Taint t : n.spec().taints()) {
      if (t.effect() == TaintEffect.NoExecute && !containsKey(oldTaints, t)) {
        add("NodeTainted", id, t.toString());
      }
    }
    for (Taint t : oldTaints) {
      if (t.effect() == TaintEffect.NoExecute && !containsKey(n.spec().taints(), t)) {
        add("NodeUntainted", id, t.toString());
      }
    }
  }

  private static boolean containsKey(List<Taint> taints, Taint t) {
    for (Taint x : taints) {
      if (x.key().equals(t.key()) && x.effect() == t.effect()) {
        return true;
      }
    }
    return false;
  }

  private static @Nullable ConditionStatus ready(@Nullable Node n) {
    NodeCondition c = n == null ? null : n.status().condition(NodeCondition.READY);
    return c == null ? null : c.status();
  }

  private void pod(WatchEventType type, Pod p) {
    String key = p.metadata().key();
    boolean marked = type != WatchEventType.DELETED && p.metadata().deletionTimestamp() != null;
    if (!podEvents && type != WatchEventType.DELETED && (!marked || terminating.contains(key))) {
      return; // without pod events only deletions (by taint eviction) are recorded
    }
    String id = "Pod/" + key;
    if (type == WatchEventType.DELETED || marked) {
      // a deletion is recorded once, when it is asked for: the mark of a pod deleted gracefully, else its removal.
      // Without pod events no pod is kept: the event carries the pod's state, the one last seen
      Pod old = podEvents ? (marked ? pods.get(key) : pods.remove(key)) : null;
      boolean recorded = marked ? !terminating.add(key) : terminating.remove(key);
      if (!recorded) {
        PodCondition target = (old != null ? old : p).status().condition(PodCondition.DISRUPTION_TARGET);
        if (marked) {
          target = p.status().condition(PodCondition.DISRUPTION_TARGET);
        }
        if (podEvents || (target != null && TaintEvictionController.REASON.equals(target.reason()))) {
          boolean evicted = target != null && target.status() == ConditionStatus.True;
          add(evicted ? "PodEvicted" : "PodDeleted", id, evicted ? "from " + p.spec().nodeName() + " ("
              + target.reason() + ")" : deletedBy(p));
        }
      }
      if (type == WatchEventType.DELETED) {
        return;
      }
      if (!podEvents) {
        return;
      }
    }
    Pod old = pods.put(key, p);
    if (old == null) {
      OwnerReference ref = p.metadata().controllerRef();
      add("PodCreated", id, ref == null ? "" : "by " + ref.kind() + "/" + ref.name());
    }
    PodCondition failed = schedulingFailed(p);
    if (failed != null) {
      PodCondition before = old == null ? null : schedulingFailed(old);
      if (before == null || !before.reason().equals(failed.reason())) {
        // once per pending episode and reason: the message changes with the cluster (0/n nodes ...) on each retry
        add("PodUnschedulable", id, failed.reason() + ": " + failed.message());
      }
    }
    if (p.isBound() && (old == null || !old.isBound())) {
      add("PodScheduled", id, "to " + p.spec().nodeName());
    }
    boolean wasReady = old != null && old.isReady();
    if (p.isReady() != wasReady) {
      add(p.isReady() ? "PodReady" : "PodNotReady", id, p.isBound() ? "on " + p.spec().nodeName() : "");
    }
    if (p.isTerminal() && (old == null || !old.isTerminal())) {
      add("Pod" + p.status().phase(), id, endDetails(p));
    }
    Map<String, ContainerStatus> before = new HashMap<>();
    if (old != null) {
      for (ContainerStatus c : old.status().containerStatuses()) {
        before.put(c.name(), c);
      }
    }
    for (ContainerStatus c : p.status().containerStatuses()) {
      ContainerStatus b = before.get(c.name());
      if (b != null && c.restartCount() > b.restartCount()) {
        boolean oom = c.lastState() != null && "OOMKilled".equals(c.lastState().reason());
        add("ContainerRestarted", id, c.name() + " restart " + c.restartCount() + (oom ? " (OOMKilled)" : ""));
      }
      boolean backoff = "CrashLoopBackOff".equals(c.state().reason());
      if (backoff && (b == null || !Objects.equals(b.state().reason(), c.state().reason()))) {
        add("CrashLoopBackOff", id, c.name() + " after " + c.restartCount() + " restarts");
      }
    }
  }

  /**
   * Who deletes {@code p} and why, as far as the store shows at the deletion: its ReplicaSet, ReplicationController
   * or StatefulSet scaling down (the controller deletes the pods beyond its new count while its status still counts
   * them: "by ReplicaSet/web-b5fc9455c, scaled from 6 to 5"), the garbage collector when that controller is gone or
   * being deleted, the pod garbage collector when the pod's node is gone; empty when none of these holds (a client's
   * deletion, say).
   */
  private String deletedBy(Pod p) {
    OwnerReference ref = p.metadata().controllerRef();
    String ns = p.metadata().namespace();
    ApiObject<?> owner = null;
    boolean scaling = ref != null;
    if (ref != null) {
      switch (ref.kind()) {
        case ReplicaSet.KIND -> owner = store.get(ReplicaSet.class, ns, ref.name()).orElse(null);
        case ReplicationController.KIND -> owner = store.get(ReplicationController.class, ns, ref.name()).orElse(null);
        case StatefulSet.KIND -> owner = store.get(StatefulSet.class, ns, ref.name()).orElse(null);
        default -> scaling = false;
      }
    }
    if (scaling) {
      String name = ref.kind() + "/" + ref.name();
      if (owner == null || !owner.metadata().uid().equals(ref.uid()) || owner.metadata().deletionTimestamp() != null) {
        return "by the garbage collector, " + name + " is " + (owner == null ? "gone" : "being deleted");
      }
      int want;
      int had;
      if (owner instanceof ReplicaSet rs) {
        want = rs.spec().replicas();
        had = rs.status().replicas();
      } else if (owner instanceof ReplicationController rc) {
        want = rc.spec().replicas();
        had = rc.status().replicas();
      } else {
        want = ((StatefulSet) owner).spec().replicas();
        had = ((StatefulSet) owner).status().replicas();
      }
      if (want < had) {
        return "by " + name + ", scaled from " + had + " to " + want;
      }
    }
    String node = p.spec().nodeName();
    if (!node.isEmpty() && store.get(Node.class, "", node).isEmpty()) {
      return "by the pod garbage collector, node " + node + " is gone";
    }
    return "";
  }

  /** The pod's {@code PodScheduled=False} condition while it is not on a node (the scheduler's last failure), or null. */
  private static @Nullable PodCondition schedulingFailed(Pod p) {
    if (p.isBound()) {
      return null;
    }
    PodCondition c = p.status().condition(PodCondition.POD_SCHEDULED);
    return c != null && c.status() == ConditionStatus.False ? c : null;
  }

  @Override
  public void close() {
    for (Watch w : watches) {
      w.close();
    }
  }

  /**
   * Why a pod ended, in the timeline's words: its status's reason (Evicted, DeadlineExceeded, ...), its containers'
   * exit codes and reasons (distinct, in container order), and whether it was stopped because it was deleted (a pod
   * scaled down or evicted ends Failed or Succeeded by its containers' exit codes, as a kubelet ends
   * a deleted pod).
   */
  static String endDetails(Pod p) {
    List<String> parts = new ArrayList<>();
    if (!p.status().reason().isEmpty()) {
      parts.add(p.status().reason());
    }
    java.util.Set<String> exits = new java.util.LinkedHashSet<>();
    for (ContainerStatus c : p.status().containerStatuses()) {
      io.fleetkit.api.core.ContainerState st = c.state();
      if (st != null && st.exitCode() != null) {
        exits.add("exit code " + st.exitCode() + (st.reason().isEmpty() ? "" : " (" + st.reason() + ")"));
      }
    }
    parts.addAll(exits);
    if (p.metadata().deletionTimestamp() != null) {
      parts.add("stopped on its deletion");
    }
    return String.join(", ", parts);
  }
}
