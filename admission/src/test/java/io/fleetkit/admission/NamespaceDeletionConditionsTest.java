package io.fleetkit.admission;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.NamespaceCondition;
import io.fleetkit.api.core.NamespacePhase;
import io.fleetkit.api.core.NamespaceStatus;
import io.fleetkit.api.meta.ConditionStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Ported from kubernetes {@code pkg/controller/namespace/deletion/status_condition_utils_test.go} at commit
 * abd60651f20b906e54ce2c89ad6d2b7790dba8a1: TestUpdateConditions 5 of 5, TestProcessContentTotals 4 of 4. As
 * upstream, the transition times are not compared (upstream copies the actual ones into the expected conditions);
 * upstream's groups {@code apps.k8s.io} are the map keys {@code daemonsets.apps.k8s.io} here.
 */
final class NamespaceDeletionConditionsTest {
  private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");
  private static final String DISCOVERY = NamespaceCondition.DELETION_DISCOVERY_FAILURE;
  private static final String GV = NamespaceCondition.DELETION_GROUP_VERSION_PARSING_FAILURE;
  private static final String CONTENT = NamespaceCondition.DELETION_CONTENT_FAILURE;
  private static final String REMAINING = NamespaceCondition.CONTENT_REMAINING;
  private static final String FINALIZERS = NamespaceCondition.FINALIZERS_REMAINING;

  private static NamespaceCondition c(String type, ConditionStatus status) {
    return NamespaceCondition.of(type, status, "", "");
  }

  private static NamespaceCondition c(String type, ConditionStatus status, String reason, String message) {
    return NamespaceCondition.of(type, status, reason, message);
  }

  private static NamespaceCondition ok(String type) {
    return NamespaceDeletionConditions.successful(type, NOW);
  }

  private static List<NamespaceCondition> withoutTimes(List<NamespaceCondition> cs) {
    List<NamespaceCondition> out = new ArrayList<>();
    for (NamespaceCondition x : cs) {
      out.add(x.withLastTransitionTime(null));
    }
    return out;
  }

  private static void assertUpdate(List<NamespaceCondition> newConditions, List<NamespaceCondition> starting,
      List<NamespaceCondition> expected) {
    NamespaceStatus status = new NamespaceStatus(NamespacePhase.Terminating, starting);
    NamespaceStatus updated = NamespaceDeletionConditions.update(status, newConditions, NOW);
    assertThat(withoutTimes(updated.conditions())).isEqualTo(withoutTimes(expected));
  }

  // --------------------------------------------------------------------------------------- TestUpdateConditions

  @Test
  void updateConditions_leaveUnknown() {
    assertUpdate(List.of(), List.of(c("unknown", ConditionStatus.True)),
        List.of(c("unknown", ConditionStatus.True), ok(DISCOVERY), ok(GV), ok(CONTENT), ok(REMAINING),
            ok(FINALIZERS)));
  }

  @Test
  void updateConditions_replaceWithSuccess() {
    assertUpdate(List.of(), List.of(c(DISCOVERY, ConditionStatus.True)),
        List.of(ok(DISCOVERY), ok(GV), ok(CONTENT), ok(REMAINING), ok(FINALIZERS)));
  }

  @Test
  void updateConditions_leaveDifferentOrder() {
    assertUpdate(List.of(), List.of(c(GV, ConditionStatus.True), c(DISCOVERY, ConditionStatus.True)),
        List.of(ok(GV), ok(DISCOVERY), ok(CONTENT), ok(REMAINING), ok(FINALIZERS)));
  }

  @Test
  void updateConditions_overwriteWithFailure() {
    assertUpdate(List.of(c(GV, ConditionStatus.True, "foo", "bar")),
        List.of(c(GV, ConditionStatus.False), c(DISCOVERY, ConditionStatus.True)),
        List.of(c(GV, ConditionStatus.True, "foo", "bar"), ok(DISCOVERY), ok(CONTENT), ok(REMAINING),
            ok(FINALIZERS)));
  }

  @Test
  void updateConditions_writeNewFailure() {
    assertUpdate(List.of(c(GV, ConditionStatus.True, "foo", "bar")), List.of(c(DISCOVERY, ConditionStatus.True)),
        List.of(ok(DISCOVERY), c(GV, ConditionStatus.True, "foo", "bar"), ok(CONTENT), ok(REMAINING),
            ok(FINALIZERS)));
  }

  @Test
  void updateConditions_transitionTimeChangesOnlyWithTheStatus_andNoChangeKeepsTheStatus() {
    Instant earlier = NOW.minusSeconds(60);
    NamespaceStatus status = new NamespaceStatus(NamespacePhase.Terminating, List.of(
        new NamespaceCondition(DISCOVERY, ConditionStatus.True, earlier, "DiscoveryFailed", "x"),
        new NamespaceCondition(GV, ConditionStatus.False, earlier, "Old", "old")));

    NamespaceStatus updated = NamespaceDeletionConditions.update(status, List.of(), NOW);

    assertThat(updated.condition(DISCOVERY).lastTransitionTime()).isEqualTo(NOW);
    assertThat(updated.condition(GV).lastTransitionTime()).isEqualTo(earlier);
    assertThat(updated.condition(GV).reason()).isEqualTo("ParsedGroupVersions");
    assertThat(NamespaceDeletionConditions.update(updated, List.of(), NOW.plusSeconds(5))).isSameAs(updated);
  }

  // ----------------------------------------------------------------------------------- TestProcessContentTotals

  private static List<NamespaceCondition> totals(Map<String, Integer> byResource, Map<String, Integer> byFinalizer) {
    NamespaceDeletionConditions u = new NamespaceDeletionConditions();
    u.contentTotals(byResource, byFinalizer, NOW);
    return withoutTimes(u.newConditions());
  }

  private static final Map<String, Integer> RESOURCES = Map.of("daemonsets.apps.k8s.io", 5,
      "deployments.apps.k8s.io", 5);
  private static final Map<String, Integer> FINALIZER_COUNTS = Map.of("service-catalog", 6, "kubedb", 5);
  private static final NamespaceCondition RESOURCES_REMAIN = c(REMAINING, ConditionStatus.True, "SomeResourcesRemain",
      "Some resources are remaining: daemonsets.apps.k8s.io has 5 resource instances, deployments.apps.k8s.io has 5"
          + " resource instances");
  private static final NamespaceCondition FINALIZERS_REMAIN = c(FINALIZERS, ConditionStatus.True,
      "SomeFinalizersRemain", "Some content in the namespace has finalizers remaining: kubedb in 5 resource"
          + " instances, service-catalog in 6 resource instances");

  @Test
  void processContentTotals_nothing() {
    assertThat(totals(Map.of(), Map.of())).isEmpty();
  }

  @Test
  void processContentTotals_justRemaining() {
    assertThat(totals(RESOURCES, Map.of())).containsExactly(RESOURCES_REMAIN);
  }

  @Test
  void processContentTotals_justFinalizers() {
    assertThat(totals(Map.of(), FINALIZER_COUNTS)).containsExactly(FINALIZERS_REMAIN);
  }

  @Test
  void processContentTotals_both() {
    assertThat(totals(RESOURCES, FINALIZER_COUNTS)).containsExactly(RESOURCES_REMAIN, FINALIZERS_REMAIN);
  }

  @Test
  void deleteContentErrors_becomeOneSortedFailureCondition() {
    NamespaceDeletionConditions u = new NamespaceDeletionConditions();
    u.deleteContentError("b failed");
    u.deleteContentError("a failed");

    NamespaceStatus status = u.apply(NamespaceStatus.TERMINATING, NOW);

    assertThat(status.condition(CONTENT)).isEqualTo(new NamespaceCondition(CONTENT, ConditionStatus.True, NOW,
        "ContentDeletionFailed", "Failed to delete all resource types, 2 remaining: a failed, b failed"));
    assertThat(status.conditions()).hasSize(5);
  }
}
