package io.fleetkit.queueing;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Port of kubernetes-sigs/kueue {@code pkg/cache/scheduler/clusterqueue_test.go} (commit ff69552e),
 * TestClusterQueueUpdateWithAdmissionCheck, 11 of 13: a ClusterQueue naming checks {@code check1..3} (in {@code
 * spec.admissionChecks}, or as strategy rules) in a state (pending, active or terminating) sees the engine's checks
 * change to the case's, and its {@code Active} condition ({@link AdmissionEngine#clusterQueueActive}) is upstream's
 * status, reason and message. The engine starts the queue pending with no checks, active with all three Active, and
 * terminating with a workload holding its quota when it is removed (Kueue's cache marks a removed queue terminating;
 * the engine drops an idle one at once), so the queues here have a flavor with quota, which upstream's do not. The
 * two MultiKueue cases ("... duplicate single instance AC Controller", "... both MultiKueue and ProvisioningRequest
 * ACs") are skipped: MultiKueue is not modelled.
 */
final class KueueClusterQueueChecksActivePortTest {
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  enum Start { PENDING, ACTIVE, TERMINATING }

  record Case(String name, boolean strategy, Start start, Map<String, Boolean> checks, boolean wantActive,
      String wantReason, String wantMessage) {
    @Override
    public String toString() {
      return name;
    }
  }

  /** The case's checks: each name to whether it is Active (every one's controller is its own). */
  private static Map<String, Boolean> checks(Object... nameActive) {
    Map<String, Boolean> m = new LinkedHashMap<>();
    for (int i = 0; i < nameActive.length; i += 2) {
      m.put((String) nameActive[i], (Boolean) nameActive[i + 1]);
    }
    return m;
  }

  private static final Map<String, Boolean> ALL = checks("check1", true, "check2", true, "check3", true);
  private static final Map<String, Boolean> TWO = checks("check1", true, "check2", true);
  private static final Map<String, Boolean> THIRD_INACTIVE = checks("check1", true, "check2", true, "check3", false);
  private static final String READY = "Can admit new workloads";
  private static final String TERMINATING = "Can't admit new workloads; clusterQueue is terminating";
  private static final String MISSING = "Can't admit new workloads: references missing AdmissionCheck(s): check3.";
  private static final String INACTIVE = "Can't admit new workloads: references inactive AdmissionCheck(s): check3.";

  static Stream<Case> cases() {
    return Stream.of(
        new Case("Pending clusterQueue updated valid AC list", false, Start.PENDING, ALL, true, "Ready", READY),
        new Case("Pending clusterQueue with an AC strategy updated valid AC list", true, Start.PENDING, ALL, true,
            "Ready", READY),
        new Case("Active clusterQueue updated with not found AC", false, Start.ACTIVE, TWO, false,
            "AdmissionCheckNotFound", MISSING),
        new Case("Active clusterQueue with an AC strategy updated with not found AC", true, Start.ACTIVE, TWO, false,
            "AdmissionCheckNotFound", MISSING),
        new Case("Active clusterQueue updated with inactive AC", false, Start.ACTIVE, THIRD_INACTIVE, false,
            "AdmissionCheckInactive", INACTIVE),
        new Case("Active clusterQueue with an AC strategy updated with inactive AC", true, Start.ACTIVE,
            THIRD_INACTIVE, false, "AdmissionCheckInactive", INACTIVE),
        new Case("Terminating clusterQueue updated with valid AC list", false, Start.TERMINATING, ALL, false,
            "Terminating", TERMINATING),
        new Case("Terminating clusterQueue with an AC strategy updated with valid AC list", true, Start.TERMINATING,
            ALL, false, "Terminating", TERMINATING),
        new Case("Terminating clusterQueue updated with not found AC", false, Start.TERMINATING, TWO, false,
            "Terminating", TERMINATING),
        new Case("Terminating clusterQueue with an AC strategy updated with not found AC", true, Start.TERMINATING,
            TWO, false, "Terminating", TERMINATING),
        // upstream: check3 has controller2 as check2 does; controllers do not decide activity
        new Case("Active clusterQueue with an AC strategy updated", true, Start.ACTIVE, ALL, true, "Ready", READY));
  }

  private static ClusterQueue queue(boolean strategy) {
    ClusterQueue.Builder b = ClusterQueue.builder(strategy ? "cq2" : "cq")
        .resourceGroup(FlavorQuotas.of("default", FlavorResourceQuota.of("cpu", "4")));
    if (strategy) {
      b.admissionCheckStrategy(new AdmissionCheckStrategyRule("check1", java.util.List.of()),
          new AdmissionCheckStrategyRule("check2", java.util.List.of()),
          new AdmissionCheckStrategyRule("check3", java.util.List.of()));
    } else {
      b.admissionChecks("check1", "check2", "check3");
    }
    return b.build();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void clusterQueueActive_afterTheChecksChange_isKueues(Case c) {
    ClusterQueue cq = queue(c.strategy());
    AdmissionEngine.Builder b = AdmissionEngine.builder().clock(java.time.Clock.fixed(T0,
        java.time.ZoneOffset.UTC)).resourceFlavors("default").clusterQueue(cq);
    if (c.start() != Start.PENDING) {
      for (int i = 1; i <= 3; i++) {
        b.admissionCheck(AdmissionCheck.of("check" + i, "controller" + i));
      }
    }
    AdmissionEngine e = b.build();
    assertThat(e.clusterQueueActive(cq.name()).status()).isEqualTo(c.start() != Start.PENDING);
    if (c.start() == Start.TERMINATING) {
      e.assumeAdmitted(Workload.builder("team", "holder").queueName("lq").request("cpu", "1").build(), cq.name(),
          Map.of("cpu", "default"), T0);
      assertThat(e.removeClusterQueue(cq.name())).isTrue();
    }

    for (int i = 1; i <= 3; i++) {
      String name = "check" + i;
      Boolean active = c.checks().get(name);
      if (active == null) {
        e.removeAdmissionCheck(name);
      } else {
        e.putAdmissionCheck(AdmissionCheck.of(name, "controller" + i).withActive(active));
      }
    }

    assertThat(e.clusterQueueActive(cq.name()))
        .isEqualTo(new ActiveCondition(c.wantActive(), c.wantReason(), c.wantMessage()));
  }
}
