package io.fleetkit.api.resource.dra;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The observed part of a {@link ResourceClaim} ({@code ResourceClaimStatus}).
 *
 * @param allocation the allocation, or {@code null} while the claim is not allocated
 * @param reservedFor the consumers that may use the allocated devices, at most 256
 */
public record ResourceClaimStatus(@Nullable AllocationResult allocation,
    List<ResourceClaimConsumerReference> reservedFor) {
  /** Kubernetes' {@code ResourceClaimReservedForMaxSize}. */
  public static final int MAX_RESERVED_FOR = 256;
  /** Not allocated, not reserved. */
  public static final ResourceClaimStatus INITIAL = new ResourceClaimStatus(null, List.of());

  public ResourceClaimStatus {
    reservedFor = List.copyOf(reservedFor);
  }

  public ResourceClaimStatus withAllocation(@Nullable AllocationResult a) {
    return new ResourceClaimStatus(a, reservedFor);
  }

  /** Whether {@code reservedFor} holds the pod with {@code podUid}. */
  public boolean reservedForPod(String podUid) {
    for (ResourceClaimConsumerReference r : reservedFor) {
      if (r.isPod(podUid)) {
        return true;
      }
    }
    return false;
  }

  public ResourceClaimStatus withReservedFor(List<ResourceClaimConsumerReference> r) {
    return new ResourceClaimStatus(allocation, r);
  }
}
