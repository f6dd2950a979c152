package io.fleetkit.adapter.kubernetes.yaml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.fleetkit.api.resource.Quantity;
import io.fleetkit.queueing.AdmissionMode;
import io.fleetkit.queueing.BorrowWithinCohort;
import io.fleetkit.queueing.ClusterQueue;
import io.fleetkit.queueing.FlavorFungibility;
import io.fleetkit.queueing.QueuePreemptionPolicy;
import io.fleetkit.queueing.QueueingStrategy;
import io.fleetkit.queueing.StopPolicy;
import io.fleetkit.queueing.manifest.ClusterQueueObject;
import io.fleetkit.queueing.manifest.CohortObject;
import io.fleetkit.queueing.manifest.KueueObject;
import io.fleetkit.queueing.manifest.LocalQueueObject;
import io.fleetkit.queueing.manifest.ResourceFlavorObject;
import io.fleetkit.queueing.manifest.WorkloadPriorityClassObject;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Kueue's ResourceFlavor, ClusterQueue, LocalQueue, Cohort and WorkloadPriorityClass through the loader. */
final class KueueYamlTest {

  private static LoadedObjects fixture() {
    return KubernetesYaml.parse(RoundTripTest.resource("roundtrip/kueue.yaml"), "kueue.yaml");
  }

  private static <T extends KueueObject<T>> T named(LoadedObjects loaded, Class<T> type, String name) {
    return loaded.ofType(type).stream().filter(o -> o.metadata().name().equals(name)).findFirst().orElseThrow();
  }

  private static String problems(String yaml) {
    ManifestException e = catchThrowableOfType(ManifestException.class, () -> KubernetesYaml.parse(yaml, "q.yaml"));
    assertThat(e).as("a problem in %s", yaml).isNotNull();
    return e.problems().toString();
  }

  @Test
  void parse_v1beta2ClusterQueue_readsEveryField() {
    ClusterQueueObject o = named(fixture(), ClusterQueueObject.class, "team-a");
    ClusterQueue q = o.spec();

    assertThat(o.apiVersion()).isEqualTo(KueueObject.V1BETA2);
    assertThat(q.cohort()).isEqualTo("research");
    assertThat(q.queueingStrategy()).isEqualTo(QueueingStrategy.STRICT_FIFO);
    assertThat(q.flavorNames()).containsExactly("on-demand", "spot", "gpu-a100");
    assertThat(q.resourceGroups().get(0).coveredResources()).containsExactly("cpu", "memory");
    var cpu = q.resourceGroups().get(0).flavors().get(0).resources().get(0);
    assertThat(cpu.borrowingLimit()).isEqualTo(Quantity.parse("4"));
    assertThat(q.resourceGroups().get(0).flavors().get(0).resources().get(1).lendingLimit())
        .isEqualTo(Quantity.parse("16Gi"));
    assertThat(q.preemption().reclaimWithinCohort()).isEqualTo(QueuePreemptionPolicy.ANY);
    assertThat(q.preemption().withinClusterQueue()).isEqualTo(QueuePreemptionPolicy.LOWER_PRIORITY);
    assertThat(q.preemption().borrowWithinCohort()).isEqualTo(BorrowWithinCohort.lowerPriority(100));
    assertThat(q.flavorFungibility()).isEqualTo(FlavorFungibility.tryEveryFlavor(
        FlavorFungibility.Preference.PREEMPTION_OVER_BORROWING));
    assertThat(q.admissionCheckNames()).containsExactly("provisioning");
    assertThat(q.fairSharingWeight()).isEqualTo(Quantity.of(3));
    assertThat(q.admissionMode()).isEqualTo(AdmissionMode.USAGE_BASED_ADMISSION_FAIR_SHARING);
    assertThat(q.namespaceSelector().matches(Map.of())).isTrue();
  }

  @Test
  void parse_v1beta1ClusterQueue_readsItsFieldNamesAndLegacyValues() {
    ClusterQueue q = named(fixture(), ClusterQueueObject.class, "team-b").spec();

    assertThat(q.cohort()).isEqualTo("research");
    assertThat(q.flavorFungibility()).isEqualTo(new FlavorFungibility(FlavorFungibility.WhenCanBorrow.BORROW,
        FlavorFungibility.WhenCanPreempt.PREEMPT));
    assertThat(q.admissionChecks()).containsExactly("check-a");
    assertThat(q.stopPolicy()).isEqualTo(StopPolicy.HOLD);
    assertThat(q.namespaceSelector().matches(Map.of("team", "b", "tier", "gold"))).isTrue();
    assertThat(q.namespaceSelector().matches(Map.of("team", "b"))).isFalse();
  }

  @Test
  void parse_clusterQueueWithoutNamespaceSelector_admitsNoNamespace() {
    ClusterQueue q = named(fixture(), ClusterQueueObject.class, "closed").spec();

    assertThat(q.namespaceSelector()).isEqualTo(ClusterQueueObject.NO_NAMESPACE);
    assertThat(q.namespaceSelector().matches(Map.of())).isFalse();
    assertThat(q.namespaceSelector().matches(Map.of("kubernetes.io/metadata.name", "a"))).isFalse();
    assertThat(q.preemption().withinClusterQueue()).isEqualTo(QueuePreemptionPolicy.NEVER);
    assertThat(q.flavorFungibility()).isEqualTo(FlavorFungibility.DEFAULT);
  }

  @Test
  void parse_otherKinds_readEveryField() {
    LoadedObjects loaded = fixture();

    var spot = named(loaded, ResourceFlavorObject.class, "spot").spec();
    assertThat(spot.nodeLabels()).containsEntry("instance-type", "spot");
    assertThat(spot.nodeTaints()).singleElement().hasToString("spot=true:NoSchedule");
    assertThat(spot.tolerations()).hasSize(1);
    assertThat(spot.topologyName()).isEqualTo("default");
    assertThat(named(loaded, ResourceFlavorObject.class, "on-demand").metadata().labels())
        .containsEntry("team", "platform");
    var research = named(loaded, CohortObject.class, "research").spec();
    assertThat(research.parent()).isEqualTo("org");
    assertThat(research.fairSharingWeight()).isEqualTo(Quantity.of(2));
    assertThat(research.resourceGroups().get(0).flavors().get(0).resources().get(0).lendingLimit())
        .isEqualTo(Quantity.parse("3"));
    var lq = loaded.ofType(LocalQueueObject.class);
    assertThat(lq).extracting(o -> o.spec().key()).containsExactly("team-a/main", "team-b/main");
    assertThat(lq.get(0).spec().fairSharingWeight()).isEqualTo(Quantity.parse("500m"));
    assertThat(lq.get(1).spec().stopPolicy()).isEqualTo(StopPolicy.HOLD_AND_DRAIN);
    var high = named(loaded, WorkloadPriorityClassObject.class, "high").spec();
    assertThat(high.value()).isEqualTo(10000);
    assertThat(high.description()).isEqualTo("production training jobs");
    assertThat(named(loaded, WorkloadPriorityClassObject.class, "low").spec().value()).isEqualTo(-5);
    assertThat(loaded.warnings()).isEmpty();
  }

  @Test
  void parse_admissionCheckV1beta1RetryDelay_isAWarningAndTheCheckLoads() {
    LoadedObjects loaded = KubernetesYaml.parse("""
        apiVersion: kueue.x-k8s.io/v1beta1
        kind: AdmissionCheck
        metadata: {name: prov}
        spec:
          controllerName: kueue.x-k8s.io/provisioning-request
          retryDelayMinutes: 15
          parameters: {apiGroup: kueue.x-k8s.io, kind: ProvisioningRequestConfig, name: prov-config}
        """, "ac.yaml");

    var check = loaded.ofType(io.fleetkit.queueing.manifest.AdmissionCheckObject.class).get(0).spec();
    assertThat(check.controllerName()).isEqualTo("kueue.x-k8s.io/provisioning-request");
    assertThat(check.parameters()).isEqualTo(new io.fleetkit.queueing.AdmissionCheck.Parameters("kueue.x-k8s.io",
        "ProvisioningRequestConfig", "prov-config"));
    assertThat(loaded.warnings()).singleElement().hasToString("ac.yaml: document 1 (line 1): AdmissionCheck prov:"
        + " spec.retryDelayMinutes not modelled by FleetKit; ignored (at line 6)");
  }

  @Test
  void parse_status_isAWarningNotAProblem() {
    LoadedObjects loaded = KubernetesYaml.parse("""
        apiVersion: kueue.x-k8s.io/v1beta2
        kind: LocalQueue
        metadata: {name: main, namespace: a}
        spec: {clusterQueue: cq}
        status: {pendingWorkloads: 3}
        """, "lq.yaml");

    assertThat(loaded.ofType(LocalQueueObject.class)).hasSize(1);
    assertThat(loaded.warnings()).singleElement().asString()
        .contains("LocalQueue a/main: status " + LoadedObjects.NOT_MODELLED);
  }

  @Test
  void parse_fieldOfTheOtherVersion_isRefusedNamingTheVersionsFields() {
    assertThat(problems("""
        apiVersion: kueue.x-k8s.io/v1beta2
        kind: ClusterQueue
        metadata: {name: cq}
        spec: {cohort: research, namespaceSelector: {}}
        """)).contains("ClusterQueue cq: spec.cohort is not a field of spec in kueue.x-k8s.io/v1beta2")
        .contains("cohortName");
    assertThat(problems("""
        apiVersion: kueue.x-k8s.io/v1beta2
        kind: ClusterQueue
        metadata: {name: cq}
        spec: {admissionChecks: [a]}
        """)).contains("spec.admissionChecks is not a field of spec in kueue.x-k8s.io/v1beta2");
  }

  @Test
  void parse_concurrentAdmissionPolicy_isRefusedAsNotModelled() {
    assertThat(problems("""
        apiVersion: kueue.x-k8s.io/v1beta2
        kind: ClusterQueue
        metadata: {name: cq}
        spec:
          concurrentAdmissionPolicy: {migration: {mode: TryPreferredFlavors}}
        """)).contains("ClusterQueue cq: spec.concurrentAdmissionPolicy is not modelled");
  }

  @Test
  void parse_badValues_nameTheFieldAndTheRule() {
    String p = problems("""
        apiVersion: kueue.x-k8s.io/v1beta2
        kind: ClusterQueue
        metadata: {name: cq}
        spec:
          queueingStrategy: Fifo
          stopPolicy: Pause
          preemption: {withinClusterQueue: Sometimes}
          flavorFungibility: {whenCanBorrow: Borrow}
          resourceGroups:
          - coveredResources: [cpu]
            flavors:
            - name: f
              resources: [{name: cpu}]
        """);
    assertThat(p).contains("spec.queueingStrategy \"Fifo\" supported values: \"StrictFIFO\", \"BestEffortFIFO\"")
        .contains("spec.stopPolicy \"Pause\" supported values: \"None\", \"Hold\", \"HoldAndDrain\"")
        .contains("spec.preemption.withinClusterQueue \"Sometimes\" supported values")
        // Borrow is v1beta1's spelling only
        .contains("spec.flavorFungibility.whenCanBorrow \"Borrow\" supported values: \"MayStopSearch\","
            + " \"TryNextFlavor\"")
        .contains("spec.resourceGroups[0].flavors[0].resources[0].nominalQuota is required");
  }

  @Test
  void parse_localQueueWithoutClusterQueue_isRefused() {
    assertThat(problems("""
        apiVersion: kueue.x-k8s.io/v1beta1
        kind: LocalQueue
        metadata: {name: main, namespace: a}
        spec: {fairSharing: {weight: "-1"}}
        """)).contains("LocalQueue a/main: spec.clusterQueue is required")
        .contains("spec.fairSharing.weight \"-1\" must be greater than or equal to 0");
  }

  @Test
  void parse_workloadPriorityClassWithoutValue_isRefused() {
    assertThat(problems("""
        apiVersion: kueue.x-k8s.io/v1beta2
        kind: WorkloadPriorityClass
        metadata: {name: high}
        description: no value
        """)).contains("WorkloadPriorityClass high: value is required");
  }

  @Test
  void parse_unservedVersion_isRefusedNamingTheServedOnes() {
    assertThat(problems("""
        apiVersion: kueue.x-k8s.io/v1alpha1
        kind: Cohort
        metadata: {name: c}
        """)).contains("apiVersion \"kueue.x-k8s.io/v1alpha1\" must be kueue.x-k8s.io/v1beta1 or"
        + " kueue.x-k8s.io/v1beta2 for kind Cohort");
  }

  @Test
  void dump_writesTheVersionItWasReadIn() {
    String yaml = KubernetesYaml.dump(List.of(named(fixture(), ClusterQueueObject.class, "team-b")));

    assertThat(yaml).contains("apiVersion: \"kueue.x-k8s.io/v1beta1\"").contains("cohort: \"research\"")
        .doesNotContain("cohortName");
  }
}
