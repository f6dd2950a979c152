package io.fleetkit.api.admission;

import io.fleetkit.api.meta.ApiObject;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What a plugin is asked to admit: an operation on an object. For {@code CREATE} {@code object} is the object to be
 * created; for {@code UPDATE} it is the object as sent and {@code oldObject} the stored one; for {@code DELETE} it
 * is the stored object. During the mutating phase {@code object} carries the changes of the plugins before.
 *
 * @param oldObject the stored object on update, else {@code null}
 * @param dryRun whether the request only asks what admission would decide ({@link AdmissionChain#admitDryRun}):
 *     plugins decide as usual but make no side effect (a quota is not charged), as Kubernetes' admission does for a
 *     {@code dryRun} request
 */
public record AdmissionRequest(AdmissionOperation operation, ApiObject<?> object, @Nullable ApiObject<?> oldObject,
    boolean dryRun) {
  /** A request that is not a dry run. */
  public AdmissionRequest(AdmissionOperation operation, ApiObject<?> object, @Nullable ApiObject<?> oldObject) {
    this(operation, object, oldObject, false);
  }

  public AdmissionRequest {
    Objects.requireNonNull(operation, "operation");
    Objects.requireNonNull(object, "object");
    if (operation == AdmissionOperation.UPDATE && oldObject == null) {
      throw new IllegalArgumentException("an UPDATE request of " + object.describe() + " needs the old object");
    }
  }

  /** The object's namespace ({@code ""} for cluster-scoped kinds). */
  public String namespace() {
    return object.metadata().namespace();
  }

  /** A copy of this request about {@code newObject}. */
  public AdmissionRequest withObject(ApiObject<?> newObject) {
    return new AdmissionRequest(operation, newObject, oldObject, dryRun);
  }
}
