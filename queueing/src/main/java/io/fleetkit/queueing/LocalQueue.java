package io.fleetkit.queueing;

import io.fleetkit.api.Violations;
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
 */
public record LocalQueue(String namespace, String name, String clusterQueue, StopPolicy stopPolicy) {
  public static final String KIND = "LocalQueue";

  public LocalQueue {
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(clusterQueue, "clusterQueue");
    Objects.requireNonNull(stopPolicy, "stopPolicy");
    Violations v = new Violations(KIND, namespace, name);
    v.dnsLabel("metadata.namespace", namespace);
    v.dnsSubdomain("metadata.name", name);
    v.dnsSubdomain("spec.clusterQueue", clusterQueue);
    v.throwIfAny();
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
    return new LocalQueue(namespace, name, clusterQueue, policy);
  }

  /** {@code namespace/name}. */
  public String key() {
    return namespace + "/" + name;
  }
}
