package io.fleetkit.reconcile.controllers.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.core.PodTemplateSpec;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.reconcile.controllers.WorkloadLabels;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** After kubernetes/kubernetes pkg/controller/controller_utils_test.go TestComputeHash (2 cases) plus stability. */
final class TemplateHashTest {
  static PodTemplateSpec template(Map<String, String> labels, String image) {
    return PodTemplateSpec.of(labels, PodSpec.builder().container("app", image, ResourceList.EMPTY).build());
  }

  @Test
  void compute_differentCollisionCounts_differentHashes() {
    PodTemplateSpec t = template(Map.of(), "img");
    assertThat(TemplateHash.compute(t, 1)).isNotEqualTo(TemplateHash.compute(t, 2));
    assertThat(TemplateHash.compute(t, null)).isNotEqualTo(TemplateHash.compute(t, Integer.MAX_VALUE));
  }

  @Test
  void compute_sameTemplateAnyLabelOrderOrHashLabel_sameSafeEncodedValue() {
    Map<String, String> ab = new LinkedHashMap<>();
    ab.put("a", "1");
    ab.put("b", "2");
    Map<String, String> ba = new LinkedHashMap<>();
    ba.put("b", "2");
    ba.put("a", "1");
    ba.put(WorkloadLabels.POD_TEMPLATE_HASH, "zzz");
    String h = TemplateHash.compute(template(ab, "img"), null);
    assertThat(h).isEqualTo(TemplateHash.compute(template(ba, "img"), null)).matches("[bcdfghjklmnpqrstvwxz2456789]+");
    assertThat(h).isNotEqualTo(TemplateHash.compute(template(ab, "img:2"), null));
    assertThat(TemplateHash.equalIgnoreHash(template(ab, "img"), template(ba, "img"))).isTrue();
  }

  @Test
  void compute_podSpecComponentsAddedLater_leftOutWhileUnset_countedWhenSet() {
    // service account and DNS settings came after the hash: unset, they render as nothing, so the hashes (and the
    // ReplicaSet names made of them) of templates without them are what they were
    PodTemplateSpec plain = template(Map.of("a", "1"), "img");
    assertThat(TemplateHash.canonical(plain.spec())).doesNotContain("serviceAccountName")
        .doesNotContain("automountServiceAccountToken").doesNotContain("dnsPolicy").doesNotContain("dnsConfig")
        .doesNotContain("hostAliases").contains("readinessGates=");
    String h = TemplateHash.compute(plain, null);
    for (io.fleetkit.api.core.PodSpec changed : java.util.List.of(
        plain.spec().toBuilder().serviceAccountName("builder").build(),
        plain.spec().toBuilder().automountServiceAccountToken(false).build(),
        plain.spec().toBuilder().dnsPolicy(io.fleetkit.api.core.DNSPolicy.Default).build(),
        plain.spec().toBuilder().dnsConfig(new io.fleetkit.api.core.PodDNSConfig(java.util.List.of("1.1.1.1"),
            java.util.List.of(), java.util.List.of())).build(),
        plain.spec().toBuilder().hostAlias(io.fleetkit.api.core.HostAlias.of("10.0.0.1", "a")).build())) {
      assertThat(TemplateHash.compute(new PodTemplateSpec(plain.metadata(), changed), null)).isNotEqualTo(h);
    }
  }
}
