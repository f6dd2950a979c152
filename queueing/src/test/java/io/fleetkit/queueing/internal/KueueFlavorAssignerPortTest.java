package io.fleetkit.queueing.internal;

import static io.fleetkit.queueing.internal.KueueHarness.wl;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.queueing.ClusterQueue;
import io.fleetkit.queueing.FlavorQuotas;
import io.fleetkit.queueing.FlavorResourceQuota;
import io.fleetkit.queueing.Workload;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Ported from kubernetes-sigs/kueue {@code pkg/scheduler/flavorassigner/flavorassigner_test.go}, {@code
 * TestAssignFlavors}: the same ClusterQueue, usage (set up as an admitted workload) and pod set; the same
 * representative mode, flavor per resource, borrowing and status reasons. Cases that need pod templates (taints,
 * tolerations, node selectors, affinity) or topology are not ported; 6 cases are. Flavor names {@code b_one} and
 * {@code b_two} become {@code b-one} and {@code b-two}: ResourceFlavor names must be DNS subdomains.
 */
final class KueueFlavorAssignerPortTest {
  private static final List<String> FLAVORS = List.of("default", "one", "two", "b-one", "b-two");

  private static KueueHarness h(ClusterQueue... queues) {
    return new KueueHarness(FLAVORS, List.of(queues), false);
  }

  private static Assignment assign(KueueHarness h, Workload wl, String cq) {
    return h.scheduler.assigner().assign(wl, h.scheduler.queue(cq));
  }

  private static String flavor(Assignment a, int podSet, String resource) {
    return a.podSets().get(podSet).flavors().get(resource);
  }

  @Test
  void singleFlavorFits() {
    KueueHarness h = h(ClusterQueue.builder("test-clusterqueue")
        .resourceGroup(FlavorQuotas.of("default", FlavorResourceQuota.of("cpu", "1"), FlavorResourceQuota.of("memory", "2Mi")))
        .build());
    Assignment a = assign(h, wl("wl", 0, "cpu", "1", "memory", "1Mi"), "test-clusterqueue");
    assertThat(a.mode()).isEqualTo(Assignment.FIT);
    assertThat(a.podSets().get(0).flavors())
        .containsExactlyInAnyOrderEntriesOf(Map.of("cpu", "default", "memory", "default"));
    assertThat(a.borrows()).isFalse();
  }

  @Test
  void singleFlavorUsedResourcesDoesntFit() {
    KueueHarness h = h(ClusterQueue.builder("test-clusterqueue")
        .resourceGroup(FlavorQuotas.of("default", FlavorResourceQuota.of("cpu", "4"))).build());
    h.admit(wl("usage", 0, "cpu", "3"), "test-clusterqueue", "cpu", "default");
    Assignment a = assign(h, wl("wl", 0, "cpu", "2"), "test-clusterqueue");
    assertThat(a.mode()).isEqualTo(Assignment.PREEMPT);
    assertThat(flavor(a, 0, "cpu")).isEqualTo("default");
    assertThat(a.message()).contains("insufficient unused quota for cpu in flavor default, 1 more needed");
  }

  @Test
  void multipleResourceGroupsFits() {
    KueueHarness h = h(ClusterQueue.builder("test-clusterqueue")
        .resourceGroup(FlavorQuotas.of("one", FlavorResourceQuota.of("cpu", "2")),
            FlavorQuotas.of("two", FlavorResourceQuota.of("cpu", "4")))
        .resourceGroup(FlavorQuotas.of("b-one", FlavorResourceQuota.of("memory", "1Gi")),
            FlavorQuotas.of("b-two", FlavorResourceQuota.of("memory", "5Gi")))
        .build());
    Assignment a = assign(h, wl("wl", 0, "cpu", "3", "memory", "10Mi"), "test-clusterqueue");
    assertThat(a.mode()).isEqualTo(Assignment.FIT);
    assertThat(a.podSets().get(0).flavors())
        .containsExactlyInAnyOrderEntriesOf(Map.of("cpu", "two", "memory", "b-one"));
  }

  @Test
  void multipleResourceGroupsWithMultipleResourcesFits() {
    KueueHarness h = h(ClusterQueue.builder("test-clusterqueue")
        .resourceGroup(FlavorQuotas.of("one", FlavorResourceQuota.of("cpu", "2"), FlavorResourceQuota.of("memory", "1Gi")),
            FlavorQuotas.of("two", FlavorResourceQuota.of("cpu", "4"), FlavorResourceQuota.of("memory", "15Mi")))
        .resourceGroup(FlavorQuotas.of("b-one", FlavorResourceQuota.of("example.com/gpu", "4")),
            FlavorQuotas.of("b-two", FlavorResourceQuota.of("example.com/gpu", "2")))
        .build());
    Assignment a = assign(h, wl("wl", 0, "cpu", "3", "memory", "10Mi", "example.com/gpu", "3"), "test-clusterqueue");
    assertThat(a.mode()).isEqualTo(Assignment.FIT);
    assertThat(a.podSets().get(0).flavors())
        .containsExactlyInAnyOrderEntriesOf(Map.of("cpu", "two", "memory", "two", "example.com/gpu", "b-one"));
  }

  @Test
  void multipleResourceGroupsWithMultipleResourcesFitsWithDifferentModes() {
    KueueHarness h = h(
        ClusterQueue.builder("test-clusterqueue").cohort("test-cohort")
            .resourceGroup(FlavorQuotas.of("one", FlavorResourceQuota.of("cpu", "2"), FlavorResourceQuota.of("memory", "1Gi")),
                FlavorQuotas.of("two", FlavorResourceQuota.of("cpu", "4"), FlavorResourceQuota.of("memory", "15Mi")))
            .resourceGroup(FlavorQuotas.of("b-one", FlavorResourceQuota.of("example.com/gpu", "4")))
            .build(),
        ClusterQueue.builder("test-secondary-clusterqueue").cohort("test-cohort")
            .resourceGroup(FlavorQuotas.of("b-one", FlavorResourceQuota.of("example.com/gpu", "0")))
            .build());
    h.admit(wl("usage", 0, "memory", "10Mi"), "test-clusterqueue", "memory", "two");
    h.admit(wl("secondary-usage", 0, "example.com/gpu", "2"), "test-secondary-clusterqueue",
        "example.com/gpu", "b-one");
    Assignment a = assign(h, wl("wl", 0, "cpu", "3", "memory", "10Mi", "example.com/gpu", "3"), "test-clusterqueue");
    assertThat(a.mode()).isEqualTo(Assignment.PREEMPT);
    assertThat(a.borrows()).isTrue();
    assertThat(a.podSets().get(0).flavors())
        .containsExactlyInAnyOrderEntriesOf(Map.of("cpu", "two", "memory", "two", "example.com/gpu", "b-one"));
    FlavorResources idx = h.scheduler.index();
    assertThat(a.needPreemption()[idx.of("two", "cpu")]).isFalse();
    assertThat(a.needPreemption()[idx.of("two", "memory")]).isTrue();
    assertThat(a.needPreemption()[idx.of("b-one", "example.com/gpu")]).isTrue();
    assertThat(a.message()).contains(
        "insufficient quota for cpu in flavor one, previously considered podsets requests (0) + current podset "
            + "request (3) > maximum capacity (2)",
        "insufficient unused quota for memory in flavor two, 5Mi more needed",
        "insufficient unused quota for example.com/gpu in flavor b-one, 1 more needed");
  }

  @Test
  void multipleResourcesInAGroupDoesntFit() {
    KueueHarness h = h(ClusterQueue.builder("test-clusterqueue")
        .resourceGroup(FlavorQuotas.of("one", FlavorResourceQuota.of("cpu", "2"), FlavorResourceQuota.of("memory", "1Gi")),
            FlavorQuotas.of("two", FlavorResourceQuota.of("cpu", "4"), FlavorResourceQuota.of("memory", "5Mi")))
        .build());
    Assignment a = assign(h, wl("wl", 0, "cpu", "3", "memory", "10Mi"), "test-clusterqueue");
    assertThat(a.mode()).isEqualTo(Assignment.NO_FIT);
    assertThat(a.message()).contains(
        "insufficient quota for cpu in flavor one, previously considered podsets requests (0) + current podset "
            + "request (3) > maximum capacity (2)",
        "insufficient quota for memory in flavor two, previously considered podsets requests (0) + current "
            + "podset request (10Mi) > maximum capacity (5Mi)");
  }
}
