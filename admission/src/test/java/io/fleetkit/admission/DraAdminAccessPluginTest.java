package io.fleetkit.admission;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.admission.AdmissionChain;
import io.fleetkit.api.admission.AdmissionDeniedException;
import io.fleetkit.api.core.Namespace;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.dra.DeviceRequest;
import io.fleetkit.api.resource.dra.DeviceSubRequest;
import io.fleetkit.api.resource.dra.ExactDeviceRequest;
import io.fleetkit.api.resource.dra.ResourceClaim;
import io.fleetkit.api.resource.dra.ResourceClaimSpec;
import io.fleetkit.api.resource.dra.ResourceClaimStatus;
import io.fleetkit.api.resource.dra.ResourceClaimTemplate;
import io.fleetkit.api.resource.dra.ResourceClaimTemplateSpec;
import io.fleetkit.api.store.ObjectStore;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The namespace label DRA admin access requires, as kubernetes' {@code pkg/registry/resource/resourceclaim/
 * strategy_test.go} and {@code resourceclaimtemplate/strategy_test.go} check it on create ({@code adminAccessError}:
 * {@code Forbidden: admin access to devices requires the `resource.kubernetes.io/admin-access: true` label on the
 * containing namespace}; {@code ns1} "default" without the label, {@code ns2} "kube-system" with it).
 */
final class DraAdminAccessPluginTest {
  private static final String ERROR = "Forbidden: admin access to devices requires the "
      + "`resource.kubernetes.io/admin-access: true` label on the containing namespace";

  final ObjectStore store = ObjectStore.builder().directDelivery()
      .admission(AdmissionChain.of(new NamespaceLifecyclePlugin(), new DraAdminAccessPlugin())).build();

  @AfterEach
  void close() {
    store.close();
  }

  private void namespaces() {
    store.create(Namespace.of("default", Map.of("key", "value")));
    store.create(Namespace.of("kube-system", Map.of(DraAdminAccessPlugin.LABEL, "true")));
  }

  private static ResourceClaimSpec spec(boolean admin) {
    return ResourceClaimSpec.of(DeviceRequest.firstAvailable("req-0", DeviceSubRequest.count("subreq-0", "class", 1)),
        new DeviceRequest("req-1", ExactDeviceRequest.count("class", 1).withAdminAccess(admin)));
  }

  private static ResourceClaim claim(String ns, boolean admin) {
    return ResourceClaim.of(ObjectMeta.of(ns, "claim"), spec(admin));
  }

  private static ResourceClaimTemplate template(String ns, boolean admin) {
    return new ResourceClaimTemplate(ObjectMeta.of(ns, "template"), new ResourceClaimTemplateSpec(Map.of(), Map.of(),
        spec(admin)));
  }

  private static AdmissionDeniedException denied(Runnable r) {
    AdmissionDeniedException[] out = new AdmissionDeniedException[1];
    assertThatThrownBy(r::run).isInstanceOfSatisfying(AdmissionDeniedException.class, e -> out[0] = e);
    return out[0];
  }

  @Test
  void claimWithAdminAccess_namespaceWithoutTheLabel_forbiddenNamingTheRequest() {
    namespaces();
    AdmissionDeniedException e = denied(() -> store.create(claim("default", true)));
    assertThat(e.plugin()).isEqualTo(DraAdminAccessPlugin.NAME);
    assertThat(e.field()).isEqualTo("spec.devices.requests[1].exactly.adminAccess");
    assertThat(e.rule()).isEqualTo(ERROR);
    assertThat(store.get(ResourceClaim.class, "default", "claim")).isEmpty();
  }

  @Test
  void claimWithAdminAccess_labelledNamespace_created() {
    namespaces();
    store.create(claim("kube-system", true));
    assertThat(store.get(ResourceClaim.class, "kube-system", "claim")).isPresent();
  }

  @Test
  void claimWithoutAdminAccess_anyNamespace_created() {
    namespaces();
    store.create(claim("default", false));
    assertThat(store.get(ResourceClaim.class, "default", "claim")).isPresent();
  }

  @Test
  void templateWithAdminAccess_checkedTheSameWay() {
    namespaces();
    AdmissionDeniedException e = denied(() -> store.create(template("default", true)));
    assertThat(e.field()).isEqualTo("spec.spec.devices.requests[1].exactly.adminAccess");
    assertThat(e.rule()).isEqualTo(ERROR);
    store.create(template("kube-system", true));
    store.create(template("default", false));
    assertThat(store.list(ResourceClaimTemplate.class).items()).hasSize(2);
  }

  @Test
  void statusUpdateOfAnAdminClaim_notChecked() {
    namespaces();
    ResourceClaim c = store.create(claim("kube-system", true));
    Namespace ns = store.get(Namespace.class, "", "kube-system").orElseThrow();
    store.update(ns.withMetadata(ns.metadata().withLabels(Map.of()))); // the label goes away later
    store.updateStatus(c.withStatus(ResourceClaimStatus.INITIAL));
    store.delete(ResourceClaim.class, "kube-system", "claim");
    assertThat(store.get(ResourceClaim.class, "kube-system", "claim")).isEmpty();
  }

  @Test
  void missingNamespace_withoutNamespaceLifecycle_internalError() {
    try (ObjectStore bare = ObjectStore.builder().directDelivery()
        .admission(AdmissionChain.of(new DraAdminAccessPlugin())).build()) {
      AdmissionDeniedException e = denied(() -> bare.create(claim("nowhere", true)));
      assertThat(e.rule()).isEqualTo("Internal error: could not retrieve namespace to verify admin access: "
          + "namespaces \"nowhere\" not found");
      bare.create(claim("nowhere", false));
    }
  }
}
