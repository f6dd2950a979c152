package io.fleetkit.reconcile.controllers;

import static io.fleetkit.reconcile.controllers.DeviceTaintEvictionHarness.*;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodCondition;
import io.fleetkit.api.resource.dra.DeviceTaint;
import io.fleetkit.api.resource.dra.DeviceTaintEffect;
import io.fleetkit.api.resource.dra.DeviceTaintRule;
import io.fleetkit.api.resource.dra.DeviceTaintRuleStatus;
import io.fleetkit.api.resource.dra.DeviceTaintSelector;
import io.fleetkit.api.resource.dra.DeviceToleration;
import io.fleetkit.api.resource.dra.ResourceClaim;
import io.fleetkit.api.resource.dra.ResourceSlice;
import io.fleetkit.reconcile.metrics.DeviceTaintEvictionMetrics;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The cases of {@code TestController} in kubernetes' {@code pkg/controller/devicetainteviction/device_taint_eviction_test.go}
 * (051099c1), one method each, named after the case: the case's initial objects are stored and the controller
 * refreshed, its events applied (store writes; a sequence is refreshed after each write, independent events once,
 * since the controller recomputes from the store and upstream checks that every order gives the same state), then
 * upstream's {@code finalState} is asserted ({@code allocatedClaims}: each claim's eviction time and reasons;
 * {@code deletePodAt}: the scheduled evictions), then each {@code process} step (the pods left and the rules'
 * {@code EvictionInProgress} conditions after the work due now, then the clock advanced), then the events.
 * Upstream's work-queue contents ({@code queued}, {@code queuedProcessed}, {@code queuedShifted}) are internal and
 * not asserted; what they lead to (deletions, conditions, their times) is. Reasons are printed as upstream's
 * {@code trackedTaint.String}.
 *
 * <p>Left out (see docs/conformance.md): "empty", "populate-pools", "update-pools" (they assert only the internal
 * pool index); "evict-pod-resourceclaim-podgroup", "no-evict-pod-in-podgroup-without-claim", "none-podgroup-rule"
 * (claims reserved for PodGroups, not modelled); "evict-pod-extended-resourceclaim",
 * "evict-pod-extended-resourceclaim-status-update", "no-evict-extended-resourceclaim-wrong-owner" (extended-resource
 * claims, not modelled); "ignore-unknown-effect" (an unknown effect cannot be built: the effect is an enum).
 */
final class DeviceTaintEvictionControllerTest {
  private final DeviceTaintEvictionHarness h = new DeviceTaintEvictionHarness();
  private static final String POD_KEY = NS + "/" + POD;
  private static final String DELETE = deleteEvent(NS, POD, POD_UID);
  private static final String CANCEL = cancelEvent(NS, POD, POD_UID);

  @AfterEach
  void close() {
    h.close();
  }

  private void expectNoEvictions() {
    h.refresh();
    for (Pod p : h.store.list(Pod.class).items()) {
      assertThat(h.scheduled(p.metadata().key())).as("scheduled eviction of " + p.metadata().key()).isEmpty();
    }
    List<String> before = h.pods();
    h.step();
    assertThat(h.pods()).isEqualTo(before);
    assertThat(h.events).isEmpty();
  }

  private void expectImmediateEvictionOf(String podKey, String uid, String... reasons) {
    h.refresh();
    assertThat(h.scheduled(podKey)).isEqualTo(Map.of(podKey, eviction(T0, reasons)));
    h.step();
    assertThat(h.pods()).doesNotContain(podKey);
  }

  // ---- claims and their taints ------------------------------------------------------------------------------------

  @Test
  void untaintedClaim() {
    h.put(slice());
    h.put(slice2());
    h.put(inUseClaim());
    h.refresh();
    assertThat(h.claimEviction(NS, CLAIM)).isEqualTo("none");
  }

  @Test
  void taintedClaimThroughResourceslice() {
    h.put(sliceTainted());
    h.put(slice2());
    h.put(inUseClaim());
    h.refresh();
    assertThat(h.claimEviction(NS, CLAIM)).isEqualTo(eviction(T0, sliceReason(SLICE, "instance", 0)));
  }

  @Test
  void ruleStatus() {
    h.put(ruleEvict(), RULE_EVICT_UID);
    h.refresh();
    h.step();
    assertThat(h.rules()).containsExactly(cond("evict", false, "NotStarted", "", T0));
  }

  @Test
  void taintedClaimThroughRule() {
    h.put(ruleEvict(), RULE_EVICT_UID);
    h.put(inUseClaim());
    h.refresh();
    assertThat(h.claimEviction(NS, CLAIM)).isEqualTo(eviction(T0, ruleReason("evict")));
    h.step();
    assertThat(h.rules()).containsExactly(cond("evict", false, "NotStarted", "", T0));
  }

  // ---- evictions ------------------------------------------------------------------------------------------------

  @Test
  void evictPodResourceclaim() {
    h.put(sliceTainted());
    h.put(slice2());
    h.put(inUseClaim());
    h.put(podWithClaimName(), POD_UID);
    assertThat(h.claimEviction(NS, CLAIM)).isEqualTo(eviction(T0, sliceReason(SLICE, "instance", 0)));
    expectImmediateEvictionOf(POD_KEY, POD_UID, sliceReason(SLICE, "instance", 0));
    assertThat(h.events).containsExactly(DELETE);
  }

  @Test
  void evictPodRule() {
    h.put(inUseClaim());
    h.put(podWithClaimName(), POD_UID);
    h.put(ruleEvict(), RULE_EVICT_UID);
    h.refresh();
    assertThat(h.claimEviction(NS, CLAIM)).isEqualTo(eviction(T0, ruleReason("evict")));
    assertThat(h.scheduled(POD_KEY)).isEqualTo(Map.of(POD_KEY, eviction(T0, ruleReason("evict"))));
    h.step();
    assertThat(h.pods()).isEmpty();
    assertThat(h.rules()).containsExactly(cond("evict", true, "PodsPendingEviction",
        "1 pod needs to be evicted in 1 namespace.", T0));
    h.advance(STATUS_PERIOD);
    h.step();
    assertThat(h.rules()).containsExactly(cond("evict", false, "Completed",
        "1 pod evicted since starting the controller.", T0.plus(STATUS_PERIOD)));
    assertThat(h.events).containsExactly(DELETE);
  }

  /**
   * Upstream's second step shows the condition rewritten at {@code T0+10s} with the same content: its test's rule
   * cache does not see the controller's status writes. Here an unchanged condition is not rewritten, so it keeps
   * {@code T0}.
   */
  @Test
  void evictPodRuleLater() {
    h.put(inUseClaimWithToleration());
    h.put(podWithClaimName(), POD_UID);
    h.put(ruleEvict(), RULE_EVICT_UID);
    h.refresh();
    String later = eviction(T0.plus(TOLERATION), ruleReason("evict"));
    assertThat(h.claimEviction(NS, CLAIM)).isEqualTo(later);
    assertThat(h.scheduled(POD_KEY)).isEqualTo(Map.of(POD_KEY, later));
    h.step();
    assertThat(h.pods()).containsExactly(POD_KEY);
    String pending = cond("evict", true, "PodsPendingEviction", "1 pod needs to be evicted in 1 namespace.", T0);
    assertThat(h.rules()).containsExactly(pending);
    h.advance(STATUS_PERIOD);
    h.step();
    assertThat(h.pods()).containsExactly(POD_KEY);
    assertThat(h.rules()).containsExactly(pending);
    h.advance(TOLERATION.minus(STATUS_PERIOD));
    h.step();
    assertThat(h.pods()).isEmpty();
    assertThat(h.rules()).as("not updated yet").containsExactly(pending);
    h.advance(STATUS_PERIOD);
    h.step();
    assertThat(h.rules()).containsExactly(cond("evict", false, "Completed",
        "1 pod evicted since starting the controller.", T0.plus(TOLERATION).plus(STATUS_PERIOD)));
    assertThat(h.events).containsExactly(DELETE);
  }

  @Test
  void evictManyPodsManyNamespaces() {
    h.put(inUseClaim());
    h.put(podWithClaimName(), POD_UID);
    h.put(inUseClaimOtherNamespace());
    h.put(podWithClaimNameOtherNamespace(), POD_UID + "-2");
    h.put(ruleEvict(), RULE_EVICT_UID);
    h.refresh();
    assertThat(h.claimEviction(NS, CLAIM)).isEqualTo(eviction(T0, ruleReason("evict")));
    assertThat(h.claimEviction(NS + "-other", CLAIM)).isEqualTo(eviction(T0, ruleReason("evict")));
    h.step();
    assertThat(h.pods()).isEmpty();
    assertThat(h.rules()).containsExactly(cond("evict", true, "PodsPendingEviction",
        "2 pods need to be evicted in 2 different namespaces.", T0));
    h.advance(STATUS_PERIOD);
    h.step();
    assertThat(h.rules()).containsExactly(cond("evict", false, "Completed",
        "2 pods evicted since starting the controller.", T0.plus(STATUS_PERIOD)));
    assertThat(h.events).containsExactlyInAnyOrder(DELETE, deleteEvent(NS + "-other", POD, POD_UID + "-2"));
  }

  @Test
  void evictManyPodsSameNamespace() {
    h.put(inUseClaim());
    h.put(podWithClaimName(), POD_UID);
    h.put(inUseClaimOtherName());
    h.put(podWithClaimNameOtherName(), POD_UID + "-3");
    h.put(ruleEvict(), RULE_EVICT_UID);
    h.refresh();
    assertThat(h.claimEviction(NS, CLAIM + "-other")).isEqualTo(eviction(T0, ruleReason("evict")));
    h.step();
    assertThat(h.pods()).isEmpty();
    assertThat(h.rules()).containsExactly(cond("evict", true, "PodsPendingEviction",
        "2 pods need to be evicted in 1 namespace.", T0));
    h.advance(STATUS_PERIOD);
    h.step();
    assertThat(h.rules()).containsExactly(cond("evict", false, "Completed",
        "2 pods evicted since starting the controller.", T0.plus(STATUS_PERIOD)));
    assertThat(h.events).containsExactlyInAnyOrder(DELETE, deleteEvent(NS, POD + "-other", POD_UID + "-3"));
  }

  private static final String NO_EFFECT_TAIL = "if the effect was NoExecute. This information will not be "
      + "updated again. Recreate the DeviceTaintRule to trigger an update.";

  @Test
  void nonePodRule() {
    h.put(slice());
    h.put(inUseClaim());
    h.put(podWithClaimName(), POD_UID);
    h.put(ruleNone(), RULE_EVICT_UID);
    h.refresh();
    assertThat(h.claimEviction(NS, CLAIM)).isEqualTo("none");
    assertThat(h.scheduled(POD_KEY)).isEmpty();
    h.step();
    assertThat(h.pods()).containsExactly(POD_KEY);
    assertThat(h.rules()).containsExactly(cond("evict", false, "NoEffect", "3 published devices selected. "
        + "1 allocated device selected. 1 pod would be evicted in 1 namespace " + NO_EFFECT_TAIL, T0));
    assertThat(h.events).isEmpty();
  }

  @Test
  void noneManyPodsManyNamespaces() {
    h.put(inUseClaim());
    h.put(podWithClaimName(), POD_UID);
    h.put(inUseClaimOtherNamespace());
    h.put(podWithClaimNameOtherNamespace(), POD_UID + "-2");
    h.put(ruleNone(), RULE_EVICT_UID);
    h.refresh();
    h.step();
    assertThat(h.pods()).containsExactly(NS + "-other/" + POD, POD_KEY);
    assertThat(h.rules()).containsExactly(cond("evict", false, "NoEffect", "0 published devices selected. "
        + "3 allocated devices selected. 2 pods would be evicted in 2 different namespaces " + NO_EFFECT_TAIL, T0));
  }

  @Test
  void noneManyPodsSameNamespace() {
    h.put(inUseClaim());
    h.put(podWithClaimName(), POD_UID);
    h.put(inUseClaimOtherName());
    h.put(podWithClaimNameOtherName(), POD_UID + "-3");
    h.put(ruleNone(), RULE_EVICT_UID);
    h.refresh();
    h.step();
    assertThat(h.pods()).containsExactly(POD_KEY, NS + "/" + POD + "-other");
    assertThat(h.rules()).containsExactly(cond("evict", false, "NoEffect", "0 published devices selected. "
        + "3 allocated devices selected. 2 pods would be evicted in 1 namespace " + NO_EFFECT_TAIL, T0));
  }

  @Test
  void multipleClaimsSameRule() {
    h.put(inUseClaim());
    h.put(inUseClaimOtherNameShared());
    h.put(podWithTwoClaimNames(), POD_UID);
    h.put(ruleEvict(), RULE_EVICT_UID);
    h.refresh();
    assertThat(h.claimEviction(NS, CLAIM)).isEqualTo(eviction(T0, ruleReason("evict")));
    assertThat(h.claimEviction(NS, CLAIM + "-other")).isEqualTo(eviction(T0, ruleReason("evict")));
    assertThat(h.scheduled(POD_KEY)).isEqualTo(Map.of(POD_KEY, eviction(T0, ruleReason("evict"))));
    h.step();
    assertThat(h.pods()).isEmpty();
    assertThat(h.rules()).containsExactly(cond("evict", true, "PodsPendingEviction",
        "1 pod needs to be evicted in 1 namespace.", T0));
    h.advance(STATUS_PERIOD);
    h.step();
    assertThat(h.rules()).containsExactly(cond("evict", false, "Completed",
        "1 pod evicted since starting the controller.", T0.plus(STATUS_PERIOD)));
    assertThat(h.events).containsExactly(DELETE);
  }

  private void multipleClaimsDifferentRules(DeviceTaintRule first, DeviceTaintRule second) {
    h.put(inUseClaim());
    h.refresh();
    h.put(inUseClaimOtherNameShared());
    h.refresh();
    h.put(podWithTwoClaimNames(), POD_UID);
    h.refresh();
    h.put(first);
    h.refresh();
    h.put(second);
    h.refresh();
    assertThat(h.claimEviction(NS, CLAIM)).isEqualTo(eviction(T0, ruleReason("evict-instance")));
    assertThat(h.claimEviction(NS, CLAIM + "-other"))
        .isEqualTo(eviction(TAINT_TIME_LATER, ruleReason("evict-instance-no-execute")));
    assertThat(h.scheduled(POD_KEY)).isEqualTo(Map.of(POD_KEY, eviction(T0, ruleReason("evict-instance"),
        ruleReason("evict-instance-no-execute"))));
    h.step();
    assertThat(h.pods()).isEmpty();
    h.advance(STATUS_PERIOD);
    h.step();
    assertThat(h.rules()).containsExactly(
        cond("evict-instance", false, "Completed", "1 pod evicted since starting the controller.",
            T0.plus(STATUS_PERIOD)),
        cond("evict-instance-no-execute", false, "Completed", "1 pod evicted since starting the controller.",
            T0.plus(STATUS_PERIOD)));
    h.advance(Duration.between(T0.plus(STATUS_PERIOD), TAINT_TIME_LATER)); // the later rule's time passes
    h.step();
    assertThat(h.events).containsExactly(DELETE);
  }

  /**
   * Upstream's first step differs with the order of its work queue: here both rules' first conditions are written
   * when the handlers run (PodsPendingEviction at {@code T0} for both, upstream's order-2 result); the final state is
   * upstream's for both orders.
   */
  @Test
  void multipleClaimsDifferentRulesOrder1() {
    multipleClaimsDifferentRules(ruleEvictInstance1(), ruleEvictInstance2Later());
  }

  @Test
  void multipleClaimsDifferentRulesOrder2() {
    multipleClaimsDifferentRules(ruleEvictInstance2Later(), ruleEvictInstance1());
  }

  @Test
  void evictPodResourceclaimAgain() {
    h.put(podWithClaimName(), POD_UID);
    h.put(sliceTainted());
    h.put(slice2());
    h.put(inUseClaim());
    h.refresh();
    h.remove(ResourceSlice.class, "", SLICE);
    h.refresh();
    h.put(sliceTainted());
    h.refresh();
    assertThat(h.claimEviction(NS, CLAIM)).isEqualTo(eviction(T0, sliceReason(SLICE, "instance", 0)));
    assertThat(h.scheduled(POD_KEY)).isEqualTo(Map.of(POD_KEY, eviction(T0, sliceReason(SLICE, "instance", 0))));
    h.step();
    assertThat(h.pods()).isEmpty();
    assertThat(h.events).containsExactly(CANCEL, DELETE);
  }

  @Test
  void evictPodAfterScheduling() {
    h.put(unscheduledPodWithClaimName(), POD_UID);
    h.put(sliceTainted());
    h.put(slice2());
    h.put(inUseClaim());
    h.refresh();
    assertThat(h.scheduled(POD_KEY)).isEmpty();
    Pod p = h.store.require(Pod.class, NS, POD);
    h.store.updateWithStatus(p.withSpec(p.spec().toBuilder().nodeName(NODE).build()));
    expectImmediateEvictionOf(POD_KEY, POD_UID, sliceReason(SLICE, "instance", 0));
    assertThat(h.events).containsExactly(DELETE);
  }

  @Test
  void evictPodResourceclaimUnrelatedChanges() {
    h.put(podWithClaimName(), POD_UID);
    h.put(sliceTainted());
    h.put(slice2());
    h.put(inUseClaim());
    h.refresh();
    h.update(sliceTaintedExtended());
    h.update(h.store.require(ResourceClaim.class, NS, CLAIM));
    h.update(h.store.require(Pod.class, NS, POD));
    assertThat(h.claimEviction(NS, CLAIM)).isEqualTo(eviction(T0, sliceReason(SLICE, "instance", 0)));
    expectImmediateEvictionOf(POD_KEY, POD_UID, sliceReason(SLICE, "instance", 0));
    assertThat(h.events).containsExactly(DELETE);
  }

  @Test
  void evictPodResourceclaimtemplate() {
    h.put(sliceTainted());
    h.put(slice2());
    h.put(inUseClaim());
    h.put(podWithClaimTemplateInStatus(CLAIM), POD_UID);
    expectImmediateEvictionOf(POD_KEY, POD_UID, sliceReason(SLICE, "instance", 0));
    assertThat(h.events).containsExactly(DELETE);
  }

  @Test
  void evictPodLater() {
    h.put(sliceTainted());
    h.put(slice2());
    h.put(inUseClaimWithToleration());
    h.put(podWithClaimName(), POD_UID);
    h.refresh();
    String later = eviction(T0.plus(TOLERATION), sliceReason(SLICE, "instance", 0));
    assertThat(h.claimEviction(NS, CLAIM)).isEqualTo(later);
    assertThat(h.scheduled(POD_KEY)).isEqualTo(Map.of(POD_KEY, later));
    h.step();
    assertThat(h.pods()).containsExactly(POD_KEY);
    h.advance(TOLERATION);
    h.step();
    assertThat(h.pods()).isEmpty();
    assertThat(h.events).containsExactly(DELETE);
  }

  @Test
  void evictPodLaterMany() {
    h.put(sliceTainted());
    h.put(slice2());
    h.put(inUseClaim(
        DeviceToleration.equal(TAINT_KEY + "-other", TAINT_VALUE,
            DeviceTaintEffect.NO_EXECUTE).withTolerationSeconds(20L),
        noExecute(null, 60L), noExecute(null, 30L)));
    h.put(podWithClaimName(), POD_UID);
    h.refresh();
    String at30 = eviction(T0.plusSeconds(30), sliceReason(SLICE, "instance", 0));
    assertThat(h.claimEviction(NS, CLAIM)).isEqualTo(at30);
    assertThat(h.scheduled(POD_KEY)).isEqualTo(Map.of(POD_KEY, at30));
    h.step();
    assertThat(h.pods()).containsExactly(POD_KEY);
    h.advance(Duration.ofSeconds(30));
    h.step();
    assertThat(h.pods()).isEmpty();
    assertThat(h.events).containsExactly(DELETE);
  }

  @Test
  void evictPodTolerationMismatch() {
    h.put(sliceTainted());
    h.put(slice2());
    h.put(inUseClaim(DeviceToleration.equal(TAINT_KEY + "-other", TAINT_VALUE,
        DeviceTaintEffect.NO_EXECUTE).withTolerationSeconds(60L)));
    h.put(podWithClaimName(), POD_UID);
    assertThat(h.claimEviction(NS, CLAIM)).isEqualTo(eviction(T0, sliceReason(SLICE, "instance", 0)));
    expectImmediateEvictionOf(POD_KEY, POD_UID, sliceReason(SLICE, "instance", 0));
    assertThat(h.events).containsExactly(DELETE);
  }

  @Test
  void noEvictPodTolerationForever() {
    h.put(sliceTainted());
    h.put(slice2());
    h.put(inUseClaim(noExecute(null, null)));
    h.put(podWithClaimName(), POD_UID);
    assertThat(h.claimEviction(NS, CLAIM)).isEqualTo("none");
    expectNoEvictions();
  }

  @Test
  void noEvictPodTolerationForeverMany() {
    h.put(sliceTainted());
    h.put(slice2());
    h.put(inUseClaim(noExecute(null, 60L), noExecute(null, null)));
    h.put(podWithClaimName(), POD_UID);
    assertThat(h.claimEviction(NS, CLAIM)).isEqualTo("none");
    expectNoEvictions();
  }

  @Test
  void evictPodPartialToleration() {
    h.put(sliceWithFirstTaints(TAINT1, TAINT2));
    h.put(slice2());
    h.put(inUseClaim(noExecute(TAINT_KEY, null)));
    h.put(podWithClaimName(), POD_UID);
    assertThat(h.claimEviction(NS, CLAIM)).isEqualTo(eviction(T0, sliceReason(SLICE, "instance", 1)));
    expectImmediateEvictionOf(POD_KEY, POD_UID, sliceReason(SLICE, "instance", 1));
    assertThat(h.events).containsExactly(DELETE);
  }

  @Test
  void evictPodManyTaints() {
    h.put(ruleEvict(), RULE_EVICT_UID);
    h.put(ruleEvictOther());
    h.put(sliceWithFirstTaints(TAINT1, TAINT2));
    h.put(slice2());
    h.put(inUseClaim(noExecute(TAINT_KEY, 60L), noExecute(TAINT_KEY + "-other", 30L)));
    h.put(podWithClaimName(), POD_UID);
    h.refresh();
    String at30 = eviction(T0.plusSeconds(30), ruleReason("evict"), ruleReason("evict-other"),
        sliceReason(SLICE, "instance", 0), sliceReason(SLICE, "instance", 1));
    assertThat(h.claimEviction(NS, CLAIM)).isEqualTo(at30);
    assertThat(h.scheduled(POD_KEY)).isEqualTo(Map.of(POD_KEY, at30));
    h.step();
    assertThat(h.pods()).containsExactly(POD_KEY);
    String pending = "\"1 pod needs to be evicted in 1 namespace.\"";
    assertThat(h.rules()).containsExactly(cond("evict", true, "PodsPendingEviction",
        "1 pod needs to be evicted in 1 namespace.", T0), cond("evict-other", true, "PodsPendingEviction",
        "1 pod needs to be evicted in 1 namespace.", T0));
    h.advance(STATUS_PERIOD);
    h.step();
    assertThat(h.pods()).containsExactly(POD_KEY);
    assertThat(h.rules()).allMatch(r -> r.contains(pending));
    h.advance(Duration.ofSeconds(20));
    h.step();
    assertThat(h.pods()).isEmpty();
    assertThat(h.rules()).as("not updated yet").allMatch(r -> r.contains("PodsPendingEviction"));
    h.advance(STATUS_PERIOD);
    h.step();
    assertThat(h.rules()).containsExactly(
        cond("evict", false, "Completed", "1 pod evicted since starting the controller.",
            T0.plusSeconds(30).plus(STATUS_PERIOD)),
        cond("evict-other", false, "Completed", "1 pod evicted since starting the controller.",
            T0.plusSeconds(30).plus(STATUS_PERIOD)));
    assertThat(h.events).containsExactly(DELETE);
  }

  // ---- no eviction ----------------------------------------------------------------------------------------------

  @Test
  void noEvictPodNotScheduled() {
    h.put(sliceTainted());
    h.put(slice2());
    h.put(inUseClaim());
    h.put(unscheduledPodWithClaimName(), POD_UID);
    assertThat(h.claimEviction(NS, CLAIM)).isEqualTo(eviction(T0, sliceReason(SLICE, "instance", 0)));
    expectNoEvictions();
  }

  @Test
  void noEvictNoTaint() {
    h.put(simpleSlice());
    h.put(inUseClaim());
    h.put(podWithClaimName(), POD_UID);
    assertThat(h.claimEviction(NS, CLAIM)).isEqualTo("none");
    expectNoEvictions();
  }

  @Test
  void noEvictNoTaintUpdate() {
    h.put(podWithClaimName(), POD_UID);
    h.put(simpleSlice());
    h.put(inUseClaim());
    h.refresh();
    h.update(simpleSlice());
    assertThat(h.claimEviction(NS, CLAIM)).isEqualTo("none");
    expectNoEvictions();
  }

  @Test
  void noEvictPodResourceclaimtemplateNoStatus() {
    h.put(sliceTainted());
    h.put(slice2());
    h.put(inUseClaim());
    h.put(podWithClaimTemplate(), POD_UID);
    expectNoEvictions();
  }

  /** Upstream's nil claim name in the status is FleetKit's empty one. */
  @Test
  void noEvictPodResourceclaimtemplateNoClaim() {
    h.put(sliceTainted());
    h.put(slice2());
    h.put(inUseClaim());
    h.put(podWithClaimTemplateInStatus(""), POD_UID);
    expectNoEvictions();
  }

  @Test
  void noEvictOtherDevice() {
    h.put(sliceOtherDevices());
    h.put(slice2());
    h.put(inUseClaim());
    h.put(podWithClaimTemplateInStatus(CLAIM), POD_UID);
    assertThat(h.claimEviction(NS, CLAIM)).isEqualTo("none");
    expectNoEvictions();
  }

  @Test
  void noEvictWrongPod() {
    h.put(sliceTainted());
    h.put(slice2());
    h.put(inUseClaim());
    h.put(podWithClaimName(), POD_UID + "-other");
    expectNoEvictions();
  }

  @Test
  void evictWrongPodReplaced() {
    h.put(podWithClaimName(), POD_UID + "-other");
    h.put(sliceTainted());
    h.put(slice2());
    h.put(inUseClaim());
    h.refresh();
    assertThat(h.scheduled(POD_KEY)).isEmpty();
    h.remove(Pod.class, NS, POD);
    h.refresh();
    h.put(podWithClaimName(), POD_UID);
    expectImmediateEvictionOf(POD_KEY, POD_UID, sliceReason(SLICE, "instance", 0));
    assertThat(h.events).containsExactly(DELETE);
  }

  private void scheduledFromTemplate() {
    h.put(podWithClaimTemplateInStatus(CLAIM), POD_UID);
    h.put(sliceTainted());
    h.put(slice2());
    h.put(inUseClaim());
    h.refresh();
    assertThat(h.scheduled(POD_KEY)).isEqualTo(Map.of(POD_KEY, eviction(T0, sliceReason(SLICE, "instance", 0))));
  }

  private void expectCancelled() {
    h.refresh();
    assertThat(h.scheduled(POD_KEY)).isEmpty();
    h.step();
    assertThat(h.pods()).containsExactly(POD_KEY);
    assertThat(h.events).containsExactly(CANCEL);
  }

  @Test
  void cancelEvictionRemoveTaint() {
    scheduledFromTemplate();
    h.update(slice());
    assertThat(h.claimEviction(NS, CLAIM)).isEqualTo("none");
    expectCancelled();
  }

  @Test
  void cancelEvictionReduceTaint() {
    scheduledFromTemplate();
    h.update(sliceTaintedWithEffect(DeviceTaintEffect.NO_SCHEDULE));
    expectCancelled();
  }

  @Test
  void ignoreNoneEffect() {
    h.put(podWithClaimTemplateInStatus(CLAIM), POD_UID);
    h.put(sliceTaintedWithEffect(DeviceTaintEffect.NONE));
    h.put(slice2());
    h.put(inUseClaim());
    assertThat(h.claimEviction(NS, CLAIM)).isEqualTo("none");
    expectNoEvictions();
  }

  @Test
  void evictionChangeTaint() {
    h.put(podWithClaimTemplateInStatus(CLAIM), POD_UID);
    h.put(sliceTainted());
    h.put(slice2());
    h.put(inUseClaimWithToleration());
    h.refresh();
    assertThat(h.scheduled(POD_KEY)).isEqualTo(Map.of(POD_KEY, eviction(T0.plus(TOLERATION),
        sliceReason(SLICE, "instance", 0))));
    h.update(sliceWithFirstTaints(TAINT_OTHER));
    assertThat(h.claimEviction(NS, CLAIM)).isEqualTo(eviction(T0, sliceReason(SLICE, "instance", 0)));
    expectImmediateEvictionOf(POD_KEY, POD_UID, sliceReason(SLICE, "instance", 0));
    assertThat(h.events).containsExactly(DELETE);
  }

  @Test
  void cancelEvictionRemoveTaintInNewSlice() {
    scheduledFromTemplate();
    h.remove(ResourceSlice.class, "", SLICE);
    h.put(sliceReplaced());
    assertThat(h.claimEviction(NS, CLAIM)).isEqualTo("none");
    expectCancelled();
  }

  @Test
  void cancelEvictionRemoveSlice() {
    scheduledFromTemplate();
    h.remove(ResourceSlice.class, "", SLICE);
    expectCancelled();
  }

  @Test
  void cancelEvictionPodDeletion() {
    h.put(podWithClaimName(), POD_UID);
    h.put(sliceTainted());
    h.put(slice2());
    h.put(inUseClaim(noExecute(null, 60L)));
    h.refresh();
    assertThat(h.scheduled(POD_KEY)).isEqualTo(Map.of(POD_KEY, eviction(T0.plusSeconds(60),
        sliceReason(SLICE, "instance", 0))));
    h.remove(Pod.class, NS, POD);
    h.refresh();
    assertThat(h.scheduled(POD_KEY)).isEmpty();
    h.advance(Duration.ofSeconds(60));
    h.step();
    assertThat(h.events).isEmpty();
  }

  @Test
  void noEvictWrongResourceclaim() {
    h.put(sliceTainted());
    h.put(slice2());
    h.put(inUseClaimOld(), "other");
    h.put(podWithClaimTemplateInStatus(CLAIM), POD_UID);
    assertThat(h.claimEviction(NS, CLAIM)).isEqualTo(eviction(T0, sliceReason(SLICE, "instance", 0)));
    expectNoEvictions();
  }

  @Test
  void evictWrongResourceclaimReplaced() {
    h.put(podWithClaimTemplateInStatus(CLAIM), POD_UID);
    h.put(sliceTainted());
    h.put(slice2());
    h.put(inUseClaimOld(), "other");
    h.refresh();
    assertThat(h.scheduled(POD_KEY)).isEmpty();
    // a claim of another uid under the same name: upstream's update event with a new uid, a delete and an add here
    h.remove(ResourceClaim.class, NS, CLAIM);
    h.put(inUseClaim());
    expectImmediateEvictionOf(POD_KEY, POD_UID, sliceReason(SLICE, "instance", 0));
    assertThat(h.events).containsExactly(DELETE);
  }

  @Test
  void noEvictResourceclaimDeallocated() {
    scheduledFromTemplate();
    h.update(unallocatedClaim());
    expectCancelled();
  }

  @Test
  void noEvictResourceclaimDeleted() {
    scheduledFromTemplate();
    h.remove(ResourceClaim.class, NS, CLAIM);
    expectCancelled();
  }

  // ---- FleetKit's own ---------------------------------------------------------------------------------------------

  @Test
  void evictedPod_getsDisruptionTargetBeforeDeletion() {
    List<String> conditions = new ArrayList<>();
    h.store.watch(Pod.class, "0", e -> {
      var c = e.object().status().condition(PodCondition.DISRUPTION_TARGET);
      if (c != null) {
        conditions.add(c.reason() + ": " + c.message());
      }
    });
    h.put(sliceTainted());
    h.put(inUseClaim());
    h.put(podWithClaimName(), POD_UID);
    h.refresh();
    h.step();
    assertThat(h.pods()).isEmpty();
    assertThat(conditions).contains(DeviceTaintEvictionController.REASON + ": "
        + DeviceTaintEvictionController.MESSAGE);
    assertThat(h.controller.evictedCount()).isEqualTo(1);
  }

  @Test
  void ruleAddedLater_evictsAfterTolerationSeconds_onTheClock() {
    h.put(slice());
    h.put(inUseClaim(noExecute(TAINT_KEY, 120L)));
    h.put(podWithClaimName(), POD_UID);
    h.step();
    h.advance(Duration.ofMinutes(5));
    // a rule without timeAdded counts from when the controller first sees it
    h.put(rule("gpu-broken", DeviceTaintSelector.device(DRIVER, NODE, "instance"),
        DeviceTaint.of(TAINT_KEY, "", DeviceTaintEffect.NO_EXECUTE)));
    h.step();
    Instant seen = T0.plus(Duration.ofMinutes(5));
    assertThat(h.controller.scheduledEviction(POD_KEY)).contains(seen.plusSeconds(120));
    h.advance(Duration.ofSeconds(119));
    h.step();
    assertThat(h.pods()).containsExactly(POD_KEY);
    assertThat(h.metrics.get(DeviceTaintEvictionMetrics.POD_DELETIONS.name())).isZero();
    h.advance(Duration.ofSeconds(1));
    h.step();
    assertThat(h.pods()).isEmpty();
    // upstream's metrics: one deletion, at the instant it was due
    assertThat(h.metrics.get(DeviceTaintEvictionMetrics.POD_DELETIONS.name())).isEqualTo(1);
    assertThat(h.metrics.observations(DeviceTaintEvictionMetrics.POD_DELETION_DURATION.name())).containsExactly(0.0);
  }

  @Test
  void deletionLatency_fromWhenTheEvictionWasDue() {
    h.put(slice());
    h.put(rule("gpu-broken", DeviceTaintSelector.device(DRIVER, NODE, "instance"),
        DeviceTaint.of(TAINT_KEY, "", DeviceTaintEffect.NO_EXECUTE)));
    h.step();
    h.advance(Duration.ofSeconds(100));
    // the pod arrives after its eviction was due (the rule seen at T0, tolerated 30 s): deleted at once, 70 s late
    h.put(inUseClaim(noExecute(TAINT_KEY, 30L)));
    h.put(podWithClaimName(), POD_UID);
    h.step();
    assertThat(h.pods()).isEmpty();
    assertThat(h.metrics.get(DeviceTaintEvictionMetrics.POD_DELETIONS.name())).isEqualTo(1);
    assertThat(h.metrics.observations(DeviceTaintEvictionMetrics.POD_DELETION_DURATION.name()))
        .containsExactly(70.0);
  }

  @Test
  void ruleWithoutTime_seenBeforeAnyPodUsesTheDevice_countsFromThen() {
    h.put(slice());
    h.put(rule("gpu-broken", DeviceTaintSelector.device(DRIVER, NODE, "instance"),
        DeviceTaint.of(TAINT_KEY, "", DeviceTaintEffect.NO_EXECUTE)));
    h.step();
    h.advance(Duration.ofSeconds(100));
    h.put(inUseClaim(noExecute(TAINT_KEY, 120L)));
    h.put(podWithClaimName(), POD_UID);
    h.step();
    assertThat(h.controller.scheduledEviction(POD_KEY)).contains(T0.plusSeconds(120));
    h.advance(Duration.ofSeconds(20));
    h.step();
    assertThat(h.pods()).isEmpty();
  }

  @Test
  void ruleRemovedBeforeTheDelay_podKept() {
    h.put(slice());
    h.put(inUseClaim(noExecute(TAINT_KEY, 120L)));
    h.put(podWithClaimName(), POD_UID);
    h.put(ruleEvict(), RULE_EVICT_UID);
    h.step();
    assertThat(h.controller.scheduledEviction(POD_KEY)).contains(T0.plusSeconds(120));
    h.advance(Duration.ofSeconds(60));
    h.remove(DeviceTaintRule.class, "", "evict");
    h.step();
    h.advance(Duration.ofMinutes(10));
    h.step();
    assertThat(h.pods()).containsExactly(POD_KEY);
    assertThat(h.events).containsExactly(CANCEL);
  }

  @Test
  void toleratedForever_podKept_ruleStatusCountsNoPending() {
    h.put(slice());
    h.put(inUseClaim(noExecute(TAINT_KEY, null)));
    h.put(podWithClaimName(), POD_UID);
    h.put(ruleEvict(), RULE_EVICT_UID);
    h.step();
    h.advance(Duration.ofHours(2));
    h.step();
    assertThat(h.pods()).containsExactly(POD_KEY);
    assertThat(h.rules()).containsExactly(cond("evict", false, DeviceTaintRuleStatus.NOT_STARTED, "", T0));
  }

  @Test
  void noScheduleRule_otherEffectCondition() {
    h.put(rule("drain", DeviceTaintSelector.ALL, DeviceTaint.of(TAINT_KEY, "",
        DeviceTaintEffect.NO_SCHEDULE)));
    h.step();
    assertThat(h.rules()).containsExactly(cond("drain", false, "OtherEffect",
        "Eviction only happens for the NoExecute effect.", T0));
  }
}
