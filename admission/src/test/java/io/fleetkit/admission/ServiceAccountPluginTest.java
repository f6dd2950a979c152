package io.fleetkit.admission;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.admission.AdmissionChain;
import io.fleetkit.api.admission.AdmissionDeniedException;
import io.fleetkit.api.core.EnvFromSource;
import io.fleetkit.api.core.EnvVar;
import io.fleetkit.api.core.EnvVarSource;
import io.fleetkit.api.core.Namespace;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.core.ServiceAccount;
import io.fleetkit.api.core.Volume;
import io.fleetkit.api.core.VolumeSource;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.store.ObjectStore;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * ServiceAccount admission, cases ported from kubernetes {@code plugin/pkg/admission/serviceaccount/admission_test.go}
 * (the stored version of aks-lts/kubernetes at a359a615, the projected-token generation, whose plugin matches
 * upstream's current {@code admission.go}), each through a store with the plugin in its chain. Upstream's pods are
 * created in namespace {@code myns}; the token volume's cases are in {@link ServiceAccountTokenVolumeTest}; env references to secrets have FleetKit's own cases, with upstream's messages. The four image-pull-secret tests run with {@code LimitSecretReferences}, as
 * upstream's.
 */
final class ServiceAccountPluginTest {
  private static final String NS = "myns";
  private ObjectStore store = store(new ServiceAccountPlugin());

  private static ObjectStore store(ServiceAccountPlugin plugin) {
    ObjectStore s = ObjectStore.builder().directDelivery().admission(AdmissionChain.of(new NamespaceLifecyclePlugin(),
        plugin)).build();
    s.create(Namespace.of(NS));
    return s;
  }

  @AfterEach
  void close() {
    store.close();
  }

  private static Pod pod(UnaryOperator<PodSpec.Builder> f) {
    return Pod.of(ObjectMeta.of(NS, "myname"), f.apply(PodSpec.builder().container("c", "img", ResourceList.EMPTY))
        .build());
  }

  private static Pod mirror(UnaryOperator<PodSpec.Builder> f) {
    Pod p = pod(f);
    return p.withMetadata(p.metadata().toBuilder().annotations(Map.of(ServiceAccountPlugin.MIRROR_POD_ANNOTATION,
        "true")).build());
  }

  private static ServiceAccount account(String name, List<String> secrets, Map<String, String> annotations) {
    return new ServiceAccount(ObjectMeta.builder().namespace(NS).name(name).annotations(annotations).build(), secrets,
        List.of(), null);
  }

  private AdmissionDeniedException denial(Pod p) {
    AdmissionDeniedException[] out = new AdmissionDeniedException[1];
    assertThatThrownBy(() -> store.create(p)).isInstanceOfSatisfying(AdmissionDeniedException.class,
        e -> out[0] = e);
    assertThat(out[0].plugin()).isEqualTo(ServiceAccountPlugin.NAME);
    return out[0];
  }

  private ServiceAccount pullingAccount(String... pullSecrets) {
    return new ServiceAccount(ObjectMeta.of(NS, "default"), List.of(), List.of(pullSecrets), null);
  }

  @Test
  void testAllowsReferencedImagePullSecrets() {
    store.close();
    store = store(ServiceAccountPlugin.limitingSecretReferences());
    store.create(pullingAccount("foo"));
    assertThat(store.create(pod(b -> b.imagePullSecrets(List.of("foo")))).spec().imagePullSecrets())
        .containsExactly("foo");
  }

  @Test
  void testRejectsUnreferencedImagePullSecrets() {
    store.close();
    store = store(ServiceAccountPlugin.limitingSecretReferences());
    store.create(pullingAccount());
    AdmissionDeniedException e = denial(pod(b -> b.imagePullSecrets(List.of("foo"))));
    assertThat(e.getMessage()).contains("spec.imagePullSecrets[0].name").contains("imagePullSecrets[0].name=\"foo\" is "
        + "not allowed because service account default does not reference that imagePullSecret");
    assertThat(store.get(Pod.class, NS, "myname")).isEmpty();
  }

  @Test
  void testDoNotAddImagePullSecrets() {
    store.close();
    store = store(ServiceAccountPlugin.limitingSecretReferences());
    store.create(pullingAccount("foo", "bar"));
    assertThat(store.create(pod(b -> b.imagePullSecrets(List.of("foo")))).spec().imagePullSecrets())
        .containsExactly("foo");
  }

  @Test
  void testAddImagePullSecrets() {
    store.close();
    store = store(ServiceAccountPlugin.limitingSecretReferences());
    ServiceAccount sa = store.create(pullingAccount("foo", "bar"));
    Pod created = store.create(pod(b -> b));
    assertThat(created.spec().imagePullSecrets()).containsExactly("foo", "bar");
    // upstream then changes the pod's copy and checks the account kept its own; records cannot be changed in place,
    // so the stored account is compared instead
    assertThat(store.require(ServiceAccount.class, NS, "default")).isEqualTo(sa);
    // FleetKit's: the same manifest applied again keeps the copied secrets (the field is immutable)
    Pod again = created.withSpec(pod(b -> b).spec());
    assertThat(store.update(again).spec().imagePullSecrets()).containsExactly("foo", "bar");
  }

  @Test
  void testIgnoresNonCreate() {
    store.create(ServiceAccount.of(NS, "default"));
    Pod p = store.create(pod(b -> b));
    store.delete(ServiceAccount.class, NS, "default");
    // an update and a deletion of the pod are not checked, though its account is gone
    Pod updated = store.update(p.withMetadata(p.metadata().toBuilder().labels(Map.of("a", "b")).build()));
    assertThat(updated.spec().serviceAccountName()).isEqualTo("default");
    store.delete(Pod.class, NS, "myname");
    assertThat(store.get(Pod.class, NS, "myname")).isEmpty();
  }

  @Test
  void update_withoutTheAccount_keepsIt_anotherAccountIsRefusedAsImmutable() {
    // FleetKit's: a manifest applied again replaces the whole spec
    store.create(ServiceAccount.of(NS, "default"));
    Pod p = store.create(pod(b -> b));
    Pod again = p.withSpec(pod(b -> b).spec());
    assertThat(again.spec().serviceAccountName()).isEmpty();
    assertThat(store.update(again).spec().serviceAccountName()).isEqualTo("default");
    Pod other = p.withSpec(pod(b -> b.serviceAccountName("other")).spec());
    assertThatThrownBy(() -> store.update(other)).isInstanceOf(io.fleetkit.api.ValidationException.class)
        .hasMessageContaining("serviceAccountName");
  }

  @Test
  void testIgnoresNonPodResource_andNonPodObject() {
    // no account exists in the namespace: objects of other kinds are not looked at
    store.create(Namespace.of("other"));
    store.create(ServiceAccount.of(NS, "builder"));
    assertThat(store.get(ServiceAccount.class, NS, "builder")).isPresent();
  }

  @Test
  void testIgnoresMirrorPod() {
    Pod created = store.create(mirror(b -> b.volume(Volume.emptyDir("scratch"))));
    assertThat(created.spec().serviceAccountName()).as("a mirror pod is not changed").isEmpty();
  }

  @Test
  void testRejectsMirrorPodWithServiceAccount() {
    AdmissionDeniedException e = denial(mirror(b -> b.serviceAccountName("default")));
    assertThat(e.field()).isEqualTo("spec.serviceAccountName");
    assertThat(e.rule()).isEqualTo("a mirror pod may not reference service accounts");
  }

  @Test
  void testRejectsMirrorPodWithSecretVolumes() {
    AdmissionDeniedException e = denial(mirror(b -> b.volume(new Volume("v", new VolumeSource.Secret("mysecret")))));
    assertThat(e.field()).isEqualTo("spec.volumes[0].secret");
    assertThat(e.rule()).isEqualTo("a mirror pod may not reference secrets");
  }

  // FleetKit's own case: upstream's VisitPodSecretNames visits image pull secrets first
  @Test
  void mirrorPod_withImagePullSecret_isRefusedNamingTheField() {
    AdmissionDeniedException e = denial(mirror(b -> b.imagePullSecrets(List.of("registry"))));
    assertThat(e.field()).isEqualTo("spec.imagePullSecrets[0]");
    assertThat(e.rule()).isEqualTo("a mirror pod may not reference secrets");
  }

  @Test
  void testRejectsMirrorPodWithProjectedSecret() {
    VolumeSource projected = new VolumeSource.Projected(List.of(new io.fleetkit.api.core.VolumeProjection.Secret(
        "mysecret", List.of(), false)), null);
    AdmissionDeniedException e = denial(mirror(b -> b.volume(new Volume("v", projected))));
    assertThat(e.field()).isEqualTo("spec.volumes[0].projected");
    assertThat(e.rule()).isEqualTo("a mirror pod may not reference secrets");
  }

  @Test
  void testRejectsMirrorPodWithServiceAccountTokenVolumeProjections() {
    VolumeSource projected = new VolumeSource.Projected(List.of(
        new io.fleetkit.api.core.VolumeProjection.ServiceAccountToken("", null, "token")), null);
    AdmissionDeniedException e = denial(mirror(b -> b.volume(new Volume("v", projected))));
    assertThat(e.field()).isEqualTo("spec.volumes[0].projected");
    assertThat(e.rule()).isEqualTo("a mirror pod may not use ServiceAccountToken volume projections");
  }

  @Test
  void testAcceptsMirrorPodWithProjectedConfigMap() {
    VolumeSource projected = new VolumeSource.Projected(List.of(new io.fleetkit.api.core.VolumeProjection.ConfigMap(
        "kube-root-ca.crt", List.of(), false)), null);
    assertThat(store.create(mirror(b -> b.volume(new Volume("v", projected)))).spec().volumes()).hasSize(1);
  }

  @Test
  void testFetchesUncachedServiceAccount() {
    store.create(ServiceAccount.of(NS, PodSpec.DEFAULT_SERVICE_ACCOUNT));
    assertThat(store.create(pod(b -> b)).spec().serviceAccountName()).isEqualTo(PodSpec.DEFAULT_SERVICE_ACCOUNT);
  }

  @Test
  void testDeniesInvalidServiceAccount() {
    AdmissionDeniedException e = denial(pod(b -> b));
    assertThat(e.field()).isEqualTo("spec.serviceAccountName");
    assertThat(e.rule()).isEqualTo("error looking up service account myns/default: serviceaccount \"default\" not found");
    assertThat(e.getMessage()).startsWith("Pod myns/myname is forbidden: error looking up service account");
    // a named account that does not exist, likewise (FleetKit's own case)
    assertThat(denial(pod(b -> b.serviceAccountName("builder"))).rule())
        .isEqualTo("error looking up service account myns/builder: serviceaccount \"builder\" not found");
  }

  @Test
  void testAllowsReferencedSecret() {
    store.close();
    store = store(ServiceAccountPlugin.limitingSecretReferences());
    store.create(account(PodSpec.DEFAULT_SERVICE_ACCOUNT, List.of("foo"), Map.of()));
    assertThat(store.create(pod(b -> b.volume(new Volume("v", new VolumeSource.Secret("foo")))))).isNotNull();
  }

  @Test
  void testRejectsUnreferencedSecretVolumes() {
    store.close();
    store = store(ServiceAccountPlugin.limitingSecretReferences());
    store.create(account(PodSpec.DEFAULT_SERVICE_ACCOUNT, List.of(), Map.of()));
    AdmissionDeniedException e = denial(pod(b -> b.volume(Volume.emptyDir("scratch"))
        .volume(new Volume("v", new VolumeSource.Secret("foo")))));
    assertThat(e.field()).isEqualTo("spec.volumes[1].secret.secretName");
    assertThat(e.rule()).isEqualTo("volume with secret.secretName=\"foo\" is not allowed because service account"
        + " default does not reference that secret");
  }

  private static Pod envPod(List<EnvVar> initEnv, List<EnvFromSource> envFrom) {
    io.fleetkit.api.core.Container init = io.fleetkit.api.core.Container.of("init", "img", ResourceList.EMPTY)
        .withEnv(initEnv);
    io.fleetkit.api.core.Container c = io.fleetkit.api.core.Container.of("c", "img", ResourceList.EMPTY)
        .withEnvFrom(envFrom);
    return Pod.of(ObjectMeta.of(NS, "myname"), PodSpec.builder().initContainer(init).container(c).build());
  }

  // FleetKit's cases after admission.go's limitSecretReferences, env and envFrom included (the CVE-2024-3177 fix):
  // init containers first, each container's env before its envFrom
  @Test
  void limitSecretReferences_envAndEnvFrom_mustNameTheAccountsSecrets() {
    store.close();
    store = store(ServiceAccountPlugin.limitingSecretReferences());
    store.create(account(PodSpec.DEFAULT_SERVICE_ACCOUNT, List.of("foo"), Map.of()));
    AdmissionDeniedException e = denial(envPod(List.of(EnvVar.from("TOKEN", EnvVarSource.secretKey("bar", "t",
        false))), List.of(EnvFromSource.secret("baz", false))));
    assertThat(e.field()).isEqualTo("spec.initContainers[0].env[0].valueFrom.secretKeyRef.name");
    assertThat(e.rule()).isEqualTo("init container init with envVar TOKEN referencing secret.secretName=\"bar\" is "
        + "not allowed because service account default does not reference that secret");
    e = denial(envPod(List.of(), List.of(EnvFromSource.configMap("cfg", false), EnvFromSource.secret("baz", true))));
    assertThat(e.field()).isEqualTo("spec.containers[0].envFrom[1].secretRef.name");
    assertThat(e.rule()).isEqualTo("container c with envFrom referencing secret.secretName=\"baz\" is not allowed "
        + "because service account default does not reference that secret");
    assertThat(store.create(envPod(List.of(EnvVar.from("TOKEN", EnvVarSource.secretKey("foo", "t", false)),
        EnvVar.from("LEVEL", EnvVarSource.configMapKey("bar", "level", false))),
        List.of(EnvFromSource.secret("foo", false))))).isNotNull();
  }

  // FleetKit's own case: VisitPodSecretNames visits the containers' env references too
  @Test
  void mirrorPod_withEnvSecretReference_isRefusedNamingTheField() {
    Pod p = envPod(List.of(), List.of(EnvFromSource.secret("foo", false)));
    AdmissionDeniedException e = denial(p.withMetadata(p.metadata().toBuilder().annotations(Map.of(
        ServiceAccountPlugin.MIRROR_POD_ANNOTATION, "true")).build()));
    assertThat(e.field()).isEqualTo("spec.containers[0].envFrom[0].secretRef");
    assertThat(e.rule()).isEqualTo("a mirror pod may not reference secrets");
  }

  @Test
  void testAllowUnreferencedSecretVolumesForPermissiveSAs() {
    // LimitSecretReferences off, but the account asks for enforcement
    store.create(account(PodSpec.DEFAULT_SERVICE_ACCOUNT, List.of(),
        Map.of(ServiceAccountPlugin.ENFORCE_MOUNTABLE_SECRETS, "true")));
    denial(pod(b -> b.volume(new Volume("v", new VolumeSource.Secret("foo")))));
    // without the annotation (or with a value Go's ParseBool does not take as true) the volume is allowed
    store.create(account("free", List.of(), Map.of(ServiceAccountPlugin.ENFORCE_MOUNTABLE_SECRETS, "yes")));
    assertThat(store.create(pod(b -> b.serviceAccountName("free").volume(new Volume("v",
        new VolumeSource.Secret("foo")))))).isNotNull();
  }

  @Test
  void withServiceAccounts_chainInUpstreamOrder_andTheControllerLetsPodsIn() {
    AdmissionChain chain = Admission.withServiceAccounts(Clock.systemUTC());
    assertThat(chain.plugins()).extracting(p -> p.name()).containsExactly("NamespaceLifecycle", "DRAAdminAccess",
        "LimitRanger", "ServiceAccount", "Priority", "DefaultTolerationSeconds", "ResourceQuota");
    try (ObjectStore s = ObjectStore.builder().directDelivery().admission(chain).build();
        ServiceAccountsController c = ServiceAccountsController.of(s).start()) {
      s.create(Namespace.of("team"));
      Pod p = s.create(Pod.of(ObjectMeta.of("team", "web"), PodSpec.builder().container("c", "img",
          ResourceList.EMPTY).build()));
      assertThat(p.spec().serviceAccountName()).isEqualTo("default");
    }
  }
}
