package io.fleetkit.api.core;

import io.fleetkit.api.meta.ObjectMeta;
import java.util.Objects;

/**
 * The claim a PersistentVolume is bound or reserved to ({@code spec.claimRef}).
 *
 * @param uid empty when the volume is pre-bound by name only
 */
public record ClaimReference(String namespace, String name, String uid) {
  public ClaimReference {
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(uid, "uid");
  }

  /** A reference by name only, as an administrator pre-binds a volume. */
  public static ClaimReference of(String namespace, String name) {
    return new ClaimReference(namespace, name, "");
  }

  /** A reference to exactly this claim, uid included. */
  public static ClaimReference to(PersistentVolumeClaim claim) {
    ObjectMeta m = claim.metadata();
    return new ClaimReference(m.namespace(), m.name(), m.uid());
  }

  /** Whether this reference names {@code claim}: same namespace and name, and same uid when one is set. */
  public boolean refersTo(ObjectMeta claim) {
    return namespace.equals(claim.namespace()) && name.equals(claim.name())
        && (uid.isEmpty() || uid.equals(claim.uid()));
  }
}
