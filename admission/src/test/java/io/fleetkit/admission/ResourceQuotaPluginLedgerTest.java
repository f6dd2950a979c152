package io.fleetkit.admission;

/**
 * Every case of {@link ResourceQuotaPluginTest} (upstream's {@code admission_test.go}) again, charging against a
 * {@link QuotaLedger} that publishes after every charge: the same denials, the same usage in the status.
 */
final class ResourceQuotaPluginLedgerTest extends ResourceQuotaPluginTest {
  @Override
  ResourceQuotaPlugin plugin() {
    return new ResourceQuotaPlugin(CLOCK, QuotaLedger.publishingEveryCharge());
  }
}
