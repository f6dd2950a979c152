package io.fleetkit.autoscale.provisioner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.autoscaling.ResourceSliceTemplate;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodResourceClaim;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.meta.OwnerReference;
import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.resource.dra.Device;
import io.fleetkit.api.resource.dra.DeviceClass;
import io.fleetkit.api.resource.dra.DeviceRequest;
import io.fleetkit.api.resource.dra.ExactDeviceRequest;
import io.fleetkit.api.resource.dra.ResourceClaim;
import io.fleetkit.api.resource.dra.ResourceClaimSpec;
import io.fleetkit.api.resource.dra.ResourceSlice;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The provisioner and pods with ResourceClaims: an instance type with DRA devices ({@link InstanceType#resourceSlices})
 * is launched for pending pods whose claims only its devices satisfy, as many nodes as the devices require, and a
 * launched node whose drivers have not published yet counts with its type's devices.
 */
final class ProvisionerDraTest {
  private static final long GI = 1024L * 1024 * 1024;
  private static final String DRIVER = "gpu.example.com";
  private static final OwnerReference RS = new OwnerReference("apps/v1", "ReplicaSet", "train", "rs-1", true, true);

  private final ManualClock clock = ManualClock.atEpoch2026();
  private final ObjectStore store = ObjectStore.builder().clock(clock).directDelivery().build();

  @AfterEach
  void close() {
    store.close();
  }

  private static ResourceList res(long milliCpu, long memGi) {
    return ResourceList.builder().put("cpu", Quantity.ofMilli(milliCpu)).put("memory", Quantity.ofBytes(memGi * GI))
        .put("pods", Quantity.of(110)).build();
  }

  /** An 8-CPU type with {@code gpus} devices of DRIVER (none: no device template). */
  private static InstanceType type(String name, int gpus, double price) {
    InstanceType t = new InstanceType(name, res(8000, 32), Map.of(), List.of(), price);
    if (gpus == 0) {
      return t;
    }
    Device[] devices = new Device[gpus];
    for (int i = 0; i < gpus; i++) {
      devices[i] = Device.of("gpu-" + i);
    }
    return t.withResourceSlices(ResourceSliceTemplate.of(DRIVER, "gpus", devices));
  }

  private Provisioner provisioner(InstanceType... types) {
    return Provisioner.builder(store).clock(clock).instanceTypes(List.of(types)).build();
  }

  /** A pending pod with its own claim for {@code gpus} devices of DRIVER. */
  private void gpuPod(String name, int gpus) {
    store.create(ResourceClaim.of(ObjectMeta.builder().namespace("default").name(name + "-gpu").build(),
        ResourceClaimSpec.of(new DeviceRequest("gpu", ExactDeviceRequest.count(DRIVER, gpus)))));
    store.create(Pod.builder().namespace("default").name(name).ownerReference(RS)
        .container("c", "trainer", ResourceList.ofCpuMemory(500, GI))
        .resourceClaim(PodResourceClaim.ofClaim("gpu", name + "-gpu")).build());
  }

  private ProvisionerResult runAfterBatch(Provisioner p) {
    p.runOnce();
    clock.advance(Duration.ofSeconds(1));
    return p.runOnce();
  }

  @Test
  void podWithClaim_launchesTheTypeWithDevices_notTheCheaperOneWithout() {
    store.create(DeviceClass.of(DRIVER));
    gpuPod("train-0", 1);
    ProvisionerResult r = runAfterBatch(provisioner(type("cpu", 0, 0.5), type("gpu", 2, 3.0)));
    assertThat(r.launched().values()).containsExactly("gpu");
    assertThat(r.unschedulablePods()).isEmpty();
  }

  @Test
  void devicesLimitPodsPerNode_onePodPerDevice() {
    store.create(DeviceClass.of(DRIVER));
    for (int i = 0; i < 3; i++) {
      gpuPod("train-" + i, 1);
    }
    // 2 devices a node: the third pod needs a second node although CPU would hold all three on one
    ProvisionerResult r = runAfterBatch(provisioner(type("gpu", 2, 3.0)));
    assertThat(r.launched().values()).containsExactly("gpu", "gpu");
  }

  @Test
  void claimForMoreDevicesThanTheSmallTypeHas_launchesTheLargeType() {
    store.create(DeviceClass.of(DRIVER));
    gpuPod("big", 4);
    ProvisionerResult r = runAfterBatch(provisioner(type("gpu-2", 2, 3.0), type("gpu-8", 8, 10.0)));
    assertThat(r.launched().values()).containsExactly("gpu-8");
  }

  @Test
  void noTypeHasTheDevices_podUnschedulable_nothingLaunched() {
    store.create(DeviceClass.of(DRIVER));
    gpuPod("train-0", 1);
    ProvisionerResult r = runAfterBatch(provisioner(type("cpu", 0, 0.5)));
    assertThat(r.launched()).isEmpty();
    assertThat(r.unschedulablePods()).containsExactly("default/train-0");
  }

  @Test
  void noTypeHasEnoughDevices_recorder_failedSchedulingOnDynamicResources() {
    store.create(DeviceClass.of(DRIVER));
    gpuPod("big", 4);
    EventLog log = new EventLog();
    Provisioner p = Provisioner.builder(store).clock(clock).instanceTypes(List.of(type("cpu", 0, 0.5),
        type("gpu-2", 2, 3.0))).events(log).build();
    assertThat(runAfterBatch(p).unschedulablePods()).containsExactly("default/big");
    // both types meet the requirements and have the room: Karpenter's error after its device allocation
    assertThat(log.events).containsExactly("Warning FailedScheduling Pod/default/big: Failed to schedule pod, no "
        + "instance type satisfies both scheduling and dynamic resource requirements");
  }

  @Test
  void launchedNodeNotPublishedYet_countsWithItsTypesDevices() {
    store.create(DeviceClass.of(DRIVER));
    gpuPod("train-0", 1);
    gpuPod("train-1", 1);
    Provisioner p = provisioner(type("gpu", 2, 3.0));
    assertThat(runAfterBatch(p).launched()).hasSize(1);
    assertThat(store.list(ResourceSlice.class).items()).isEmpty(); // its drivers have published nothing yet
    // both pods fit the starting node's two devices: no second launch
    clock.advance(Duration.ofSeconds(5));
    assertThat(runAfterBatch(p).launched()).isEmpty();
    // a third pod does not: one more node
    gpuPod("train-2", 1);
    assertThat(runAfterBatch(p).launched().values()).containsExactly("gpu");
  }

  @Test
  void resourceSlicesFor_theProvisionersNodes_fromTheirType() {
    Provisioner p = provisioner(type("gpu", 2, 3.0));
    gpuPod("train-0", 1);
    store.create(DeviceClass.of(DRIVER));
    String launched = runAfterBatch(p).launched().keySet().iterator().next();
    Node n = store.require(Node.class, "", launched);
    List<ResourceSlice> slices = p.resourceSlicesFor(n);
    assertThat(slices).hasSize(1);
    assertThat(slices.get(0).spec().nodeName()).isEqualTo(launched);
    assertThat(slices.get(0).spec().devices()).extracting(Device::name).containsExactly("gpu-0", "gpu-1");
    // another provisioner's or an unmanaged node: none
    assertThat(p.resourceSlicesFor(Node.builder().name("other").build())).isEmpty();
  }

  @Test
  void instanceType_duplicateDevicePool_rejected_namingTypeAndField() {
    assertThatThrownBy(() -> type("gpu", 1, 1.0).withResourceSlices(
        ResourceSliceTemplate.of(DRIVER, "gpus", Device.of("x"))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("instance type gpu: resourceSlices[1]").hasMessageContaining("listed twice");
  }
}
