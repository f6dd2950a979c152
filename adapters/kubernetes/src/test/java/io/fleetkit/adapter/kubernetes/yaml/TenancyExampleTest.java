package io.fleetkit.adapter.kubernetes.yaml;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.admission.Admission;
import io.fleetkit.admission.LimitRangerPlugin;
import io.fleetkit.admission.QuotaLedger;
import io.fleetkit.api.admission.AdmissionChain;
import io.fleetkit.api.admission.AdmissionDeniedException;
import io.fleetkit.api.core.Namespace;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.ResourceQuota;
import io.fleetkit.api.core.Secret;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.store.ObjectStore;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code examples/tenancy} loads, and applied in file order to a store with the standard admission chain it does
 * what its comments say: LimitRange defaults, four web pods admitted and the fifth refused by the quota.
 */
final class TenancyExampleTest {
  static final Path EXAMPLE = Path.of("..", "..", "examples", "tenancy");

  @Test
  void tenancyExample_appliedThroughAdmission_quotaRefusesTheFifthWebPod() {
    LoadedObjects loaded = KubernetesYaml.load(List.of(EXAMPLE));
    List<String> refused = new ArrayList<>();
    AdmissionChain chain = Admission.standard();
    try (ObjectStore store = ObjectStore.builder().directDelivery().admission(chain).build()) {
      for (ApiObject<?> o : loaded.objects()) {
        try {
          create(store, o);
        } catch (AdmissionDeniedException e) {
          refused.add(e.getMessage());
        }
      }

      assertThat(refused).containsExactly("Pod team-a/web-4 is forbidden: exceeded quota: compute, requested:"
          + " requests.cpu=250m, used: requests.cpu=1, limited: requests.cpu=1 (plugin ResourceQuota, field spec)");
      Pod web0 = store.require(Pod.class, "team-a", "web-0");
      assertThat(web0.spec().containers().get(0).resources().requests().get("cpu")).hasToString("250m");
      assertThat(web0.metadata().annotations()).containsKey(LimitRangerPlugin.ANNOTATION);
      QuotaLedger.of(chain).orElseThrow().publish(); // status.used is published on a cadence
      assertThat(store.require(ResourceQuota.class, "team-a", "compute").status().used().get("limits.memory"))
          .hasToString("2Gi");
      Namespace teamA = store.require(Namespace.class, "", "team-a");
      assertThat(teamA.spec().finalizers()).containsExactly(Namespace.KUBERNETES_FINALIZER);
      assertThat(teamA.metadata().finalizers()).isEmpty(); // spec.finalizers, not object finalizers
      assertThat(store.require(Secret.class, "team-b", "cache-password").data().get("password").utf8())
          .isEqualTo("change-me");
      assertThat(store.list(Pod.class).items()).hasSize(5);
    }
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static void create(ObjectStore store, ApiObject o) {
    store.create(o);
  }
}
