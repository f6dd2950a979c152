package io.fleetkit.queueing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.scheduling.TaintEffect;
import io.fleetkit.api.scheduling.Toleration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Ported from kubernetes-sigs/kueue {@code pkg/podset/podset_test.go} (commit ff69552e), {@code TestMergeRestore}: the
 * merge of admission-check pod set updates into a pod template ({@link PodSetInfo#merge}), 7 of 14 cases. Upstream's
 * restore half (putting the template back when the job stops) is the Job controller's, which takes out exactly the
 * keys it added (asserted in {@code QueueAdmissionChecksControllerTest}). FleetKit's tolerations have no empty
 * operator (Equal is the default), so the two "differ only by empty vs Equal Operator" cases compare equal
 * tolerations. Skipped: the workload-slice annotation cases ("updated workload slice annotation", "... feature
 * disabled", "updated workload and workload slice annotations for an elastic admission", "updated workload annotation
 * for a non-elastic admission"; elastic jobs are not modelled) and the scheduling gate cases ("podset with scheduling
 * gate; empty info", "... info re-adds the same", "... info adds another"; pod sets carry no scheduling gates).
 */
final class KueuePodSetMergePortTest {
  private static final Toleration T0 = Toleration.equal("t0", "t0v", TaintEffect.NoSchedule);
  private static final Toleration T1 = Toleration.equal("t1", "t1v", TaintEffect.NoSchedule);
  private static final PodSetInfo BASE = new PodSetInfo(Map.of("l0", "l0v"), Map.of("a0", "a0v"),
      Map.of("ns0", "ns0v"), List.of(T0));

  @Test
  void emptyInfo() {
    assertThat(BASE.merge(PodSetInfo.EMPTY)).isEqualTo(BASE);
  }

  @Test
  void noConflicts() {
    PodSetInfo got = BASE.merge(new PodSetInfo(Map.of("l1", "l1v"), Map.of("a1", "a1v"), Map.of("ns1", "ns1v"),
        List.of(T1)));
    assertThat(got).isEqualTo(new PodSetInfo(Map.of("l0", "l0v", "l1", "l1v"), Map.of("a0", "a0v", "a1", "a1v"),
        Map.of("ns0", "ns0v", "ns1", "ns1v"), List.of(T0, T1)));
  }

  @Test
  void dontDuplicateTolerations() {
    PodSetInfo got = BASE.merge(new PodSetInfo(Map.of("l1", "l1v"), Map.of("a1", "a1v"), Map.of("ns1", "ns1v"),
        List.of(T0)));
    assertThat(got.tolerations()).containsExactly(T0);
    assertThat(got.labels()).containsOnlyKeys("l0", "l1");
  }

  @Test
  void dontDuplicateTolerationsEmptyVsEqualOperator() {
    assertThat(BASE.merge(new PodSetInfo(Map.of(), Map.of(), Map.of(), List.of(Toleration.equal("t0", "t0v",
        TaintEffect.NoSchedule))))).isEqualTo(BASE);
  }

  @Test
  void dontDuplicateTolerationsEqualVsEmptyOperator() {
    PodSetInfo base = new PodSetInfo(BASE.labels(), BASE.annotations(), BASE.nodeSelector(),
        List.of(Toleration.equal("t0", "t0v", TaintEffect.NoSchedule)));
    assertThat(base.merge(new PodSetInfo(Map.of(), Map.of(), Map.of(), List.of(T0)))).isEqualTo(base);
  }

  @Test
  void conflictingLabel() {
    assertThatThrownBy(() -> BASE.merge(new PodSetInfo(Map.of("l0", "l0v1"), Map.of(), Map.of(), List.of())))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("invalid admission check PodSetUpdate: conflict for labels: conflict for key=l0, value1=l0v, "
            + "value2=l0v1");
  }

  @Test
  void conflictingAnnotation() {
    assertThatThrownBy(() -> BASE.merge(new PodSetInfo(Map.of(), Map.of("a0", "a0v1"), Map.of(), List.of())))
        .hasMessage("invalid admission check PodSetUpdate: conflict for annotations: conflict for key=a0, "
            + "value1=a0v, value2=a0v1");
  }

  @Test
  void conflictingNodeSelector() {
    assertThatThrownBy(() -> BASE.merge(new PodSetInfo(Map.of(), Map.of(), Map.of("ns0", "ns0v1"), List.of())))
        .hasMessage("invalid admission check PodSetUpdate: conflict for nodeSelector: conflict for key=ns0, "
            + "value1=ns0v, value2=ns0v1");
  }

  // FleetKit: two checks' updates for one pod set, as Kueue's getPodSetsInfoFromStatus merges them

  @Test
  void withUpdates_twoChecksConflict_namesWorkloadCheckAndKey() {
    List<AdmissionCheckState> states = List.of(
        new AdmissionCheckState("check-a", CheckState.READY, Instant.EPOCH, "", null, null,
            List.of(PodSetUpdate.of("main").withLabels(Map.of("team", "a")))),
        new AdmissionCheckState("check-b", CheckState.READY, Instant.EPOCH, "", null, null,
            List.of(PodSetUpdate.of("main").withLabels(Map.of("team", "b")))));
    assertThatThrownBy(() -> PodSetInfo.withUpdates("ns/wl", PodSetInfo.EMPTY, states, "main"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Workload ns/wl: status.admissionChecks[name=check-b].podSetUpdates[name=main]: in admission "
            + "check \"check-b\": invalid admission check PodSetUpdate: conflict for labels: conflict for key=team, "
            + "value1=a, value2=b");
  }

  @Test
  void withUpdates_onlyThePodSetsUpdatesApply() {
    List<AdmissionCheckState> states = List.of(new AdmissionCheckState("c", CheckState.READY, Instant.EPOCH, "", null,
        null, List.of(PodSetUpdate.of("workers").withLabels(Map.of("x", "1")),
            PodSetUpdate.of("main").withNodeSelector(Map.of("zone", "a")))));
    PodSetInfo got = PodSetInfo.withUpdates("ns/wl", PodSetInfo.EMPTY, states, "main");
    assertThat(got.labels()).isEmpty();
    assertThat(got.nodeSelector()).containsExactly(Map.entry("zone", "a"));
  }
}
