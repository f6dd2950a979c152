package io.fleetkit.reconcile.node;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.autoscaling.NodePool;
import io.fleetkit.api.autoscaling.ResourceSliceTemplate;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.meta.OwnerReference;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.resource.dra.Device;
import io.fleetkit.api.resource.dra.ResourceSlice;
import io.fleetkit.api.store.ObjectStore;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The DRA drivers of pool nodes: a node of a pool with device templates gets one slice per template once its drivers
 * run, controlled by the node; nodes of other pools get none; a deleted node's slices go; syncs are idempotent.
 */
final class ResourceSlicePublisherTest {
  private static final ResourceList CAP = ResourceList.builder().put("cpu", "8").put("memory", "16Gi")
      .put("pods", "110").build();
  private final ObjectStore store = ObjectStore.builder().directDelivery().build();

  @AfterEach
  void close() {
    store.close();
  }

  private NodePool pool(String name, ResourceSliceTemplate... templates) {
    NodePool.Builder b = NodePool.builder().name(name).capacity(CAP).maxSize(3);
    for (ResourceSliceTemplate t : templates) {
      b.resourceSlice(t);
    }
    return store.create(b.build());
  }

  private Node node(String name, String pool, boolean ready) {
    Node.Builder b = Node.builder().name(name).label(NodePool.POOL_LABEL, pool).capacity(CAP);
    if (ready) {
      b.ready();
    }
    return store.create(b.build());
  }

  private List<String> slices() {
    return store.list(ResourceSlice.class).items().stream()
        .map(s -> s.metadata().name() + " pool=" + s.spec().pool().name() + " node=" + s.spec().nodeName() + " devices="
            + s.spec().devices().stream().map(Device::name).toList())
        .sorted().toList();
  }

  @Test
  void readyNodeOfAPoolWithTemplates_getsItsSlices_untilItIsDeleted() {
    pool("gpu", ResourceSliceTemplate.of("gpu.example.com", "gpus", Device.of("gpu-0"), Device.of("gpu-1")),
        ResourceSliceTemplate.of("nic.example.com", "nics", Device.of("nic-0")));
    pool("cpu");
    Node gpu = node("gpu-1", "gpu", true);
    node("gpu-2", "gpu", false);
    node("cpu-1", "cpu", true);
    ResourceSlicePublisher p = ResourceSlicePublisher.of(store);

    assertThat(p.sync()).isEqualTo(2);
    assertThat(slices()).containsExactly(
        "gpu-1-gpu.example.com-gpus pool=gpu-1-gpus node=gpu-1 devices=[gpu-0, gpu-1]",
        "gpu-1-nic.example.com-nics pool=gpu-1-nics node=gpu-1 devices=[nic-0]");
    assertThat(store.require(ResourceSlice.class, "", "gpu-1-gpu.example.com-gpus").metadata().controllerRef())
        .isEqualTo(new OwnerReference("v1", "Node", "gpu-1", gpu.metadata().uid(), true, false));
    assertThat(p.sync()).as("idempotent").isZero();

    store.delete(Node.class, "", "gpu-1");
    assertThat(p.sync()).isEqualTo(2);
    assertThat(slices()).isEmpty();
  }

  @Test
  void driversRunningPredicate_decidesWhenANotReadyNodePublishes() {
    pool("gpu", ResourceSliceTemplate.of("gpu.example.com", "gpus", Device.of("gpu-0")));
    node("gpu-1", "gpu", false);
    node("gpu-2", "gpu", false);
    ResourceSlicePublisher p = ResourceSlicePublisher.of(store, n -> n.name().equals("gpu-2"));
    assertThat(p.sync()).isEqualTo(1);
    assertThat(slices()).containsExactly("gpu-2-gpu.example.com-gpus pool=gpu-2-gpus node=gpu-2 devices=[gpu-0]");
  }

  @Test
  void sliceOfAReplacedNode_isDeleted_andTheNewNodeGetsItsOwn() {
    pool("gpu", ResourceSliceTemplate.of("gpu.example.com", "gpus", Device.of("gpu-0")));
    node("gpu-1", "gpu", true);
    ResourceSlicePublisher p = ResourceSlicePublisher.of(store);
    p.sync();
    store.delete(Node.class, "", "gpu-1");
    Node again = node("gpu-1", "gpu", true);
    assertThat(p.sync()).as("the old slice deleted").isEqualTo(1);
    assertThat(p.sync()).as("then the new node's published").isEqualTo(1);
    assertThat(store.require(ResourceSlice.class, "", "gpu-1-gpu.example.com-gpus").metadata().controllerRef().uid())
        .isEqualTo(again.metadata().uid());
  }

  @Test
  void slicesForFunction_publishesWhatItGives_inPlaceOfPoolTemplates_andDeletesThemWithTheNode() {
    // a pool with templates is not read when a function says what each node has (the provisioner's instance types)
    pool("gpu", ResourceSliceTemplate.of("gpu.example.com", "gpus", Device.of("gpu-0")));
    ResourceSliceTemplate nic = ResourceSliceTemplate.of("nic.example.com", "nics", Device.of("nic-0"),
        Device.of("nic-1"));
    ResourceSlicePublisher p = ResourceSlicePublisher.of(store, Node::isReady,
        n -> n.name().startsWith("typed-") ? List.of(nic.sliceFor(n.name())) : List.of());
    Node typed = store.create(Node.builder().name("typed-1").capacity(CAP).ready().build());
    node("gpu-1", "gpu", true);
    store.create(Node.builder().name("typed-2").capacity(CAP).build()); // not Ready: drivers not running

    assertThat(p.sync()).isEqualTo(1);
    assertThat(slices()).containsExactly(
        "typed-1-nic.example.com-nics pool=typed-1-nics node=typed-1 devices=[nic-0, nic-1]");
    OwnerReference owner = store.list(ResourceSlice.class).items().get(0).metadata().controllerRef();
    assertThat(owner.uid()).isEqualTo(typed.metadata().uid());
    assertThat(p.sync()).as("idempotent").isZero();

    store.delete(Node.class, "", "typed-1");
    assertThat(p.sync()).isEqualTo(1);
    assertThat(slices()).isEmpty();
  }
}
