package io.fleetkit.api.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.fleetkit.api.ValidationException;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.ResourceList;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Namespace, ResourceQuota, ConfigMap, Secret and ServiceAccount validation: the rules of Kubernetes'
 * {@code pkg/apis/core/validation/validation.go} with its messages.
 */
final class NamespaceKindsTest {

  private static List<String> violations(Runnable r) {
    return catchThrowableOfType(ValidationException.class, r::run).violations().stream()
        .map(Object::toString).toList();
  }

  private static ResourceList rl(String... kv) {
    ResourceList.Builder b = ResourceList.builder();
    for (int i = 0; i < kv.length; i += 2) {
      b.put(kv[i], kv[i + 1]);
    }
    return b.build();
  }

  @Test
  void namespace_of_isActiveWithKubernetesFinalizerAndNameLabel() {
    Namespace ns = Namespace.of("team-a", Map.of("tier", "gold"));

    assertThat(ns.namespaced()).isFalse();
    assertThat(ns.status().phase()).isEqualTo(NamespacePhase.Active);
    assertThat(ns.spec().finalizers()).containsExactly("kubernetes");
    assertThat(ns.terminating()).isFalse();
    assertThat(ns.selectorLabels()).containsEntry("tier", "gold")
        .containsEntry("kubernetes.io/metadata.name", "team-a");
    assertThat(ns.withMetadata(ns.metadata().toBuilder().deletionTimestamp(Instant.EPOCH).build()).terminating())
        .isTrue();
  }

  @Test
  void namespace_badNameAndFinalizer_reportsBoth() {
    assertThat(violations(() -> new Namespace(ObjectMeta.of("Team.A"), new NamespaceSpec(List.of("custom")),
        NamespaceStatus.ACTIVE)))
        .anySatisfy(v -> assertThat(v).startsWith("Namespace Team.A: metadata.name \"Team.A\" a lowercase RFC 1123"
            + " label must consist of"))
        .contains("Namespace Team.A: spec.finalizers[0] \"custom\" name is neither a standard finalizer name nor"
            + " is it fully qualified");
  }

  @Test
  void namespace_withNamespace_isRejected() {
    assertThat(violations(() -> new Namespace(ObjectMeta.of("x", "y"), NamespaceSpec.EMPTY,
        NamespaceStatus.ACTIVE)))
        .containsExactly("Namespace x/y: metadata.namespace \"x\" not allowed on this type");
  }

  @Test
  void resourceQuota_validSpec_keepsQuantitiesAndScopes() {
    ResourceQuota q = new ResourceQuota(ObjectMeta.of("a", "compute"), new ResourceQuotaSpec(
        rl("requests.cpu", "4", "limits.memory", "8Gi", "pods", "10"), List.of(ResourceQuotaScope.NotBestEffort),
        List.of(new ScopedResourceSelectorRequirement(ResourceQuotaScope.PriorityClass, ScopeSelectorOperator.In,
            List.of("high")))), ResourceQuotaStatus.EMPTY);

    assertThat(q.spec().hard().get("requests.cpu")).hasToString("4");
    assertThat(q.spec().scopeSelector().get(0)).hasToString("{PriorityClass In [high]}");
  }

  @Test
  void resourceQuota_brokenRules_areAllReported() {
    // validation_test.go TestValidateResourceQuota: non-standard name, fractional count, conflicting scopes,
    // scope not valid for a resource, operator/value rules of the scope selector.
    List<String> v = violations(() -> new ResourceQuota(ObjectMeta.of("a", "q"), new ResourceQuotaSpec(
        rl("foo", "1", "services", "1500m", "pods", "1"),
        List.of(ResourceQuotaScope.Terminating, ResourceQuotaScope.NotTerminating),
        List.of(new ScopedResourceSelectorRequirement(ResourceQuotaScope.BestEffort, ScopeSelectorOperator.In,
            List.of()))), ResourceQuotaStatus.EMPTY));

    assertThat(v).contains(
        "ResourceQuota a/q: spec.hard[foo] \"foo\" must be a standard resource for quota",
        "ResourceQuota a/q: spec.hard[services] \"1500m\" must be an integer",
        "ResourceQuota a/q: spec.scopes \"[Terminating, NotTerminating]\" unsupported scope applied to resource",
        "ResourceQuota a/q: spec.scopes \"[Terminating, NotTerminating]\" conflicting scopes",
        "ResourceQuota a/q: spec.scopeSelector.matchExpressions[0].values Required value: must be at least one"
            + " value when `operator` is 'In' or 'NotIn' for scope selector");
    assertThat(v).anySatisfy(s -> assertThat(s).contains(".operator \"In\" must be 'Exist' when scope is"));
  }

  @Test
  void resourceQuota_extendedAndCountNames_areAccepted() {
    ResourceQuota q = ResourceQuota.of("a", "q", rl("requests.nvidia.com/gpu", "4", "count/deployments.apps", "2",
        "gold.storageclass.storage.k8s.io/requests.storage", "10Gi"));

    assertThat(q.spec().hard().names()).hasSize(3);
    assertThat(violations(() -> ResourceQuota.of("a", "q", rl("count/pods", "1.5"))))
        .containsExactly("ResourceQuota a/q: spec.hard[count/pods] \"1500m\" must be an integer");
  }

  @Test
  void configMap_badKeysDuplicateAndSize_areReported() {
    List<String> v = violations(() -> new ConfigMap(ObjectMeta.of("a", "cm"), Map.of("..x", "1", "k", "v"),
        Map.of("k", Bytes.ofUtf8("b")), false));

    assertThat(v).containsExactly(
        "ConfigMap a/cm: data[..x] \"..x\" must not start with '..'",
        "ConfigMap a/cm: binaryData[k] \"k\" duplicate of key present in data");
    String big = "x".repeat(1024 * 1024 + 1);
    assertThat(violations(() -> ConfigMap.of("a", "cm", Map.of("k", big))))
        .containsExactly("ConfigMap a/cm:  Too long: may not be more than 1048576 bytes");
  }

  @Test
  void secret_stringDataFoldsIntoDataAndValuesNeverPrint() {
    Map<String, Bytes> data = Secret.fold(Map.of("user", Bytes.ofUtf8("old"), "token", Bytes.ofBase64("czNjcjN0")),
        Map.of("user", "admin"));
    Secret s = Secret.of("a", "creds", data);

    assertThat(s.data().get("user").utf8()).isEqualTo("admin");
    assertThat(s.data().get("token").utf8()).isEqualTo("s3cr3t");
    assertThat(s.toString()).contains("token", "user").doesNotContain("admin", "s3cr3t", "czNjcjN0");
    assertThat(s.spec().toString()).doesNotContain("admin", "s3cr3t");
    assertThat(s.data().get("token")).hasToString("<6 bytes>");
  }

  @Test
  void secret_typeRequiredKeys_areChecked() {
    ObjectMeta m = ObjectMeta.of("a", "s");
    assertThat(violations(() -> new Secret(m, Secret.TYPE_TLS, Map.of("tls.crt", Bytes.ofUtf8("c")), false)))
        .containsExactly("Secret a/s: data[tls.key] Required value");
    assertThat(violations(() -> new Secret(m, Secret.TYPE_BASIC_AUTH, Map.of(), false)))
        .containsExactly("Secret a/s: data[username] Required value", "Secret a/s: data[password] Required value");
    assertThat(violations(() -> new Secret(m, Secret.TYPE_SERVICE_ACCOUNT_TOKEN, Map.of(), false)))
        .containsExactly("Secret a/s: metadata.annotations[kubernetes.io/service-account.name] Required value");
    assertThat(violations(() -> new Secret(m, Secret.TYPE_DOCKER_CONFIG_JSON, Map.of(), false)))
        .containsExactly("Secret a/s: data[.dockerconfigjson] Required value");
  }

  @Test
  void serviceAccount_badSecretName_isReported() {
    assertThat(violations(() -> new ServiceAccount(ObjectMeta.of("a", "sa"), List.of("Bad_Name"), List.of(), true)))
        .singleElement().asString().startsWith("ServiceAccount a/sa: secrets[0].name \"Bad_Name\" a lowercase");
    assertThat(ServiceAccount.of("a", "builder").spec().secrets()).isEmpty();
  }
}
