package io.fleetkit.queueing;

import io.fleetkit.api.Violations;
import io.fleetkit.api.resource.Quantity;
import java.util.Objects;

/**
 * A namespaced queue that users submit workloads to (Kueue {@code LocalQueue}); it points to one {@link ClusterQueue}.
 *
 * @param namespace the namespace
 * @param name the queue's name, unique in its namespace
 * @param clusterQueue the ClusterQueue whose quota its workloads use (immutable once the engine has the queue, as
 *     Kueue's {@code spec.clusterQueue})
 * @param stopPolicy whether the queue's workloads are admitted (Kueue's {@code spec.stopPolicy}, default {@link
 *     StopPolicy#NONE}): a stopped LocalQueue's pending workloads are not admitted, and with {@link
 *     StopPolicy#HOLD_AND_DRAIN} its admitted ones are evicted
 * @param fairSharingWeight the queue's weight in admission fair sharing (Kueue's {@code spec.fairSharing.weight},
 *     default 1, not negative): its usage is divided by it, so a heavier queue's workloads come first at equal
 *     consumption; a zero weight makes its usage infinite, last (see {@link AdmissionFairSharing})
 */
public record LocalQueue(String namespace, String name, String clusterQueue, StopPolicy stopPolicy,
    Quantity fairSharingWeight) {
  public static final String KIND = "LocalQueue";
  /** Kueue's default {@code spec.fairSharing.weight}. */
  public static final Quantity DEFAULT_FAIR_SHARING_WEIGHT = Quantity.of(1);

  public LocalQueue {
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(clusterQueue, "clusterQueue");
    Objects.requireNonNull(stopPolicy, "stopPolicy");
    Objects.requireNonNull(fairSharingWeight, "fairSharingWeight");
    Violations v = new Violations(KIND, namespace, name);
    v.dnsLabel("metadata.namespace", namespace);
    v.dnsSubdomain("metadata.name", name);
    v.dnsSubdomain("spec.clusterQueue", clusterQueue);
    v.nonNegative("spec.fairSharing.weight", fairSharingWeight);
    v.throwIfAny();
  }

  /** A queue with the default fair sharing weight, 1. */
  public LocalQueue(String namespace, String name, String clusterQueue, StopPolicy stopPolicy) {
    this(namespace, name, clusterQueue, stopPolicy, DEFAULT_FAIR_SHARING_WEIGHT);
  }

  /** A queue that is not stopped ({@link StopPolicy#NONE}). */
  public LocalQueue(String namespace, String name, String clusterQueue) {
    this(namespace, name, clusterQueue, StopPolicy.NONE);
  }

  public static LocalQueue of(String namespace, String name, String clusterQueue) {
    return new LocalQueue(namespace, name, clusterQueue);
  }

  /** This queue with {@code policy} as its stop policy. */
  public LocalQueue withStopPolicy(StopPolicy policy) {
    return new LocalQueue(namespace, name, clusterQueue, policy, fairSharingWeight);
  }

  /** This queue with {@code weight} as its admission fair sharing weight. */
  public LocalQueue withFairSharingWeight(Quantity weight) {
    return new LocalQueue(namespace, name, clusterQueue, stopPolicy, weight);
  }

  /** {@code namespace/name}. */
  public String key() {
    return namespace + "/" + name;
  }
}
