package io.fleetkit.adapter.kubernetes.yaml.internal;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Built-in Kubernetes kinds that FleetKit does not model but that every dump of a real cluster holds
 * ({@code kubectl get ... -A -o yaml}): an object of one, with one of the kind's real apiVersions, is loaded as
 * nothing, with a warning, instead of failing the load. A kind not listed here (a misspelling, a custom resource)
 * or a listed kind under another apiVersion stays an error. Immutable; thread-safe.
 */
public final class UnmodelledKinds {
  /** Each kind and the apiVersions the API server serves it under (Kubernetes 1.29 to 1.34). */
  private static final Map<String, Set<String>> KINDS = kinds(
      "v1", List.of("Event", "PodTemplate", "ComponentStatus"),
      "coordination.k8s.io/v1", List.of("Lease"),
      "events.k8s.io/v1", List.of("Event"),
      "rbac.authorization.k8s.io/v1", List.of("Role", "RoleBinding", "ClusterRole", "ClusterRoleBinding"),
      "apiextensions.k8s.io/v1", List.of("CustomResourceDefinition"),
      "admissionregistration.k8s.io/v1", List.of("MutatingWebhookConfiguration", "ValidatingWebhookConfiguration",
          "ValidatingAdmissionPolicy", "ValidatingAdmissionPolicyBinding"),
      "apiregistration.k8s.io/v1", List.of("APIService"),
      "storage.k8s.io/v1", List.of("CSIDriver", "CSINode", "CSIStorageCapacity", "VolumeAttachment",
          "VolumeAttributesClass"),
      "networking.k8s.io/v1", List.of("NetworkPolicy", "ServiceCIDR", "IPAddress"),
      "node.k8s.io/v1", List.of("RuntimeClass"),
      "flowcontrol.apiserver.k8s.io/v1", List.of("FlowSchema", "PriorityLevelConfiguration"),
      "flowcontrol.apiserver.k8s.io/v1beta3", List.of("FlowSchema", "PriorityLevelConfiguration"),
      "certificates.k8s.io/v1", List.of("CertificateSigningRequest"));

  private UnmodelledKinds() {}

  /** Whether {@code kind} is a built-in kind FleetKit does not model, under any apiVersion. */
  public static boolean isKind(String kind) {
    return KINDS.containsKey(kind);
  }

  /** The apiVersions of built-in kind {@code kind}, sorted; empty for a kind not listed. */
  public static Set<String> apiVersions(String kind) {
    return KINDS.getOrDefault(kind, Set.of());
  }

  /** Whether {@code apiVersion} {@code kind} is a built-in kind FleetKit does not model. */
  public static boolean contains(String kind, String apiVersion) {
    return apiVersions(kind).contains(apiVersion);
  }

  /** Every listed kind, sorted. */
  public static Set<String> kinds() {
    return KINDS.keySet();
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Set<String>> kinds(Object... versionAndKinds) {
    Map<String, java.util.TreeSet<String>> out = new TreeMap<>();
    for (int i = 0; i < versionAndKinds.length; i += 2) {
      String version = (String) versionAndKinds[i];
      for (String kind : (List<String>) versionAndKinds[i + 1]) {
        out.computeIfAbsent(kind, k -> new java.util.TreeSet<>()).add(version);
      }
    }
    Map<String, Set<String>> frozen = new TreeMap<>();
    out.forEach((k, v) -> frozen.put(k, java.util.Collections.unmodifiableSortedSet(v)));
    return java.util.Collections.unmodifiableMap(frozen);
  }
}
