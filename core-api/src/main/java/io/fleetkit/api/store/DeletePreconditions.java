package io.fleetkit.api.store;

import java.util.Objects;

/**
 * Conditions a delete checks against the stored object, as Kubernetes {@code DeleteOptions.preconditions}: the
 * delete fails with {@link io.fleetkit.api.ConflictException} unless they hold. An empty field is not checked.
 *
 * @param uid the uid the object must have, or empty
 * @param resourceVersion the resourceVersion the object must have, or empty
 */
public record DeletePreconditions(String uid, String resourceVersion) {
  /** No preconditions. */
  public static final DeletePreconditions NONE = new DeletePreconditions("", "");

  public DeletePreconditions {
    Objects.requireNonNull(uid, "uid");
    Objects.requireNonNull(resourceVersion, "resourceVersion");
  }

  /** Delete only the object with this uid (not a later object of the same name). */
  public static DeletePreconditions uid(String uid) {
    return new DeletePreconditions(uid, "");
  }

  /** Delete only if the object is still at this resourceVersion. */
  public static DeletePreconditions resourceVersion(String resourceVersion) {
    return new DeletePreconditions("", resourceVersion);
  }
}
