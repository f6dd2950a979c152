package io.fleetkit.queueing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.ValidationException;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.scheduling.TaintEffect;
import io.fleetkit.api.scheduling.Toleration;
import io.fleetkit.api.scheduling.TolerationOperator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Ported from kubernetes-sigs/kueue {@code pkg/webhooks/workload_webhook_test.go} (commit ff69552e), the cases about
 * a Workload's admission-check states: of {@code TestValidateWorkload} "empty podSetUpdates", "should accept
 * podSetUpdates for only a subset of podSets", "mismatched names in podSetUpdates with names in podSets", "matched
 * names in podSetUpdates with names in podSets", "invalid label name of podSetUpdate", "invalid node selector name of
 * podSetUpdate", "invalid label value of podSetUpdate"; of {@code TestValidateWorkloadUpdate} "podSetUpdates should be
 * immutable when state is ready", "should change other fields of admissionchecks when podSetUpdates is immutable".
 * FleetKit validates a check state when it is set ({@link AdmissionEngine#setCheckState}); the field path names the
 * check ({@code status.admissionChecks[name=ac1].podSetUpdates[1].name}) where Kueue's gives its index.
 */
final class KueueWorkloadWebhookChecksPortTest {
  private static AdmissionEngine engine() {
    return AdmissionEngine.builder().resourceFlavors("default")
        .clusterQueue(ClusterQueue.builder("cq")
            .resourceGroup(FlavorQuotas.of("default", FlavorResourceQuota.of("cpu", "10")))
            .admissionChecks("ac1").build())
        .localQueue(LocalQueue.of("ns", "lq", "cq"))
        .admissionCheck(AdmissionCheck.of("ac1", "c"))
        .build();
  }

  private static AdmissionEngine withWorkload(String... podSets) {
    AdmissionEngine e = engine();
    Workload.Builder b = Workload.builder("ns", "wl").queueName("lq");
    for (String ps : podSets) {
      b.podSet(PodSet.of(ps, 1, ResourceList.EMPTY));
    }
    e.submit(b.build());
    return e;
  }

  private static AdmissionCheckState ac1(PodSetUpdate... updates) {
    return AdmissionCheckState.of("ac1", CheckState.PENDING, "").withPodSetUpdates(List.of(updates));
  }

  @Test
  void emptyPodSetUpdates() {
    AdmissionEngine e = withWorkload("main");
    e.setCheckState("ns/wl", ac1());
    assertThat(e.admissionChecks("ns/wl").get(0).podSetUpdates()).isEmpty();
  }

  @Test
  void shouldAcceptPodSetUpdatesForOnlyASubsetOfPodSets() {
    AdmissionEngine e = withWorkload("first", "second");
    e.setCheckState("ns/wl", ac1(PodSetUpdate.of("first")));
    assertThat(e.admissionChecks("ns/wl").get(0).podSetUpdates()).extracting(PodSetUpdate::name)
        .containsExactly("first");
  }

  @Test
  void mismatchedNamesInPodSetUpdatesWithNamesInPodSets() {
    AdmissionEngine e = withWorkload("first", "second");
    assertThatThrownBy(() -> e.setCheckState("ns/wl", ac1(PodSetUpdate.of("first"), PodSetUpdate.of("third"))))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("status.admissionChecks[name=ac1].podSetUpdates[1].name")
        .hasMessageContaining("supported values: \"first\", \"second\"")
        .hasMessageNotContaining("podSetUpdates[0]");
  }

  @Test
  void matchedNamesInPodSetUpdatesWithNamesInPodSets() {
    AdmissionEngine e = withWorkload("first", "second");
    e.setCheckState("ns/wl", ac1(
        PodSetUpdate.of("first").withLabels(Map.of("l1", "first")).withAnnotations(Map.of("foo", "bar"))
            .withTolerations(List.of(new Toleration("t1", TolerationOperator.Equal, "t1v", TaintEffect.NoExecute, 5L)))
            .withNodeSelector(Map.of("type", "first")),
        PodSetUpdate.of("second").withLabels(Map.of("l2", "second")).withAnnotations(Map.of("foo", "baz"))
            .withTolerations(List.of(new Toleration("t2", TolerationOperator.Equal, "t2v", TaintEffect.NoExecute, 10L)))
            .withNodeSelector(Map.of("type", "second"))));
    assertThat(e.admissionChecks("ns/wl").get(0).podSetUpdates()).hasSize(2);
  }

  @Test
  void invalidLabelNameOfPodSetUpdate() {
    AdmissionEngine e = withWorkload("main");
    assertThatThrownBy(() -> e.setCheckState("ns/wl", ac1(PodSetUpdate.of("main").withLabels(Map.of("@abc", "foo")))))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("status.admissionChecks[name=ac1].podSetUpdates[0].labels")
        .hasMessageContaining("@abc");
  }

  @Test
  void invalidNodeSelectorNameOfPodSetUpdate() {
    AdmissionEngine e = withWorkload("main");
    assertThatThrownBy(() -> e.setCheckState("ns/wl",
        ac1(PodSetUpdate.of("main").withNodeSelector(Map.of("@abc", "foo")))))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("status.admissionChecks[name=ac1].podSetUpdates[0].nodeSelector")
        .hasMessageContaining("@abc");
  }

  @Test
  void invalidLabelValueOfPodSetUpdate() {
    AdmissionEngine e = withWorkload("main");
    assertThatThrownBy(() -> e.setCheckState("ns/wl", ac1(PodSetUpdate.of("main").withLabels(Map.of("foo", "@abc")))))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("status.admissionChecks[name=ac1].podSetUpdates[0].labels")
        .hasMessageContaining("@abc");
  }

  // TestValidateWorkloadUpdate

  @Test
  void podSetUpdatesShouldBeImmutableWhenStateIsReady() {
    AdmissionEngine e = withWorkload("first", "second");
    e.setCheckState("ns/wl", AdmissionCheckState.of("ac1", CheckState.READY, "").withPodSetUpdates(List.of(
        PodSetUpdate.of("first").withLabels(Map.of("foo", "bar")), PodSetUpdate.of("second"))));
    assertThatThrownBy(() -> e.setCheckState("ns/wl", AdmissionCheckState.of("ac1", CheckState.READY, "")
        .withPodSetUpdates(List.of(PodSetUpdate.of("first").withLabels(Map.of("foo", "baz")),
            PodSetUpdate.of("second")))))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("status.admissionChecks[name=ac1].podSetUpdates")
        .hasMessageContaining("field is immutable");
    assertThat(e.admissionChecks("ns/wl").get(0).podSetUpdates().get(0).labels()).containsEntry("foo", "bar");
  }

  @Test
  void shouldChangeOtherFieldsOfAdmissionChecksWhenPodSetUpdatesIsImmutable() {
    AdmissionEngine e = withWorkload("first", "second");
    List<PodSetUpdate> updates = List.of(PodSetUpdate.of("first").withLabels(Map.of("foo", "bar")),
        PodSetUpdate.of("second"));
    e.setCheckState("ns/wl", AdmissionCheckState.of("ac1", CheckState.READY, "old").withPodSetUpdates(updates));
    e.setCheckState("ns/wl", AdmissionCheckState.of("ac1", CheckState.READY, "new").withPodSetUpdates(updates));
    assertThat(e.admissionChecks("ns/wl").get(0).message()).isEqualTo("new");
  }
}
