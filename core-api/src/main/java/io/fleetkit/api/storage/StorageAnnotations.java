package io.fleetkit.api.storage;

import io.fleetkit.api.meta.ObjectMeta;

/**
 * Well-known annotations, finalizers and names of Kubernetes' storage machinery, with the exact keys the PV
 * controller, the scheduler and provisioners use.
 */
public final class StorageAnnotations {
  /** On a StorageClass: {@code "true"} makes it the default for claims that set no class. */
  public static final String IS_DEFAULT_CLASS = "storageclass.kubernetes.io/is-default-class";
  /** Beta spelling of {@link #IS_DEFAULT_CLASS}, still honoured. */
  public static final String BETA_IS_DEFAULT_CLASS = "storageclass.beta.kubernetes.io/is-default-class";
  /** On a claim: the node the scheduler chose, which asks the provisioner for a volume reachable from it. */
  public static final String SELECTED_NODE = "volume.kubernetes.io/selected-node";
  /** On a claim: the binding is complete. */
  public static final String BIND_COMPLETED = "pv.kubernetes.io/bind-completed";
  /** On a volume and a claim: the controller made the binding (absent when a user pre-bound it). */
  public static final String BOUND_BY_CONTROLLER = "pv.kubernetes.io/bound-by-controller";
  /** On a claim: the provisioner asked to provision its volume. */
  public static final String STORAGE_PROVISIONER = "volume.kubernetes.io/storage-provisioner";
  /** Beta spelling of {@link #STORAGE_PROVISIONER}, still set. */
  public static final String BETA_STORAGE_PROVISIONER = "volume.beta.kubernetes.io/storage-provisioner";
  /** On a volume: the provisioner that created it. */
  public static final String PROVISIONED_BY = "pv.kubernetes.io/provisioned-by";
  /** On a claim or volume: the storage class, the way it was set before {@code storageClassName} existed. */
  public static final String BETA_STORAGE_CLASS = "volume.beta.kubernetes.io/storage-class";
  /** The provisioner of classes whose volumes are created by hand only. */
  public static final String NO_PROVISIONER = "kubernetes.io/no-provisioner";
  /** Finalizer keeping a claim while a pod uses it. */
  public static final String PVC_PROTECTION_FINALIZER = "kubernetes.io/pvc-protection";
  /** Finalizer keeping a volume while it is bound. */
  public static final String PV_PROTECTION_FINALIZER = "kubernetes.io/pv-protection";

  private StorageAnnotations() {}

  /** Whether the object carrying {@code metadata} is marked as the default StorageClass (either spelling). */
  public static boolean isDefaultClass(ObjectMeta metadata) {
    return "true".equals(metadata.annotations().get(IS_DEFAULT_CLASS))
        || "true".equals(metadata.annotations().get(BETA_IS_DEFAULT_CLASS));
  }
}
