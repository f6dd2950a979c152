package io.fleetkit.autoscale.cluster.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodResourceClaim;
import io.fleetkit.api.core.PodResourceClaimStatus;
import io.fleetkit.api.core.PodStatus;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.meta.OwnerReference;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.resource.dra.AllocationResult;
import io.fleetkit.api.resource.dra.DeviceRequest;
import io.fleetkit.api.resource.dra.DeviceRequestAllocationResult;
import io.fleetkit.api.resource.dra.ExactDeviceRequest;
import io.fleetkit.api.resource.dra.ResourceClaim;
import io.fleetkit.api.resource.dra.ResourceClaimConsumerReference;
import io.fleetkit.api.resource.dra.ResourceClaimSpec;
import io.fleetkit.api.resource.dra.ResourceClaimStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * {@link DraSnapshot#removePodOwnedClaims}, ported from kubernetes/autoscaler
 * cluster-autoscaler/simulator/dynamicresources/snapshot/snapshot_test.go (branch cluster-autoscaler-release-1.37,
 * commit a16f0ae8), TestSnapshotClaimsModification's two {@code RemovePodOwnedClaims()} cases, with the file's
 * {@code pod1}, {@code pod2} and claims (upstream's claim names lower-cased: FleetKit validates them as DNS names). The
 * pods are on {@code node1}, the node whose removal releases them; a rollback puts the claims back.
 */
final class DraSnapshotRemovePodOwnedClaimsTest {
  private static ResourceClaim claim(String name, String ownerPod) {
    ObjectMeta.Builder m = ObjectMeta.builder().namespace("default").name(name).uid(name);
    if (!ownerPod.isEmpty()) {
      m.ownerReference(new OwnerReference("v1", "Pod", ownerPod, ownerPod, true, true));
    }
    return ResourceClaim.of(m.build(), ResourceClaimSpec.of(new DeviceRequest("req",
        ExactDeviceRequest.count("driver.example.com", 1))));
  }

  private static ResourceClaim reservedFor(ResourceClaim c, String... pods) {
    List<ResourceClaimConsumerReference> r = new ArrayList<>();
    for (String p : pods) {
      r.add(ResourceClaimConsumerReference.pod(p, p));
    }
    // upstream's claims carry reservations without an allocation; FleetKit's validation requires one with them, so
    // the reserved claims hold a device (kept when a reservation is removed)
    return c.withStatus(new ResourceClaimStatus(new AllocationResult(List.of(new DeviceRequestAllocationResult("req",
        "driver.example.com", "net", c.metadata().name())), null), r));
  }

  private static final ResourceClaim SHARED_1 = claim("sharedclaim1", "");
  private static final ResourceClaim SHARED_2 = claim("sharedclaim2", "");
  private static final ResourceClaim SHARED_3 = claim("sharedclaim3", "");
  private static final ResourceClaim POD1_OWN_1 = claim("pod1-ownclaim1-abc", "pod1");
  private static final ResourceClaim POD1_OWN_2 = claim("pod1-ownclaim2-abc", "pod1");
  private static final ResourceClaim POD2_OWN_1 = claim("pod2-ownclaim1-abc", "pod2");

  /** Upstream's pod1: two claims from templates (named in its status) and two shared ones. */
  private static final Pod POD1 = Pod.builder().name("pod1").uid("pod1").nodeName("node1")
      .container("c", "pause", ResourceList.ofCpuMemory(1, 1))
      .resourceClaim(PodResourceClaim.ofTemplate("ownclaim1", "pod1-ownclaim1"))
      .resourceClaim(PodResourceClaim.ofTemplate("ownclaim2", "pod1-ownclaim2"))
      .resourceClaim(PodResourceClaim.ofClaim("sharedclaim1", "sharedclaim1"))
      .resourceClaim(PodResourceClaim.ofClaim("sharedclaim2", "sharedclaim2"))
      .status(PodStatus.PENDING.withResourceClaimStatuses(List.of(
          new PodResourceClaimStatus("ownclaim1", "pod1-ownclaim1-abc"),
          new PodResourceClaimStatus("ownclaim2", "pod1-ownclaim2-abc"))))
      .build();

  private static Map<String, ResourceClaim> byName(List<ResourceClaim> claims) {
    Map<String, ResourceClaim> out = new TreeMap<>();
    for (ResourceClaim c : claims) {
      out.put(c.metadata().name(), c);
    }
    return out;
  }

  private static Map<String, ResourceClaim> byName(ResourceClaim... claims) {
    return byName(List.of(claims));
  }

  @Test
  void removePodOwnedClaims_podOwnedClaimsAreRemoved() {
    DraSnapshot d = new DraSnapshot(List.of(), List.of(),
        List.of(SHARED_1, SHARED_2, SHARED_3, POD2_OWN_1, POD1_OWN_1, POD1_OWN_2));
    d.checkpoint();
    d.removePodOwnedClaims(POD1, "node1");
    assertThat(byName(d.claims())).isEqualTo(byName(SHARED_1, SHARED_2, SHARED_3, POD2_OWN_1));
    // upstream's wantPodClaimsErr: pod1's own claims are gone (FleetKit's lookup passes over missing claims)
    assertThat(d.claimsOf(POD1)).extracting(c -> c.metadata().name()).containsExactly("sharedclaim1", "sharedclaim2");
    d.rollback();
    assertThat(byName(d.claims())).isEqualTo(byName(SHARED_1, SHARED_2, SHARED_3, POD2_OWN_1, POD1_OWN_1,
        POD1_OWN_2));
  }

  @Test
  void removePodOwnedClaims_podReservationsInSharedClaimsAreRemoved() {
    DraSnapshot d = new DraSnapshot(List.of(), List.of(), List.of(reservedFor(SHARED_1, "pod1", "pod2"),
        reservedFor(SHARED_2, "pod1"), reservedFor(SHARED_3, "pod2"), POD2_OWN_1, POD1_OWN_1, POD1_OWN_2));
    d.removePodOwnedClaims(POD1, "node1");
    assertThat(byName(d.claims())).isEqualTo(byName(reservedFor(SHARED_1, "pod2"), reservedFor(SHARED_2),
        reservedFor(SHARED_3, "pod2"), POD2_OWN_1));
  }

  /** FleetKit's own: a pod placed on another node since (a moved copy holds its claims) releases nothing here. */
  @Test
  void removePodOwnedClaims_podOnAnotherNode_nothingChanges() {
    DraSnapshot d = new DraSnapshot(List.of(), List.of(), List.of(SHARED_1, SHARED_2, POD1_OWN_1, POD1_OWN_2));
    d.removePodOwnedClaims(POD1, "node2");
    assertThat(byName(d.claims())).isEqualTo(byName(SHARED_1, SHARED_2, POD1_OWN_1, POD1_OWN_2));
  }
}
