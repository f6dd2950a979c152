package io.fleetkit.api.store;

import io.fleetkit.api.ValidationException;
import io.fleetkit.api.Violation;
import java.util.Objects;

/**
 * How a deletion treats the object's dependents (the objects whose {@code metadata.ownerReferences} name it), as
 * Kubernetes' {@code DeleteOptions.propagationPolicy} ({@code metav1.DeletionPropagation}). The store records the
 * choice as a finalizer on the object and a garbage collector carries it out; see
 * {@link ObjectStore#delete(Class, String, String, DeleteOptions)}.
 */
public enum DeletionPropagation {
  /**
   * The dependents are kept and released: the store marks the object with the {@value #ORPHAN_FINALIZER} finalizer,
   * the garbage collector removes the references to it from every dependent, then the finalizer.
   */
  ORPHAN("Orphan"),
  /**
   * The object goes at once (unless other finalizers hold it) and the garbage collector deletes its dependents
   * afterwards.
   */
  BACKGROUND("Background"),
  /**
   * The object is marked with the {@value #FOREGROUND_FINALIZER} finalizer and stays until the garbage collector has
   * deleted every dependent whose reference has {@code blockOwnerDeletion}.
   */
  FOREGROUND("Foreground");

  /** The finalizer of {@link #ORPHAN} (Kubernetes' {@code metav1.FinalizerOrphanDependents}). */
  public static final String ORPHAN_FINALIZER = "orphan";

  /** The finalizer of {@link #FOREGROUND} (Kubernetes' {@code metav1.FinalizerDeleteDependents}). */
  public static final String FOREGROUND_FINALIZER = "foregroundDeletion";

  private final String value;

  DeletionPropagation(String value) {
    this.value = value;
  }

  /** The name Kubernetes uses: {@code Orphan}, {@code Background} or {@code Foreground}. */
  public String value() {
    return value;
  }

  /**
   * The policy named {@code value} as Kubernetes spells it ({@code Orphan}, {@code Background}, {@code Foreground};
   * exact case, as the API server's {@code ValidateDeleteOptions}).
   *
   * @throws ValidationException naming {@code DeleteOptions}, the field {@code propagationPolicy} and the supported
   *     values, for any other text
   */
  public static DeletionPropagation parse(String value) {
    Objects.requireNonNull(value, "value");
    for (DeletionPropagation p : values()) {
      if (p.value.equals(value)) {
        return p;
      }
    }
    throw new ValidationException(new Violation("DeleteOptions", "propagationPolicy",
        "Unsupported value: supported values: \"Foreground\", \"Background\", \"Orphan\", \"nil\"", value));
  }

  @Override
  public String toString() {
    return value;
  }
}
