package io.fleetkit.api.resource.dra;

import java.util.Objects;

/**
 * A consumer holding a reservation on a claim ({@code ResourceClaimConsumerReference}), usually a pod.
 *
 * @param apiGroup the consumer's API group, empty for the core group
 * @param resource the consumer's resource, e.g. {@code pods}
 * @param name the consumer's name
 * @param uid the consumer's UID
 */
public record ResourceClaimConsumerReference(String apiGroup, String resource, String name, String uid) {
  public ResourceClaimConsumerReference {
    Objects.requireNonNull(apiGroup, "apiGroup");
    Objects.requireNonNull(resource, "resource");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(uid, "uid");
  }

  /** A pod. */
  public static ResourceClaimConsumerReference pod(String name, String uid) {
    return new ResourceClaimConsumerReference("", "pods", name, uid);
  }

  /** Whether this is the pod with {@code podUid} (resource {@code pods}, that uid). */
  public boolean isPod(String podUid) {
    return resource.equals("pods") && uid.equals(podUid);
  }
}
