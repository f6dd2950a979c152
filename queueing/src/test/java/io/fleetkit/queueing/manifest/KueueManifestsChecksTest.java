package io.fleetkit.queueing.manifest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.ValidationException;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.time.ManualClock;
import io.fleetkit.queueing.ActiveCondition;
import io.fleetkit.queueing.AdmissionCheck;
import io.fleetkit.queueing.AdmissionEngine;
import io.fleetkit.queueing.ApprovingCheckController;
import io.fleetkit.queueing.CheckState;
import io.fleetkit.queueing.ClusterQueue;
import io.fleetkit.queueing.FlavorQuotas;
import io.fleetkit.queueing.FlavorResourceQuota;
import io.fleetkit.queueing.LocalQueue;
import io.fleetkit.queueing.ResourceFlavor;
import io.fleetkit.queueing.Topology;
import io.fleetkit.queueing.Workload;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Kueue's AdmissionChecks and Topologies among manifests, given to an engine by {@link KueueManifests#addTo}. */
final class KueueManifestsChecksTest {
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  private final ManualClock clock = new ManualClock(T0);

  private static List<ApiObject<?>> objects(String controller) {
    ClusterQueue cq = ClusterQueue.builder("cq").admissionChecks("budget")
        .resourceGroup(FlavorQuotas.of("default", FlavorResourceQuota.of("cpu", "4"))).build();
    return List.of(ResourceFlavorObject.of(ResourceFlavor.of("default")), ClusterQueueObject.of(cq),
        LocalQueueObject.of(LocalQueue.of("team", "lq", "cq")),
        AdmissionCheckObject.of(AdmissionCheck.of("budget", controller)),
        TopologyObject.of(Topology.of("dc", "example.com/block", Topology.HOSTNAME_LABEL)));
  }

  @Test
  void addTo_checkOfARegisteredController_isActiveAndApprovedAfterTheDelay() {
    AdmissionEngine.Builder b = AdmissionEngine.builder().clock(clock)
        .admissionCheckController(new ApprovingCheckController("example.com/budget", Duration.ofMinutes(2), clock));
    AdmissionEngine e = KueueManifests.addTo(b, objects("example.com/budget"), Map.of(),
        Set.of("example.com/budget")).build();

    assertThat(e.clusterQueueActive("cq").status()).isTrue();
    assertThat(e.topology("dc")).contains(Topology.of("dc", "example.com/block", Topology.HOSTNAME_LABEL));
    e.submit(Workload.builder("team", "w").queueName("lq").creationTime(T0).request("cpu", "1").build());
    e.scheduleUntilIdle(5);
    assertThat(e.admission("team/w")).isPresent();
    assertThat(e.isAdmitted("team/w")).isFalse();
    assertThat(e.admissionChecks("team/w")).singleElement().satisfies(s -> {
      assertThat(s.state()).isEqualTo(CheckState.PENDING);
      assertThat(s.message()).isEqualTo("to be approved by example.com/budget at 2026-01-01T00:02:00Z");
    });

    clock.advance(Duration.ofMinutes(2));
    e.scheduleUntilIdle(5);
    assertThat(e.isAdmitted("team/w")).isTrue();
    assertThat(e.admissionChecks("team/w")).singleElement().satisfies(s -> {
      assertThat(s.state()).isEqualTo(CheckState.READY);
      assertThat(s.message()).isEqualTo("approved by example.com/budget after 120s");
    });
  }

  @Test
  void addTo_checkOfNoRegisteredController_isInactiveAsKueueLeavesIt() {
    AdmissionEngine e = KueueManifests.addTo(AdmissionEngine.builder().clock(clock), objects("example.com/other"),
        Map.of(), Set.of("example.com/budget")).build();

    assertThat(e.clusterQueueActive("cq")).isEqualTo(new ActiveCondition(false, "AdmissionCheckInactive",
        "Can't admit new workloads: references inactive AdmissionCheck(s): budget."));
    assertThat(e.admissionCheck("budget")).hasValueSatisfying(c -> assertThat(c.active()).isFalse());
  }

  @Test
  void admissionCheckObject_parametersCheckedAsKueuesCrd_allAtOnce() {
    AdmissionCheck bad = AdmissionCheck.of("budget", "example.com/budget")
        .withParameters(new AdmissionCheck.Parameters("Bad/Group", "", "a.b"));
    assertThatThrownBy(() -> new AdmissionCheckObject(KueueObject.V1BETA2, ObjectMeta.of("budget"), bad))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("AdmissionCheck budget: spec.parameters.apiGroup \"Bad/Group\"")
        .hasMessageContaining("spec.parameters.kind Required value")
        .hasMessageContaining("spec.parameters.name \"a.b\"");
    AdmissionCheck longName = AdmissionCheck.of("budget", "x".repeat(254));
    assertThatThrownBy(() -> AdmissionCheckObject.of(longName))
        .hasMessageContaining("spec.controllerName \"254\" must be no more than 253 characters");
    assertThat(AdmissionCheckObject.of(AdmissionCheck.of("budget", "x".repeat(253))
        .withParameters(new AdmissionCheck.Parameters("example.com", "BudgetConfig", "team-a"))).spec().name())
        .isEqualTo("budget");
  }
}
