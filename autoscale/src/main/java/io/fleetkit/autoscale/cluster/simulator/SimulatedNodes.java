package io.fleetkit.autoscale.cluster.simulator;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.NodeCondition;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.scheduling.Taint;
import io.fleetkit.api.scheduling.TaintEffect;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Simulated machine start-up for the autoscalers. A node the autoscaler launches enters the store at once, but
 * {@code NotReady} and tainted {@value #NOT_READY_TAINT}{@code :NoSchedule} (as the node lifecycle controller
 * taints a node that is not ready), with the instant it will be ready in annotation {@value #READY_AT}. The
 * autoscaler that launched it flips it to {@code Ready} (condition set, taint removed) on its first loop at or
 * after that instant, so no pod can be bound to it earlier. Stateless.
 */
public final class SimulatedNodes {
  /** The taint a node carries while it is not ready. */
  public static final String NOT_READY_TAINT = "node.kubernetes.io/not-ready";
  /** The taint the node lifecycle controller puts on a node whose Ready condition is Unknown. */
  public static final String UNREACHABLE_TAINT = "node.kubernetes.io/unreachable";
  /** When a starting node will be ready (ISO-8601 instant). */
  public static final String READY_AT = "autoscale.fleetkit.io/ready-at";
  /** When the node was requested from the (simulated) provider (ISO-8601 instant). */
  public static final String REQUESTED_AT = "autoscale.fleetkit.io/requested-at";
  /** The well-known hostname label every launched node gets, naming it. */
  public static final String HOSTNAME_LABEL = "kubernetes.io/hostname";

  private SimulatedNodes() {}

  /**
   * {@code node} as just launched at {@code now}: Ready at once when {@code startupDelay} is zero, else NotReady,
   * tainted and annotated with its ready time. Gets the hostname label and the requested-at annotation either way.
   */
  public static Node launched(Node node, Instant now, Duration startupDelay) {
    Node.Builder b = node.toBuilder().label(HOSTNAME_LABEL, node.name()).annotation(REQUESTED_AT, now.toString());
    List<NodeCondition> conditions = new ArrayList<>();
    for (NodeCondition c : node.status().conditions()) {
      if (!c.type().equals(NodeCondition.READY)) {
        conditions.add(c);
      }
    }
    if (startupDelay.isZero() || startupDelay.isNegative()) {
      conditions.add(NodeCondition.ready());
      return b.conditions(conditions).build();
    }
    conditions.add(new NodeCondition(NodeCondition.READY, ConditionStatus.False, "KubeletNotReady",
        "node is starting", now, now));
    List<Taint> taints = new ArrayList<>(node.spec().taints());
    taints.add(Taint.of(NOT_READY_TAINT, "", TaintEffect.NoSchedule));
    return b.conditions(conditions).taints(taints).annotation(READY_AT, now.plus(startupDelay).toString()).build();
  }

  /** Whether {@code node} was launched by an autoscaler and is still starting. */
  public static boolean isStarting(Node node) {
    return node.metadata().annotations().containsKey(READY_AT) && !node.isReady();
  }

  /** When a starting node will be ready; {@code null} when it is not a starting node. */
  public static @Nullable Instant readyAt(Node node) {
    String s = node.metadata().annotations().get(READY_AT);
    return s == null ? null : Instant.parse(s);
  }

  /** When the node was requested; {@code null} when unknown. */
  public static @Nullable Instant requestedAt(Node node) {
    String s = node.metadata().annotations().get(REQUESTED_AT);
    return s == null ? null : Instant.parse(s);
  }

  /**
   * {@code node} Ready: the Ready condition set to True (at {@code now}), the not-ready taints removed, and the
   * {@value #READY_AT} annotation dropped, so that the node no longer counts as starting: if it fails later it is an
   * unready node (scale-down, the unready-node halt), not one an autoscaler will mark Ready again.
   */
  public static Node ready(Node node, Instant now) {
    List<NodeCondition> conditions = new ArrayList<>();
    for (NodeCondition c : node.status().conditions()) {
      if (!c.type().equals(NodeCondition.READY)) {
        conditions.add(c);
      }
    }
    conditions.add(new NodeCondition(NodeCondition.READY, ConditionStatus.True, "KubeletReady",
        "node is ready", now, now));
    Node out = node.toBuilder().conditions(conditions).taints(withoutNotReady(node.spec().taints())).build();
    if (out.metadata().annotations().containsKey(READY_AT)) {
      java.util.Map<String, String> annotations = new java.util.LinkedHashMap<>(out.metadata().annotations());
      annotations.remove(READY_AT);
      out = out.withMetadata(out.metadata().toBuilder().annotations(annotations).build());
    }
    return out;
  }

  /**
   * Makes the stored {@code node} Ready at {@code now}: first its status (condition), then its spec (taint removed),
   * so a scheduler never sees it untainted yet not ready.
   */
  public static void markReady(io.fleetkit.api.store.ObjectStore store, Node node, Instant now) {
    Node ready = ready(node, now);
    Node withStatus = store.updateStatus(node.withStatus(ready.status()));
    store.update(withStatus.withSpec(ready.spec()).withMetadata(withStatus.metadata().toBuilder()
        .annotations(ready.metadata().annotations()).build()));
  }

  /**
   * The node as the autoscalers simulate it: a starting node counts as the ready node it will be (upstream's
   * "upcoming nodes"), so pending pods that will fit on it do not trigger a second scale-up.
   */
  public static Node asUpcoming(Node node) {
    if (!isStarting(node)) {
      return node;
    }
    return node.toBuilder().taints(withoutNotReady(node.spec().taints())).build();
  }

  /**
   * Without the not-ready taints, and without the unreachable taint the node lifecycle controller adds once a
   * starting node has gone a grace period without heartbeats (upstream builds upcoming nodes from the template, which
   * has neither, and the lifecycle controller lifts both once the node is Ready).
   */
  private static List<Taint> withoutNotReady(List<Taint> taints) {
    List<Taint> out = new ArrayList<>(taints.size());
    for (Taint t : taints) {
      if (!t.key().equals(NOT_READY_TAINT) && !t.key().equals(UNREACHABLE_TAINT)) {
        out.add(t);
      }
    }
    return out;
  }
}
