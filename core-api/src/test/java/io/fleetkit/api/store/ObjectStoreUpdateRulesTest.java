package io.fleetkit.api.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.ValidationException;
import io.fleetkit.api.Violation;
import io.fleetkit.api.core.Bytes;
import io.fleetkit.api.core.ConfigMap;
import io.fleetkit.api.core.Container;
import io.fleetkit.api.core.ContainerState;
import io.fleetkit.api.core.ContainerStatus;
import io.fleetkit.api.core.PersistentVolumeAccessMode;
import io.fleetkit.api.core.PersistentVolumeClaim;
import io.fleetkit.api.core.PersistentVolumeClaimSpec;
import io.fleetkit.api.core.PersistentVolumeClaimStatus;
import io.fleetkit.api.core.PersistentVolumeMode;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.ResourceRequirements;
import io.fleetkit.api.core.RestartPolicy;
import io.fleetkit.api.core.Secret;
import io.fleetkit.api.core.Service;
import io.fleetkit.api.core.ServiceSpec;
import io.fleetkit.api.core.ServiceType;
import io.fleetkit.api.core.VolumeResourceRequirements;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.ResourceList;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The store's per-kind update rules through its write paths: update, the binding path (updateWithStatus), the
 * pods/resize path (resize) and updateStatus. The rules themselves are {@link io.fleetkit.api.store.spi.UpdateChecks}
 * (their upstream table cases are in that package); this checks that every write path applies the right ones.
 * "deletion timestamp added" and "deletion grace period seconds changed" are cases of kubernetes
 * {@code TestValidatePodUpdate} (validation_test.go at commit 000f26050b9be6fb3d79fae95e06b47fc96128cd).
 */
final class ObjectStoreUpdateRulesTest {
  private final ObjectStore store = ObjectStore.builder().directDelivery().build();

  @AfterEach
  void close() {
    store.close();
  }

  private static Pod pod(String name) {
    return Pod.builder().namespace("ns").name(name).restartPolicy(RestartPolicy.Never)
        .container(Container.of("c", "img", ResourceRequirements.of(ResourceList.ofCpuMemory(100, 1 << 20),
            ResourceList.ofCpuMemory(200, 2 << 20))))
        .build();
  }

  private static String fieldOf(Throwable e) {
    return ((ValidationException) e).violations().get(0).field();
  }

  @Test
  void update_nodeName_refused_bindingPathAssignsOnce() {
    Pod p = store.create(pod("p"));
    assertThatThrownBy(() -> store.update(p.withNodeName("n1")))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("Pod ns/p: spec Forbidden: pod updates may not change fields other than")
        .hasMessageContaining("changed: spec.nodeName");
    Pod bound = store.updateWithStatus(p.withNodeName("n1"));
    assertThat(bound.spec().nodeName()).isEqualTo("n1");
    assertThatThrownBy(() -> store.updateWithStatus(bound.withNodeName("n2")))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("pod p is already assigned to node \"n1\"");
    assertThat(store.require(Pod.class, "ns", "p").spec().nodeName()).isEqualTo("n1");
  }

  @Test
  void update_imageAndLabels_accepted_generationBumpedForTheSpecOnly() {
    Pod p = store.create(pod("p"));
    Pod labelled = store.update(p.withMetadata(p.metadata().toBuilder().label("a", "b").build()));
    assertThat(labelled.metadata().generation()).isEqualTo(1);
    Pod newImage = store.update(labelled.withSpec(labelled.spec().toBuilder()
        .containers(List.of(withImage(labelled.spec().containers().get(0), "img:2"))).build()));
    assertThat(newImage.spec().containers().get(0).image()).isEqualTo("img:2");
    assertThat(newImage.metadata().generation()).isEqualTo(2);
  }

  @Test
  void update_deletionTimestampAdded_refused() {
    // TestValidatePodUpdate "deletion timestamp added": only a deletion marks an object
    Pod p = store.create(pod("p"));
    assertThatThrownBy(() -> store.update(p.withMetadata(p.metadata().toBuilder()
        .deletionTimestamp(Instant.parse("2026-01-01T00:00:00Z")).build())))
        .isInstanceOf(ValidationException.class)
        .satisfies(e -> assertThat(fieldOf(e)).isEqualTo("metadata.deletionTimestamp"))
        .hasMessageContaining("field is immutable");
  }

  @Test
  void update_deletionGracePeriodSecondsChanged_refused() {
    // TestValidatePodUpdate "deletion grace period seconds changed": only a deletion sets it
    Pod p = store.create(pod("p"));
    assertThatThrownBy(() -> store.update(p.withMetadata(p.metadata().toBuilder()
        .deletionGracePeriodSeconds(1000L).build())))
        .isInstanceOf(ValidationException.class)
        .satisfies(e -> assertThat(fieldOf(e)).isEqualTo("metadata.deletionGracePeriodSeconds"))
        .hasMessageContaining("field is immutable");
  }

  @Test
  void resize_cpuAndMemory_applied_otherChangesDropped_qosKept() {
    Pod p = store.create(pod("p"));
    Container c = p.spec().containers().get(0);
    Pod wanted = p.withSpec(p.spec().toBuilder().priorityClassName("ignored")
        .containers(List.of(c.withResources(ResourceRequirements.of(ResourceList.ofCpuMemory(300, 1 << 20),
            ResourceList.ofCpuMemory(400, 2 << 20))))).build());
    Pod resized = store.resize(wanted);
    assertThat(resized.spec().containers().get(0).resources().requests().milliCpu()).isEqualTo(300);
    assertThat(resized.spec().priorityClassName()).isEmpty();
    assertThat(resized.metadata().generation()).isEqualTo(2);
    // requests equal to limits would make the Burstable pod Guaranteed
    Pod guaranteed = resized.withSpec(resized.spec().toBuilder().containers(List.of(c.withResources(
        ResourceRequirements.of(ResourceList.ofCpuMemory(400, 2 << 20), ResourceList.ofCpuMemory(400, 2 << 20)))))
        .build());
    assertThatThrownBy(() -> store.resize(guaranteed))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("Pod QOS Class may not change as a result of resizing");
  }

  @Test
  void updateStatus_terminatedContainerOfNeverPod_mayNotRunAgain() {
    Pod p = store.create(pod("p"));
    Pod done = store.updateStatus(p.withStatus(p.status().withContainerStatuses(List.of(
        new ContainerStatus("c", false, 0, ContainerState.terminated(0, "Completed", null), false)))));
    assertThatThrownBy(() -> store.updateStatus(done.withStatus(done.status().withContainerStatuses(List.of(
        new ContainerStatus("c", true, 0, ContainerState.running(null), true))))))
        .isInstanceOf(ValidationException.class)
        .satisfies(e -> assertThat(fieldOf(e)).isEqualTo("status.containerStatuses[0].state"));
  }

  @Test
  void secretAndConfigMap_immutable_refuseDataAndFlagChanges() {
    Secret s = store.create(new Secret(ObjectMeta.of("ns", "s"), Secret.TYPE_OPAQUE,
        Map.of("k", Bytes.ofUtf8("v")), true));
    assertThatThrownBy(() -> store.update(new Secret(s.metadata(), Secret.TYPE_OPAQUE,
        Map.of("k", Bytes.ofUtf8("w")), true)))
        .isInstanceOf(ValidationException.class)
        .satisfies(e -> assertThat(fieldOf(e)).isEqualTo("data"))
        .hasMessageContaining("field is immutable when `immutable` is set");
    assertThatThrownBy(() -> store.update(new Secret(s.metadata(), Secret.TYPE_OPAQUE, s.data(), false)))
        .isInstanceOf(ValidationException.class)
        .satisfies(e -> assertThat(fieldOf(e)).isEqualTo("immutable"));
    assertThatThrownBy(() -> store.update(new Secret(s.metadata(), "other", s.data(), true)))
        .isInstanceOf(ValidationException.class)
        .satisfies(e -> assertThat(fieldOf(e)).isEqualTo("type"));
    ConfigMap mutable = store.create(ConfigMap.of("ns", "m", Map.of("k", "v")));
    ConfigMap frozen = store.update(new ConfigMap(mutable.metadata(), Map.of("k", "v2"), Map.of(), true));
    assertThat(frozen.immutable()).isTrue();
    assertThatThrownBy(() -> store.update(new ConfigMap(frozen.metadata(), Map.of("k", "v3"), Map.of(), true)))
        .isInstanceOf(ValidationException.class)
        .satisfies(e -> assertThat(fieldOf(e)).isEqualTo("data"));
  }

  @Test
  void service_clusterIPChange_refused_externalNameFree() {
    Service s = store.create(Service.of(ObjectMeta.of("ns", "svc"), ServiceSpec.builder().selector("a", "b")
        .port(io.fleetkit.api.core.ServicePort.of("http", 80, 8080)).clusterIP("10.0.0.1").build()));
    assertThatThrownBy(() -> store.update(Service.of(s.metadata(), s.spec().toBuilder().clusterIP("10.0.0.2")
        .build())))
        .isInstanceOf(ValidationException.class)
        .satisfies(e -> assertThat(((ValidationException) e).violations()).extracting(Violation::field)
            .contains("spec.clusterIPs[0]"))
        .hasMessageContaining("may not change once set");
    Service external = store.update(Service.of(s.metadata(), ServiceSpec.builder().type(ServiceType.ExternalName)
        .externalName("example.com").clusterIP("").build()));
    assertThat(external.spec().type()).isEqualTo(ServiceType.ExternalName);
  }

  @Test
  void claim_volumeNameOnce_storageGrowsOnlyWhenBound() {
    PersistentVolumeClaim c = store.create(PersistentVolumeClaim.of(ObjectMeta.of("ns", "c"),
        new PersistentVolumeClaimSpec(List.of(PersistentVolumeAccessMode.ReadWriteOnce), null,
            new VolumeResourceRequirements(ResourceList.builder().put("storage", "1Gi").build(), ResourceList.EMPTY),
            "fast", PersistentVolumeMode.Filesystem, "")));
    assertThatThrownBy(() -> store.update(c.withSpec(withStorage(c.spec(), "2Gi"))))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("spec is immutable after creation except resources.requests");
    PersistentVolumeClaim named = store.update(c.withSpec(c.spec().withVolumeName("pv-1")));
    assertThatThrownBy(() -> store.update(named.withSpec(named.spec().withVolumeName("pv-2"))))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("changed: spec.volumeName");
    PersistentVolumeClaim bound = store.updateStatus(named.withStatus(PersistentVolumeClaimStatus.bound(
        named.spec().accessModes(), ResourceList.builder().put("storage", "1Gi").build())));
    PersistentVolumeClaim grown = store.update(bound.withSpec(withStorage(bound.spec(), "2Gi")));
    assertThat(grown.spec().resources().requests().get("storage").toString()).isEqualTo("2Gi");
    assertThatThrownBy(() -> store.update(grown.withSpec(withStorage(grown.spec(), "1Gi"))))
        .isInstanceOf(ValidationException.class)
        .satisfies(e -> assertThat(fieldOf(e)).isEqualTo("spec.resources.requests.storage"))
        .hasMessageContaining("field can not be less than status.capacity");
  }

  private static Container withImage(Container c, String image) {
    return new Container(c.name(), image, c.resources(), c.ports(), c.env(), c.restartPolicy(), c.livenessProbe(),
        c.readinessProbe(), c.startupProbe());
  }

  private static PersistentVolumeClaimSpec withStorage(PersistentVolumeClaimSpec s, String size) {
    return new PersistentVolumeClaimSpec(s.accessModes(), s.selector(), new VolumeResourceRequirements(
        ResourceList.builder().put("storage", size).build(), ResourceList.EMPTY), s.storageClassName(),
        s.volumeMode(), s.volumeName());
  }
}
