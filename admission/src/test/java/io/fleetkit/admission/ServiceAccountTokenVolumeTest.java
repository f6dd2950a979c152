package io.fleetkit.admission;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.admission.AdmissionChain;
import io.fleetkit.api.core.Container;
import io.fleetkit.api.core.DownwardAPIVolumeFile;
import io.fleetkit.api.core.KeyToPath;
import io.fleetkit.api.core.Namespace;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.core.ServiceAccount;
import io.fleetkit.api.core.Volume;
import io.fleetkit.api.core.VolumeMount;
import io.fleetkit.api.core.VolumeProjection;
import io.fleetkit.api.core.VolumeSource;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.store.ObjectStore;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.AlphaChars;
import net.jqwik.api.constraints.StringLength;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The token volume of ServiceAccount admission. Cases ported from kubernetes
 * {@code plugin/pkg/admission/serviceaccount/admission_test.go} (the stored version of aks-lts/kubernetes at a359a615):
 * TestAssignsDefaultServiceAccountAndBoundTokenWithNoSecretTokens, TestAutomountsAPIToken and TestRespectsExistingMount
 * (each with its containers and init-containers halves), then FleetKit's own cases for
 * {@code automountServiceAccountToken} (upstream's {@code shouldAutomount}), for a pod that has a
 * {@code kube-api-access-*} volume already, and for mixed containers. Each runs through a store whose chain has the
 * plugin, naming new volumes as upstream's tests do ({@code testGenerateName}: {@code kube-api-access-abc123}).
 *
 * <p>Adapted where FleetKit's pod validation, which the store applies, refuses upstream's pod: a pod needs a regular
 * container, so the init-container halves have one too (mounting the path as the init container does, in
 * TestRespectsExistingMount, so that no volume is needed, as upstream expects); and a mount must name a volume of the
 * pod, so TestRespectsExistingMount's pod has its {@code my-custom-mount} volume (an emptyDir), which stays the only one.
 */
final class ServiceAccountTokenVolumeTest {
  private static final String NS = "myns";
  private static final String GENERATED = "kube-api-access-abc123";
  private static final String PATH = "/var/run/secrets/kubernetes.io/serviceaccount";
  /** Upstream's {@code expectedVolumeMount} of the token volume. */
  private static final VolumeMount TOKEN_MOUNT = new VolumeMount(GENERATED, true, PATH, "");
  /** TestRespectsExistingMount's mount: another volume, read-write, at the token's path. */
  private static final VolumeMount CUSTOM_MOUNT = new VolumeMount("my-custom-mount", false, PATH, "");
  private static final Volume CUSTOM_VOLUME = Volume.emptyDir("my-custom-mount");
  /** Upstream's expected volume, written out (TestAssignsDefaultServiceAccountAndBoundTokenWithNoSecretTokens). */
  private static final Volume TOKEN_VOLUME = new Volume(GENERATED, new VolumeSource.Projected(List.of(
      new VolumeProjection.ServiceAccountToken("", 3607L, "token"),
      new VolumeProjection.ConfigMap("kube-root-ca.crt", List.of(new KeyToPath("ca.crt", "ca.crt", null)), false),
      new VolumeProjection.DownwardAPI(List.of(new DownwardAPIVolumeFile("namespace",
          new DownwardAPIVolumeFile.FieldRef("v1", "metadata.namespace"), null, null)))), 0644));

  /**
   * One case: the pod's containers and init containers (name and mounts), its volumes and
   * {@code automountServiceAccountToken}, the account's; the volumes and each container's mounts expected after
   * admission (init containers first).
   */
  record Case(String name, List<List<VolumeMount>> init, List<List<VolumeMount>> containers, List<Volume> volumes,
      @Nullable Boolean podAutomount, @Nullable Boolean accountAutomount, List<Volume> wantVolumes,
      List<List<VolumeMount>> wantInit, List<List<VolumeMount>> wantContainers) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Case> cases() {
    List<VolumeMount> none = List.of();
    Volume dumped = new Volume("kube-api-access-x1", ServiceAccountPlugin.TOKEN_VOLUME_SOURCE);
    VolumeMount dumpedMount = new VolumeMount("kube-api-access-x1", true, PATH, "");
    Volume scratch = Volume.emptyDir("scratch");
    VolumeMount scratchMount = new VolumeMount("scratch", false, "/scratch", "");
    return Stream.of(
        // upstream
        new Case("TestAssignsDefaultServiceAccountAndBoundTokenWithNoSecretTokens", List.of(), List.of(none),
            List.of(), null, null, List.of(TOKEN_VOLUME), List.of(), List.of(List.of(TOKEN_MOUNT))),
        new Case("TestAutomountsAPIToken containers", List.of(), List.of(none), List.of(), null, null,
            List.of(TOKEN_VOLUME), List.of(), List.of(List.of(TOKEN_MOUNT))),
        new Case("TestAutomountsAPIToken init containers", List.of(none), List.of(none), List.of(), null, null,
            List.of(TOKEN_VOLUME), List.of(List.of(TOKEN_MOUNT)), List.of(List.of(TOKEN_MOUNT))),
        new Case("TestRespectsExistingMount containers", List.of(), List.of(List.of(CUSTOM_MOUNT)),
            List.of(CUSTOM_VOLUME), null, null, List.of(CUSTOM_VOLUME), List.of(), List.of(List.of(CUSTOM_MOUNT))),
        new Case("TestRespectsExistingMount init containers", List.of(List.of(CUSTOM_MOUNT)),
            List.of(List.of(CUSTOM_MOUNT)), List.of(CUSTOM_VOLUME), null, null, List.of(CUSTOM_VOLUME),
            List.of(List.of(CUSTOM_MOUNT)), List.of(List.of(CUSTOM_MOUNT))),
        // FleetKit's: shouldAutomount, the pod's setting first, then the account's, else true
        new Case("pod false", List.of(none), List.of(none), List.of(), false, null, List.of(), List.of(none),
            List.of(none)),
        new Case("account false", List.of(), List.of(none), List.of(), null, false, List.of(), List.of(),
            List.of(none)),
        new Case("account false, pod true", List.of(), List.of(none), List.of(), true, false, List.of(TOKEN_VOLUME),
            List.of(), List.of(List.of(TOKEN_MOUNT))),
        new Case("account true, pod false", List.of(), List.of(none), List.of(), false, true, List.of(), List.of(),
            List.of(none)),
        new Case("account true", List.of(), List.of(none), List.of(), null, true, List.of(TOKEN_VOLUME), List.of(),
            List.of(List.of(TOKEN_MOUNT))),
        // a kube-api-access-* volume already there (a dumped pod) is the one mounted; no second one
        new Case("existing kube-api-access volume", List.of(), List.of(none, List.of(dumpedMount)), List.of(dumped),
            null, null, List.of(dumped), List.of(), List.of(List.of(dumpedMount), List.of(dumpedMount))),
        // only the containers without a mount at the path get one; other mounts are kept, the token's last
        new Case("mixed containers", List.of(List.of(scratchMount)), List.of(List.of(CUSTOM_MOUNT), none),
            List.of(CUSTOM_VOLUME, scratch), null, null, List.of(CUSTOM_VOLUME, scratch, TOKEN_VOLUME),
            List.of(List.of(scratchMount, TOKEN_MOUNT)), List.of(List.of(CUSTOM_MOUNT), List.of(TOKEN_MOUNT))));
  }

  private static ObjectStore store(@Nullable Boolean accountAutomount) {
    ObjectStore s = ObjectStore.builder().directDelivery().admission(AdmissionChain.of(new NamespaceLifecyclePlugin(),
        new ServiceAccountPlugin(false, p -> GENERATED))).build();
    s.create(Namespace.of(NS));
    s.create(new ServiceAccount(ObjectMeta.of(NS, PodSpec.DEFAULT_SERVICE_ACCOUNT), List.of(), List.of(),
        accountAutomount));
    return s;
  }

  private static List<Container> containers(String prefix, List<List<VolumeMount>> mounts) {
    return java.util.stream.IntStream.range(0, mounts.size()).mapToObj(i -> Container.of(prefix + i, "img",
        ResourceList.EMPTY).withVolumeMounts(mounts.get(i))).toList();
  }

  private static Pod pod(Case c) {
    return Pod.of(ObjectMeta.of(NS, "myname"), PodSpec.builder().initContainers(containers("init", c.init()))
        .containers(containers("c", c.containers())).volumes(c.volumes())
        .automountServiceAccountToken(c.podAutomount()).build());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void create_mountsTheTokenVolume_asUpstream(Case c) {
    try (ObjectStore store = store(c.accountAutomount())) {
      Pod created = store.create(pod(c));
      assertThat(created.spec().serviceAccountName()).isEqualTo(PodSpec.DEFAULT_SERVICE_ACCOUNT);
      assertThat(created.spec().volumes()).containsExactlyElementsOf(c.wantVolumes());
      assertThat(created.spec().initContainers()).extracting(Container::volumeMounts)
          .containsExactlyElementsOf(c.wantInit());
      assertThat(created.spec().containers()).extracting(Container::volumeMounts)
          .containsExactlyElementsOf(c.wantContainers());
      for (Volume v : created.spec().volumes()) {
        if (v.source() instanceof VolumeSource.Projected p) {
          // upstream's secondary check: the result is what defaulting leaves as it is (the mode is set explicitly)
          assertThat(p.defaultMode()).isEqualTo(0644);
        }
      }
      // upstream runs every case with WithReinvocationTesting: admitting the result again changes nothing
      Pod again = AdmissionChain.of(new ServiceAccountPlugin(false, p -> "kube-api-access-other"))
          .admit(io.fleetkit.api.admission.AdmissionOperation.CREATE, created, null, store).object();
      assertThat(again.spec()).isEqualTo(created.spec());
    }
  }

  @org.junit.jupiter.api.Test
  void mirrorPod_getsNoTokenVolume() {
    try (ObjectStore store = store(null)) {
      Pod p = pod(cases().findFirst().orElseThrow());
      Pod mirror = p.withMetadata(p.metadata().toBuilder().annotations(Map.of(
          ServiceAccountPlugin.MIRROR_POD_ANNOTATION, "true")).build());
      Pod created = store.create(mirror);
      assertThat(created.spec().volumes()).isEmpty();
      assertThat(created.spec().containers().get(0).volumeMounts()).isEmpty();
    }
  }

  // FleetKit's: the whole manifest applied again (an update without the volume) keeps the volume and the mounts, which
  // are immutable; an update that keeps them changes nothing
  @org.junit.jupiter.api.Test
  void update_withoutTheTokenVolume_keepsIt() {
    try (ObjectStore store = store(null)) {
      Case c = cases().filter(x -> x.name().equals("mixed containers")).findFirst().orElseThrow();
      Pod created = store.create(pod(c));
      Pod again = store.update(created.withSpec(pod(c).spec().withServiceAccountName("default")));
      assertThat(again.spec()).isEqualTo(created.spec());
      Pod relabelled = store.update(again.withMetadata(again.metadata().toBuilder().labels(Map.of("a", "b"))
          .build()));
      assertThat(relabelled.spec()).isEqualTo(created.spec());
    }
  }

  @org.junit.jupiter.api.Test
  void defaultNames_areDeterministic_andDifferByPod() {
    try (ObjectStore store = ObjectStore.builder().directDelivery().admission(AdmissionChain.of(
        new ServiceAccountPlugin())).build()) {
      store.create(Namespace.of(NS));
      store.create(ServiceAccount.of(NS, PodSpec.DEFAULT_SERVICE_ACCOUNT));
      Pod a = store.create(Pod.of(ObjectMeta.of(NS, "web-1"), PodSpec.builder().container("c", "img",
          ResourceList.EMPTY).build()));
      Pod b = store.create(Pod.of(ObjectMeta.of(NS, "web-2"), PodSpec.builder().container("c", "img",
          ResourceList.EMPTY).build()));
      String nameA = a.spec().volumes().get(0).name();
      assertThat(nameA).isEqualTo(ServiceAccountPlugin.tokenVolumeName(a)).matches(
          "kube-api-access-[bcdfghjklmnpqrstvwxz2456789]{5}");
      assertThat(b.spec().volumes().get(0).name()).isNotEqualTo(nameA);
      // every pod's volume has the one shared source
      assertThat(a.spec().volumes().get(0).source()).isSameAs(b.spec().volumes().get(0).source())
          .isSameAs(ServiceAccountPlugin.TOKEN_VOLUME_SOURCE);
    }
  }

  @Property
  void tokenVolumeName_isAValidVolumeName_fromTheNameAlone(@ForAll @AlphaChars @StringLength(min = 1, max = 20)
      String name) {
    String podName = name.toLowerCase(java.util.Locale.ROOT);
    Pod p = Pod.of(ObjectMeta.of(NS, podName), PodSpec.builder().container("c", "img", ResourceList.EMPTY).build());
    String v = ServiceAccountPlugin.tokenVolumeName(p);
    assertThat(v).matches("kube-api-access-[bcdfghjklmnpqrstvwxz2456789]{5}")
        .isEqualTo(ServiceAccountPlugin.tokenVolumeName(Pod.of(ObjectMeta.of(NS, podName), p.spec())));
  }
}
