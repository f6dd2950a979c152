package io.fleetkit.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.apps.Deployment;
import io.fleetkit.api.core.ConfigMap;
import io.fleetkit.api.core.Container;
import io.fleetkit.api.core.DownwardAPIVolumeFile;
import io.fleetkit.api.core.KeyToPath;
import io.fleetkit.api.core.Namespace;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.core.Volume;
import io.fleetkit.api.core.VolumeProjection;
import io.fleetkit.api.core.VolumeSource;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.reconcile.controllers.RootCACertPublisher;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The root CA publisher and projected volumes in a whole simulation: every namespace gets its {@code kube-root-ca.crt}
 * ConfigMap, so pods with the {@code kube-api-access-*} volume a cluster gives every pod start; without the publisher
 * they wait in {@code ContainerCreating} with {@code FailedMount} on the timeline, as does a pod whose projected
 * volume reads a ConfigMap nobody creates.
 */
final class RootCAInSimulationTest {
  /** The volume the ServiceAccount admission of a cluster adds to every pod (a token, the root CA, the namespace). */
  private static Volume kubeApiAccess() {
    return new Volume("kube-api-access-x1", new VolumeSource.Projected(List.of(
        new VolumeProjection.ServiceAccountToken("", 3607L, "token"),
        new VolumeProjection.ConfigMap(RootCACertPublisher.CONFIG_MAP_NAME,
            List.of(new KeyToPath("ca.crt", "ca.crt", null)), false),
        new VolumeProjection.DownwardAPI(List.of(new DownwardAPIVolumeFile("namespace",
            new DownwardAPIVolumeFile.FieldRef("v1", "metadata.namespace"), null, null)))), 420));
  }

  private static Deployment web(String namespace, Volume volume) {
    PodSpec spec = PodSpec.builder().container(Container.of("app", "nginx:1", ResourceList.ofCpuMemory(100, 0)))
        .volume(volume).build();
    return Deployment.builder().namespace(namespace).name("web").replicas(2).matchLabels(Map.of("app", "web"))
        .podSpec(spec).build();
  }

  private static int readyReplicas(Simulation sim, String namespace) {
    return sim.store().get(Deployment.class, namespace, "web").orElseThrow().status().readyReplicas();
  }

  private static List<ApiObject<?>> objects(ApiObject<?>... more) {
    List<ApiObject<?>> out = new ArrayList<>(SimFixtures.nodes(2));
    out.addAll(List.of(more));
    return out;
  }

  @Test
  void everyNamespace_getsTheRootCA_andKubeApiAccessPodsStart() {
    try (Simulation sim = Simulation.builder().objects(objects(Namespace.of("shop"), web("shop", kubeApiAccess())))
        .seed(1).build()) {
      sim.runFor(Duration.ofMinutes(1));

      assertThat(readyReplicas(sim, "shop")).isEqualTo(2);
      assertThat(sim.timeline()).noneMatch(e -> e.kind().equals("FailedMount"));
      for (String ns : List.of("default", "kube-public", "kube-system", "shop")) {
        ConfigMap cm = sim.store().require(ConfigMap.class, ns, RootCACertPublisher.CONFIG_MAP_NAME);
        assertThat(cm.data()).as(ns).isEqualTo(Map.of("ca.crt", Simulation.TEST_ROOT_CA));
        assertThat(cm.metadata().annotations()).containsEntry(RootCACertPublisher.DESCRIPTION_ANNOTATION,
            RootCACertPublisher.DESCRIPTION);
      }
    }
  }

  /**
   * A pod that starts bound (as a dump's running pods) is set up by its kubelet in the first settle round; the
   * starting namespaces have their ConfigMap before it, so it never misses it.
   */
  @Test
  void podBoundAtTheStart_findsTheRootCA_noFailedMount() {
    Pod bound = Pod.builder().namespace("shop").name("web-0").nodeName("node-1")
        .container("app", "nginx:1", ResourceList.ofCpuMemory(100, 0)).volume(kubeApiAccess()).build();
    try (Simulation sim = Simulation.builder().objects(objects(Namespace.of("shop"), bound)).seed(1).build()) {
      sim.runFor(Duration.ofSeconds(30));

      assertThat(sim.timeline()).noneMatch(e -> e.kind().equals("FailedMount"));
      assertThat(sim.store().require(Pod.class, "shop", "web-0").status().containerStatuses().get(0).state()
          .reason()).isNotEqualTo("ContainerCreating");
    }
  }

  @Test
  void rootCA_given_isPublished_andRestoredWhenChanged() {
    String pem = "-----BEGIN CERTIFICATE-----\nVEVTVA==\n-----END CERTIFICATE-----\n";
    try (Simulation sim = Simulation.builder().objects(objects()).rootCA(pem).seed(1).build()) {
      sim.runFor(Duration.ofSeconds(1));
      ConfigMap cm = sim.store().require(ConfigMap.class, "default", RootCACertPublisher.CONFIG_MAP_NAME);
      assertThat(cm.data()).isEqualTo(Map.of("ca.crt", pem));

      sim.store().update(new ConfigMap(cm.metadata(), Map.of("ca.crt", "changed"), Map.of(), false));
      sim.store().delete(ConfigMap.class, "kube-system", RootCACertPublisher.CONFIG_MAP_NAME);
      sim.runFor(Duration.ofSeconds(1));

      assertThat(sim.store().require(ConfigMap.class, "default", RootCACertPublisher.CONFIG_MAP_NAME).data())
          .isEqualTo(Map.of("ca.crt", pem));
      assertThat(sim.store().get(ConfigMap.class, "kube-system", RootCACertPublisher.CONFIG_MAP_NAME)).isPresent();
    }
  }

  @Test
  void withoutPublisher_kubeApiAccessPodsWaitWithFailedMount() {
    try (Simulation sim = Simulation.builder().objects(objects(web("default", kubeApiAccess())))
        .withoutRootCACertPublisher().seed(1).build()) {
      sim.runFor(Duration.ofMinutes(2));

      assertThat(readyReplicas(sim, "default")).isZero();
      assertThat(sim.store().list(ConfigMap.class).items()).isEmpty();
      assertThat(sim.store().list(Pod.class, "default").items()).hasSize(2).allSatisfy(p ->
          assertThat(p.status().containerStatuses().get(0).state().reason()).isEqualTo("ContainerCreating"));
      assertThat(sim.timeline()).filteredOn(e -> e.kind().equals("FailedMount")).hasSize(2)
          .allSatisfy(e -> assertThat(e.message()).isEqualTo("MountVolume.SetUp failed for volume "
              + "\"kube-api-access-x1\" : configmap \"kube-root-ca.crt\" not found"));
    }
  }

  /** The token volumes of the pods of {@code namespace}, by pod name. */
  private static Map<String, String> tokenVolumes(Simulation sim, String namespace) {
    Map<String, String> out = new java.util.TreeMap<>();
    for (Pod p : sim.store().list(Pod.class, namespace).items()) {
      for (Volume v : p.spec().volumes()) {
        out.put(p.metadata().name(), v.name());
      }
    }
    return out;
  }

  /**
   * With ServiceAccount admission (the chain a simulation of manifests with a Namespace runs) every pod created gets
   * the kube-api-access volume, mounted in its container, and its kubelet reads the published ConfigMap; the volume
   * names follow the seed; without the publisher the pods wait on it.
   */
  @Test
  void serviceAccountAdmission_givesEveryPodTheVolume_whichReadsTheRootCA() {
    Deployment plain = Deployment.builder().namespace("shop").name("web").replicas(2).matchLabels(Map.of("app", "web"))
        .podSpec(PodSpec.builder().container(Container.of("app", "nginx:1", ResourceList.ofCpuMemory(100, 0)))
            .build()).build();
    Map<String, String> first;
    try (Simulation sim = Simulation.builder().objects(objects(Namespace.of("shop"), plain))
        .admission(io.fleetkit.admission.Admission::withServiceAccounts).seed(1).build()) {
      sim.runFor(Duration.ofMinutes(1));

      assertThat(readyReplicas(sim, "shop")).isEqualTo(2);
      assertThat(sim.timeline()).noneMatch(e -> e.kind().equals("FailedMount"));
      for (Pod p : sim.store().list(Pod.class, "shop").items()) {
        assertThat(p.spec().volumes()).singleElement().satisfies(v -> {
          assertThat(v.name()).matches("kube-api-access-[bcdfghjklmnpqrstvwxz2456789]{5}");
          assertThat(v.source()).isEqualTo(kubeApiAccess().source()); // upstream's, defaultMode 0644 (420)
        });
        assertThat(p.spec().containers().get(0).volumeMounts()).containsExactly(io.fleetkit.api.core.VolumeMount.of(
            p.spec().volumes().get(0).name(), "/var/run/secrets/kubernetes.io/serviceaccount", true));
      }
      first = tokenVolumes(sim, "shop");
    }
    try (Simulation sim = Simulation.builder().objects(objects(Namespace.of("shop"), plain))
        .admission(io.fleetkit.admission.Admission::withServiceAccounts).seed(1).withoutRootCACertPublisher()
        .build()) {
      sim.runFor(Duration.ofMinutes(1));

      assertThat(tokenVolumes(sim, "shop")).as("same seed, same names").isEqualTo(first).hasSize(2);
      assertThat(readyReplicas(sim, "shop")).isZero();
      assertThat(sim.timeline()).filteredOn(e -> e.kind().equals("FailedMount")).isNotEmpty()
          .allSatisfy(e -> assertThat(e.message()).matches("MountVolume.SetUp failed for volume "
              + "\"kube-api-access-.{5}\" : configmap \"kube-root-ca.crt\" not found"));
    }
  }

  @Test
  void projectedConfigMapNobodyCreates_failedMountOnTheTimeline_thenStartsOnceCreated() {
    Volume settings = new Volume("settings", new VolumeSource.Projected(List.of(
        new VolumeProjection.ConfigMap("app-settings", List.of(), false),
        new VolumeProjection.ConfigMap(RootCACertPublisher.CONFIG_MAP_NAME, List.of(), false)), null));
    try (Simulation sim = Simulation.builder().objects(objects(web("default", settings))).seed(1).build()) {
      sim.runFor(Duration.ofMinutes(3));

      assertThat(readyReplicas(sim, "default")).isZero();
      assertThat(sim.timeline()).filteredOn(e -> e.kind().equals("FailedMount")).hasSize(2).allSatisfy(e -> {
        assertThat(e.object()).startsWith("Pod/default/web-");
        assertThat(e.message()).isEqualTo(
            "MountVolume.SetUp failed for volume \"settings\" : configmap \"app-settings\" not found");
      });

      sim.store().create(ConfigMap.of("default", "app-settings", Map.of("level", "info")));
      // the operation executor's backoff has reached its 2 m 2 s cap
      assertThat(sim.runUntil(s -> readyReplicas(s, "default") == 2, Duration.ofSeconds(123))).isTrue();
    }
  }

  @Test
  void builder_publisherSetTwice_isRefusedNamingTheOldSetting() {
    assertThatThrownBy(() -> Simulation.builder().withoutRootCACertPublisher().rootCA("x"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("simulation: the root CA publisher was already set to left out");
    assertThatThrownBy(() -> Simulation.builder().rootCA(" "))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("simulation: rootCA \" \" must be a CA bundle (PEM text), not blank");
  }
}
