package io.fleetkit.queueing;

import io.fleetkit.api.Violations;
import java.util.Objects;

/**
 * A namespaced queue that users submit workloads to (Kueue {@code LocalQueue}); it points to one {@link ClusterQueue}.
 *
 * @param namespace the namespace
 * @param name the queue's name, unique in its namespace
 * @param clusterQueue the ClusterQueue whose quota its workloads use
 */
public record LocalQueue(String namespace, String name, String clusterQueue) {
  public static final String KIND = "LocalQueue";

  public LocalQueue {
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(clusterQueue, "clusterQueue");
    Violations v = new Violations(KIND, namespace, name);
    v.dnsLabel("metadata.namespace", namespace);
    v.dnsSubdomain("metadata.name", name);
    v.dnsSubdomain("spec.clusterQueue", clusterQueue);
    v.throwIfAny();
  }

  public static LocalQueue of(String namespace, String name, String clusterQueue) {
    return new LocalQueue(namespace, name, clusterQueue);
  }

  /** {@code namespace/name}. */
  public String key() {
    return namespace + "/" + name;
  }
}
