package io.fleetkit.reconcile.node;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.NodeCondition;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.scheduling.Taint;
import io.fleetkit.api.scheduling.TaintEffect;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * What the cloud node lifecycle controller does with one node at a pass (upstream
 * {@code CloudNodeLifecycleController.MonitorNodes} for one node), as a pure function of the node, the time and the
 * cloud's answers; {@link CloudNodeLifecycleController} carries the {@link Action} out.
 *
 * <p>The order follows upstream: a Ready node only loses the shutdown taint; a not-ready node the cloud has not
 * initialized (no {@code spec.providerID}, the {@value #UNINITIALIZED_TAINT} taint) younger than
 * {@link #UNINITIALIZED_NODE_DELAY} is left to finish starting; otherwise the cloud is asked whether the machine
 * exists (no: delete the node, its taints no longer matter) and, if it does, whether it is shut down (yes: taint the
 * node {@value #SHUTDOWN_TAINT}:NoSchedule). A question the cloud cannot answer leaves the node as it is. The shutdown
 * taint is removed only once the node is Ready again, as upstream does.
 */
public final class CloudNodeRules {
  /** The taint of a node whose machine is shut down (upstream {@code cloudproviderapi.TaintNodeShutdown}). */
  public static final String SHUTDOWN_TAINT = "node.cloudprovider.kubernetes.io/shutdown";
  /** The taint of a node the cloud controller has not initialized (upstream {@code TaintExternalCloudProvider}). */
  public static final String UNINITIALIZED_TAINT = "node.cloudprovider.kubernetes.io/uninitialized";
  /** How long an uninitialized node is left alone (upstream {@code uninitializedNodeDelay}). */
  public static final Duration UNINITIALIZED_NODE_DELAY = Duration.ofMinutes(1);

  /** What to do with a node. */
  public enum Action {
    /** Nothing. */
    NONE,
    /** Remove the shutdown taint (the node is Ready). */
    REMOVE_SHUTDOWN_TAINT,
    /** Delete the node: its machine no longer exists. */
    DELETE,
    /** Add the shutdown taint: the machine exists but is shut down. */
    ADD_SHUTDOWN_TAINT
  }

  private CloudNodeRules() {}

  /**
   * The action for {@code node} at {@code now}, asking {@code cloud} only what upstream asks.
   *
   * @throws NullPointerException if an argument, or an answer of the cloud, is null
   */
  public static Action decide(Node node, Instant now, CloudInstances cloud) {
    Objects.requireNonNull(node, "node");
    Objects.requireNonNull(now, "now");
    Objects.requireNonNull(cloud, "cloud");
    if (readyStatus(node) == ConditionStatus.True) {
      return hasTaint(node, SHUTDOWN_TAINT) ? Action.REMOVE_SHUTDOWN_TAINT : Action.NONE;
    }
    String providerId = node.spec().providerID();
    if (providerId.isEmpty() && hasTaint(node, UNINITIALIZED_TAINT)) {
      Instant created = node.metadata().creationTimestamp();
      if (created != null && Duration.between(created, now).compareTo(UNINITIALIZED_NODE_DELAY) < 0) {
        return Action.NONE;
      }
    }
    Optional<Boolean> exists = Objects.requireNonNull(cloud.exists(node.name(), providerId), "cloud's exists answer");
    if (exists.isEmpty()) {
      return Action.NONE;
    }
    if (!exists.get()) {
      return Action.DELETE;
    }
    Optional<Boolean> shutdown = Objects.requireNonNull(cloud.shutdown(node.name(), providerId),
        "cloud's shutdown answer");
    return shutdown.orElse(false) && !hasTaint(node, SHUTDOWN_TAINT) ? Action.ADD_SHUTDOWN_TAINT : Action.NONE;
  }

  /** The node's Ready status, {@link ConditionStatus#Unknown} when it has no Ready condition (as upstream). */
  static ConditionStatus readyStatus(Node node) {
    NodeCondition c = node.status().condition(NodeCondition.READY);
    return c == null ? ConditionStatus.Unknown : c.status();
  }

  /** Whether the node has a NoSchedule taint with {@code key} (upstream {@code MatchTaint}: key and effect). */
  static boolean hasTaint(Node node, String key) {
    for (Taint t : node.spec().taints()) {
      if (t.key().equals(key) && t.effect() == TaintEffect.NoSchedule) {
        return true;
      }
    }
    return false;
  }

  /** Whether the controller may have to act on the node at a pass: it is not Ready, or carries the shutdown taint. */
  static boolean watched(Node node) {
    return readyStatus(node) != ConditionStatus.True || hasTaint(node, SHUTDOWN_TAINT);
  }
}
