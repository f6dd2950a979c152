package io.fleetkit.adapter.kubernetes.yaml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.fleetkit.api.core.LimitRange;
import io.fleetkit.api.core.LimitType;
import io.fleetkit.api.core.Namespace;
import io.fleetkit.api.core.ResourceQuota;
import io.fleetkit.api.core.Secret;
import io.fleetkit.api.meta.ApiObject;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Namespace, ResourceQuota, LimitRange, ConfigMap, Secret, ServiceAccount through the loader. */
final class TenancyKindsTest {

  private static <T> T only(List<ApiObject<?>> objects, Class<T> type, String name) {
    return objects.stream().filter(type::isInstance).map(type::cast)
        .filter(o -> ((ApiObject<?>) o).metadata().name().equals(name)).findFirst().orElseThrow();
  }

  @Test
  void parse_tenancyFixture_readsEveryField() {
    List<ApiObject<?>> objects = RoundTripTest.load("roundtrip/tenancy.yaml");

    Namespace a = only(objects, Namespace.class, "team-a");
    assertThat(a.metadata().labels()).containsEntry("tier", "gold");
    assertThat(only(objects, Namespace.class, "old-team").terminating()).isTrue();
    ResourceQuota q = only(objects, ResourceQuota.class, "compute");
    assertThat(q.spec().hard().get("requests.nvidia.com/gpu")).hasToString("2");
    assertThat(q.status().used().get("requests.cpu")).hasToString("1500m");
    assertThat(q.spec().scopeSelector()).singleElement().hasToString("{PriorityClass In [high medium]}");
    LimitRange lr = only(objects, LimitRange.class, "defaults");
    assertThat(lr.item(LimitType.Container).maxLimitRequestRatio().get("memory")).hasToString("1500m");
    Secret s = only(objects, Secret.class, "creds");
    assertThat(s.data().get("username").utf8()).isEqualTo("admin");
    assertThat(s.data().get("password").utf8()).isEqualTo("hunter2");
  }

  @Test
  void dump_secret_writesStringDataAsBase64DataOnly() {
    String yaml = KubernetesYaml.dump(List.of(only(RoundTripTest.load("roundtrip/tenancy.yaml"), Secret.class,
        "creds")));

    assertThat(yaml).contains("password: \"aHVudGVyMg==\"").doesNotContain("stringData").doesNotContain("hunter2");
  }

  @Test
  void parse_badSecretBase64_isReportedWithoutTheValue() {
    ManifestException e = catchThrowableOfType(ManifestException.class, () -> KubernetesYaml.parse("""
        apiVersion: v1
        kind: Secret
        metadata: {name: s, namespace: a}
        data: {token: "not base64 at all!"}
        """, "secret.yaml"));

    assertThat(e.problems()).singleElement().asString()
        .contains("Secret a/s: data.token must be base64-encoded")
        .doesNotContain("not base64 at all");
  }

  @Test
  void parse_badQuotaAndLimitRange_namesFieldAndRule() {
    ManifestException e = catchThrowableOfType(ManifestException.class, () -> KubernetesYaml.parse("""
        apiVersion: v1
        kind: ResourceQuota
        metadata: {name: q, namespace: a}
        spec:
          hard: {pods: 1500m, foo: "1"}
          scopes: [Sometimes]
        ---
        apiVersion: v1
        kind: LimitRange
        metadata: {name: lr, namespace: a}
        spec:
          limits:
          - {type: Pod, default: {cpu: "1"}}
        """, "quota.yaml"));

    assertThat(e.problems()).extracting(p -> p.violation().toString()).containsExactly(
        "ResourceQuota a/q: spec.hard[pods] \"1500m\" must be an integer",
        "ResourceQuota a/q: spec.scopes[0] \"Sometimes\" must be one of Terminating, NotTerminating, BestEffort,"
            + " NotBestEffort, PriorityClass, CrossNamespacePodAffinity",
        "ResourceQuota a/q: spec.hard[foo] \"foo\" must be a standard resource for quota",
        "LimitRange a/lr: spec.limits[0].default Forbidden: may not be specified when `type` is 'Pod'");
  }

  @Test
  void parse_namespaceKind_isSupported() {
    LoadedObjects loaded = KubernetesYaml.parse("""
        apiVersion: v1
        kind: Namespace
        metadata: {name: team-b, labels: {team: b}}
        """, "ns.yaml");

    assertThat(loaded.objects()).singleElement().isInstanceOfSatisfying(Namespace.class,
        n -> assertThat(n.metadata().namespace()).isEmpty());
  }

  @Test
  void namespace_deletionConditions_roundTrip() {
    String yaml = """
        apiVersion: v1
        kind: Namespace
        metadata: {name: leaving, deletionTimestamp: "2026-12-04T10:00:00Z", finalizers: [example.com/hold]}
        spec: {finalizers: [kubernetes]}
        status:
          phase: Terminating
          conditions:
          - type: NamespaceContentRemaining
            status: "True"
            lastTransitionTime: "2026-12-04T10:00:05Z"
            reason: SomeResourcesRemain
            message: "Some resources are remaining: pods. has 2 resource instances"
          - {type: NamespaceDeletionDiscoveryFailure, status: "False", reason: ResourcesDiscovered}
        """;
    Namespace n = (Namespace) KubernetesYaml.parse(yaml, "ns.yaml").objects().get(0);
    assertThat(n.status().conditions()).extracting(c -> c.type() + "=" + c.status() + "/" + c.reason())
        .containsExactly("NamespaceContentRemaining=True/SomeResourcesRemain",
            "NamespaceDeletionDiscoveryFailure=False/ResourcesDiscovered");
    assertThat(n.status().conditions().get(0).lastTransitionTime())
        .isEqualTo(java.time.Instant.parse("2026-12-04T10:00:05Z"));
    assertThat(n.spec().finalizers()).containsExactly("kubernetes");
    assertThat(n.metadata().finalizers()).containsExactly("example.com/hold");

    Namespace again = (Namespace) KubernetesYaml.parse(KubernetesYaml.dump(List.of(n)), "again.yaml").objects()
        .get(0);
    assertThat(again.status()).isEqualTo(n.status());
  }

  @Test
  void pod_terminating_deletionGracePeriodSecondsRoundTrip() {
    String yaml = """
        apiVersion: v1
        kind: Pod
        metadata: {name: web, namespace: default, deletionTimestamp: "2026-12-04T10:00:30Z",
          deletionGracePeriodSeconds: 30}
        spec:
          nodeName: node-1
          containers: [{name: c, image: img}]
        """;
    io.fleetkit.api.core.Pod p = (io.fleetkit.api.core.Pod) KubernetesYaml.parse(yaml, "pod.yaml").objects().get(0);
    assertThat(p.metadata().deletionGracePeriodSeconds()).isEqualTo(30L);
    assertThat(p.metadata().deletionTimestamp()).isEqualTo(java.time.Instant.parse("2026-12-04T10:00:30Z"));

    String dumped = KubernetesYaml.dump(List.of(p));
    assertThat(dumped).contains("deletionGracePeriodSeconds: 30");
    io.fleetkit.api.core.Pod again = (io.fleetkit.api.core.Pod) KubernetesYaml.parse(dumped, "again.yaml").objects()
        .get(0);
    assertThat(again.metadata()).isEqualTo(p.metadata());
  }

  @Test
  void namespace_conditionWithoutStatus_isRefusedWithItsPath() {
    ManifestException e = catchThrowableOfType(ManifestException.class, () -> KubernetesYaml.parse("""
        apiVersion: v1
        kind: Namespace
        metadata: {name: leaving}
        status: {phase: Terminating, conditions: [{type: NamespaceContentRemaining}]}
        """, "ns.yaml"));

    assertThat(e.problems()).singleElement().asString().contains("Namespace leaving")
        .contains("status.conditions[0].status");
  }
}
