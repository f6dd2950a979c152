package io.fleetkit.storage.provision;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.PersistentVolumeClaim;
import io.fleetkit.api.storage.StorageClass;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What to provision: a volume named {@code volumeName} for {@code claim}, of {@code storageClass}.
 *
 * @param selectedNode the node the scheduler chose (WaitForFirstConsumer), whose topology the volume must be
 *     reachable from; {@code null} for Immediate binding, where any allowed topology will do
 */
public record ProvisionRequest(PersistentVolumeClaim claim, StorageClass storageClass, String volumeName,
    @Nullable Node selectedNode) {
  public ProvisionRequest {
    Objects.requireNonNull(claim, "claim");
    Objects.requireNonNull(storageClass, "storageClass");
    Objects.requireNonNull(volumeName, "volumeName");
  }
}
