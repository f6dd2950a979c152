package io.fleetkit.admission;

import io.fleetkit.api.admission.AdmissionRequest;
import io.fleetkit.api.admission.AdmissionVerdict;
import io.fleetkit.api.admission.ValidatingAdmissionPlugin;
import io.fleetkit.api.store.ObjectStore;

/**
 * Every case of {@link ResourceQuotaPluginTest} (upstream's {@code plugin/pkg/admission/resourcequota/admission_test.go})
 * with the store seen as shared with other processes, so that the plugin charges through compare-and-set of the
 * quotas' status ({@link QuotaStatusCharge}) instead of its ledger: the same decisions, messages and usage.
 */
final class ResourceQuotaPluginSharedStoreTest extends ResourceQuotaPluginTest {
  @Override
  ValidatingAdmissionPlugin plugin() {
    ResourceQuotaPlugin quota = new ResourceQuotaPlugin(CLOCK, QuotaLedger.publishingEveryCharge());
    return new ValidatingAdmissionPlugin() {
      @Override
      public String name() {
        return quota.name();
      }

      @Override
      public AdmissionVerdict validate(AdmissionRequest request, ObjectStore store) {
        return quota.validate(request, new SharedStoreQuotaTest.View(store, true));
      }
    };
  }
}
