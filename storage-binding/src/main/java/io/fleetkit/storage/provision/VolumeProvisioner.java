package io.fleetkit.storage.provision;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.PersistentVolume;
import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.storage.StorageClass;
import java.util.Optional;

/**
 * Creates and deletes the storage behind dynamically provisioned PersistentVolumes, like a CSI external-provisioner.
 * The {@link io.fleetkit.storage.PersistentVolumeController} calls it for claims whose StorageClass names
 * {@link #name()} as its {@code provisioner}. Implementations must be thread-safe: the scheduler's VolumeBinding
 * plugin asks {@link #hasCapacity} from several threads at once.
 */
public interface VolumeProvisioner {
  /** The provisioner name StorageClasses refer to, e.g. {@code ebs.csi.aws.com}. */
  String name();

  /**
   * Creates storage for {@code request}. Failures (no capacity, a topology the backend cannot serve) are values:
   * the controller records them on the claim and retries with backoff.
   */
  ProvisionResult provision(ProvisionRequest request);

  /**
   * Deletes the storage of a volume whose reclaim policy is Delete.
   *
   * @return empty on success, else why it failed (the volume then goes to phase Failed)
   */
  Optional<String> delete(PersistentVolume volume);

  /**
   * Whether a volume of {@code size} in {@code storageClass} could be provisioned reachable from {@code node}, as
   * kube's CSIStorageCapacity check. The default says yes.
   */
  default boolean hasCapacity(StorageClass storageClass, Node node, Quantity size) {
    return true;
  }
}
