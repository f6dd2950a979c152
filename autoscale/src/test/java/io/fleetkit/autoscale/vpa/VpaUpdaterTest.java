package io.fleetkit.autoscale.vpa;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.ValidationException;
import io.fleetkit.api.apps.DaemonSet;
import io.fleetkit.api.apps.DaemonSetStatus;
import io.fleetkit.api.apps.Deployment;
import io.fleetkit.api.apps.ReplicaSet;
import io.fleetkit.api.meta.OwnerReference;
import io.fleetkit.api.autoscaling.ContainerControlledValues;
import io.fleetkit.api.autoscaling.ContainerResourcePolicy;
import io.fleetkit.api.autoscaling.CrossVersionObjectReference;
import io.fleetkit.api.autoscaling.PodResourcePolicy;
import io.fleetkit.api.autoscaling.RecommendedContainerResources;
import io.fleetkit.api.autoscaling.RecommendedPodResources;
import io.fleetkit.api.autoscaling.UpdateMode;
import io.fleetkit.api.autoscaling.VerticalPodAutoscaler;
import io.fleetkit.api.autoscaling.VerticalPodAutoscalerSpec;
import io.fleetkit.api.autoscaling.VerticalPodAutoscalerStatus;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodCondition;
import io.fleetkit.api.core.PodPhase;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.core.PodStatus;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.meta.IntOrPercent;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.policy.PodDisruptionBudget;
import io.fleetkit.api.policy.PodDisruptionBudgetSpec;
import io.fleetkit.api.policy.PodDisruptionBudgetStatus;
import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.resource.ResourceNames;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import io.fleetkit.reconcile.controllers.EvictionDecision;
import io.fleetkit.reconcile.controllers.Evictions;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

final class VpaUpdaterTest {
  private final ManualClock clock = new ManualClock(Instant.parse("2026-06-01T12:00:00Z"));
  private final ObjectStore store = ObjectStore.inMemory();
  /** Every event the updater recorded: {@code type reason action regarding-kind/namespace/name: note}. */
  private final List<String> events = new java.util.ArrayList<>();
  private final VpaUpdater updater = new VpaUpdater(store, clock, VpaUpdater.DEFAULT_EVICTION_TOLERANCE,
      (regarding, related, type, reason, action, note) -> events.add(type + " " + reason + " " + action + " "
          + regarding.kind() + "/" + regarding.namespace() + "/" + regarding.name() + ": " + note));

  private static ResourceList cpu(long milli) {
    return ResourceList.builder().put(ResourceNames.CPU, Quantity.ofMilli(milli)).build();
  }

  private void workload(int replicas) {
    store.create(Deployment.builder().namespace("ns").name("web").replicas(replicas)
        .matchLabels(Map.of("app", "web"))
        .podSpec(PodSpec.builder().container("app", "nginx:1", cpu(100)).build()).build());
    OwnerReference rs = replicaSet(store, replicas);
    for (int i = 0; i < replicas; i++) {
      store.create(Pod.builder().metadata(ObjectMeta.builder().namespace("ns").name("web-" + i).label("app", "web")
          .ownerReference(rs).build()).container("app", "nginx:1", cpu(100))
          .status(running()).build());
    }
  }

  /**
   * The ReplicaSet {@code ns/web-rs} of {@code replicas} that manages the test's pods (upstream's tests give their pods
   * a ReplicationController of as many replicas): the updater groups pods by their controller.
   */
  private static OwnerReference replicaSet(ObjectStore in, int replicas) {
    return OwnerReference.controllerOf(in.create(ReplicaSet.builder().namespace("ns").name("web-rs").replicas(replicas)
        .matchLabels(Map.of("app", "web")).podSpec(PodSpec.builder().container("app", "nginx:1", cpu(100)).build())
        .build()));
  }

  /** A Running, ready pod's status, started an hour ago. */
  private PodStatus running() {
    return PodStatus.of(PodPhase.Running).withStartTime(clock.instant().minus(Duration.ofHours(1)))
        .withConditionUpdated(PodCondition.of(PodCondition.READY, ConditionStatus.True, "", "", clock.instant()));
  }

  private void vpa(UpdateMode mode, @Nullable PodResourcePolicy policy) {
    VerticalPodAutoscalerSpec spec = VerticalPodAutoscalerSpec.builder()
        .targetRef(CrossVersionObjectReference.deployment("web")).updateMode(mode).resourcePolicy(policy).build();
    RecommendedPodResources rec = new RecommendedPodResources(List.of(
        new RecommendedContainerResources("app", cpu(500), cpu(300), cpu(1000), cpu(500))));
    store.create(VerticalPodAutoscaler.of(ObjectMeta.builder().namespace("ns").name("web").build(), spec)
        .withStatus(new VerticalPodAutoscalerStatus(rec, List.of())));
  }

  private List<String> actions(List<UpdateAction> a) {
    return a.stream().map(UpdateAction::action).toList();
  }

  @Test
  void update_recreateOutsideRange_evictsHalfOfReplicas() {
    workload(4);
    vpa(UpdateMode.Recreate, null);

    List<UpdateAction> a = updater.runOnce();

    assertThat(actions(a)).containsExactly(UpdateAction.EVICTED, UpdateAction.EVICTED,
        UpdateAction.BLOCKED_BY_EVICTION_TOLERANCE, UpdateAction.BLOCKED_BY_EVICTION_TOLERANCE);
    assertThat(store.list(Pod.class, "ns").items()).hasSize(2);
  }

  @Test
  void update_pdbAllowsOne_evictsThroughTheEvictionApiThenBlockedByPdb() {
    workload(4);
    vpa(UpdateMode.Auto, null);
    PodDisruptionBudget pdb = store.create(PodDisruptionBudget.of(ObjectMeta.builder().namespace("ns").name("web")
        .build(), PodDisruptionBudgetSpec.maxUnavailable(LabelSelector.of(Map.of("app", "web")), IntOrPercent.ONE)));
    store.updateStatus(pdb.withStatus(new PodDisruptionBudgetStatus(pdb.metadata().generation(), Map.of(), 1, 4, 3, 4,
        List.of())));

    List<UpdateAction> a = updater.runOnce();

    // the first eviction takes the budget's only disruption; a refused eviction takes nothing from the updater's
    // tolerance (half of 4), so the eviction API is asked for the other three and refuses each
    assertThat(actions(a)).containsExactly(UpdateAction.EVICTED, UpdateAction.BLOCKED_BY_PDB,
        UpdateAction.BLOCKED_BY_PDB, UpdateAction.BLOCKED_BY_PDB);
    assertThat(a.get(1).reason()).startsWith(EvictionDecision.VIOLATES_BUDGET).contains("ns/web");
    assertThat(a.get(0).reason()).isEmpty();
    PodDisruptionBudgetStatus after = store.require(PodDisruptionBudget.class, "ns", "web").status();
    assertThat(after.disruptionsAllowed()).isZero();
    String evicted = a.get(0).pod().substring("ns/".length());
    assertThat(after.disruptedPods()).containsOnlyKeys(evicted);
    assertThat(after.conditions()).anySatisfy(c -> assertThat(c.reason()).isEqualTo("InsufficientPods"));
    assertThat(store.get(Pod.class, "ns", evicted)).isEmpty();
    assertThat(store.list(Pod.class, "ns").items()).hasSize(3);
    // events for the eviction made only: a refused one records none (upstream records after the API call succeeded)
    assertThat(events).extracting(e -> e.substring(0, e.indexOf(':'))).containsExactly(
        "Normal EvictedByVPA Evict Pod/ns/" + evicted, "Normal EvictedPod Evict VerticalPodAutoscaler/ns/web");
  }

  @Test
  void update_evictionOfBoundPod_marksDisruptionTargetAndDeletesGracefully() {
    workload(2);
    Pod bound = store.require(Pod.class, "ns", "web-0");
    store.updateWithStatus(bound.withSpec(bound.spec().withNodeName("n1")));
    vpa(UpdateMode.Recreate, null);

    List<UpdateAction> a = updater.runOnce();

    assertThat(a).extracting(UpdateAction::pod, UpdateAction::action).containsExactly(
        org.assertj.core.groups.Tuple.tuple("ns/web-0", UpdateAction.EVICTED),
        org.assertj.core.groups.Tuple.tuple("ns/web-1", UpdateAction.BLOCKED_BY_EVICTION_TOLERANCE));
    Pod terminating = store.require(Pod.class, "ns", "web-0");
    assertThat(terminating.metadata().deletionTimestamp()).isNotNull();
    PodCondition target = terminating.status().condition(PodCondition.DISRUPTION_TARGET);
    assertThat(target).isNotNull();
    assertThat(target.status()).isEqualTo(ConditionStatus.True);
    assertThat(target.reason()).isEqualTo(Evictions.REASON);
  }

  @Test
  void update_podReplacedDuringItsEviction_evictionFailedWithTheConflict() {
    ObjectStore direct = ObjectStore.builder().directDelivery().build();
    direct.create(Deployment.builder().namespace("ns").name("web").replicas(2).matchLabels(Map.of("app", "web"))
        .podSpec(PodSpec.builder().container("app", "nginx:1", cpu(100)).build()).build());
    OwnerReference rs = replicaSet(direct, 2);
    for (int i = 0; i < 2; i++) {
      direct.create(Pod.builder().metadata(ObjectMeta.builder().namespace("ns").name("web-" + i).label("app", "web")
          .ownerReference(rs).build()).container("app", "nginx:1", cpu(100)).status(running()).build());
    }
    direct.create(vpaObject(UpdateMode.Recreate, null));
    // when the eviction marks web-0 DisruptionTarget, another client replaces it under the same name
    try (var w = direct.watch(Pod.class, "0", e -> {
      Pod p = e.object();
      if (p.metadata().name().equals("web-0") && p.status().condition(PodCondition.DISRUPTION_TARGET) != null) {
        direct.delete(Pod.class, "ns", "web-0", io.fleetkit.api.store.DeleteOptions.gracePeriod(0));
        direct.create(Pod.builder().metadata(ObjectMeta.builder().namespace("ns").name("web-0").label("app", "web")
            .ownerReference(rs).build()).container("app", "nginx:1", cpu(100)).status(running()).build());
      }
    })) {
      List<UpdateAction> a = new VpaUpdater(direct, clock, 0.5).runOnce();

      assertThat(a).extracting(UpdateAction::pod, UpdateAction::action).containsExactly(
          org.assertj.core.groups.Tuple.tuple("ns/web-0", UpdateAction.EVICTION_FAILED),
          org.assertj.core.groups.Tuple.tuple("ns/web-1", UpdateAction.EVICTED));
      assertThat(a.get(0).reason()).contains("UID");
      assertThat(direct.require(Pod.class, "ns", "web-0").status().condition(PodCondition.DISRUPTION_TARGET))
          .isNull();
    }
  }

  @Test
  void update_podGoneBeforeItsEviction_evictionFailedAndNotCounted() {
    // upstream's Evict returns the eviction API's 404 as an error: the pod is not counted in its group's evictions
    ObjectStore direct = ObjectStore.builder().directDelivery().build();
    direct.create(Deployment.builder().namespace("ns").name("web").replicas(4).matchLabels(Map.of("app", "web"))
        .podSpec(PodSpec.builder().container("app", "nginx:1", cpu(100)).build()).build());
    OwnerReference rs = replicaSet(direct, 4);
    for (int i = 0; i < 4; i++) {
      direct.create(Pod.builder().metadata(ObjectMeta.builder().namespace("ns").name("web-" + i).label("app", "web")
          .ownerReference(rs).build()).container("app", "nginx:1", cpu(100)).status(running()).build());
    }
    direct.create(vpaObject(UpdateMode.Recreate, null));
    // when the eviction marks web-0 DisruptionTarget, another client deletes web-1 for good
    try (var w = direct.watch(Pod.class, "0", e -> {
      Pod p = e.object();
      if (p.metadata().name().equals("web-0") && p.status().condition(PodCondition.DISRUPTION_TARGET) != null
          && direct.get(Pod.class, "ns", "web-1").isPresent()) {
        direct.delete(Pod.class, "ns", "web-1", io.fleetkit.api.store.DeleteOptions.gracePeriod(0));
      }
    })) {
      List<UpdateAction> a = new VpaUpdater(direct, clock, 0.5).runOnce();

      // tolerance 0.5 of 4 replicas: two evictions; the failed one leaves room for web-2
      assertThat(a).extracting(UpdateAction::pod, UpdateAction::action).containsExactly(
          org.assertj.core.groups.Tuple.tuple("ns/web-0", UpdateAction.EVICTED),
          org.assertj.core.groups.Tuple.tuple("ns/web-1", UpdateAction.EVICTION_FAILED),
          org.assertj.core.groups.Tuple.tuple("ns/web-2", UpdateAction.EVICTED),
          org.assertj.core.groups.Tuple.tuple("ns/web-3", UpdateAction.BLOCKED_BY_EVICTION_TOLERANCE));
      assertThat(a.get(1).reason()).isEqualTo("pods \"web-1\" not found");
      assertThat(direct.get(Pod.class, "ns", "web-1")).isEmpty();
    }
  }

  // kubernetes/autoscaler vertical-pod-autoscaler/pkg/updater/restriction/pods_eviction_restriction_test.go (master
  // 55c37cd5) TestEvictEmitEvent: its decisions are in PodsEvictionRestrictionTest; its events (EvictedByVPA on the
  // pod, EvictedPod on the VPA, two per evicted pod, none otherwise) are the recorder's here, with the updater's
  // actions.

  private void deploymentWithPods(int replicas, PodStatus... pods) {
    store.create(Deployment.builder().namespace("ns").name("web").replicas(replicas)
        .matchLabels(Map.of("app", "web"))
        .podSpec(PodSpec.builder().container("app", "nginx:1", cpu(100)).build()).build());
    OwnerReference rs = replicaSet(store, replicas);
    for (int i = 0; i < pods.length; i++) {
      store.create(Pod.builder().metadata(ObjectMeta.builder().namespace("ns").name("test-" + (i + 1))
          .label("app", "web").ownerReference(rs).build()).container("app", "nginx:1", cpu(100)).status(pods[i]).build());
    }
  }

  @Test
  void update_upstreamTestEvictEmitEvent_podsThatCanBeEvicted() {
    deploymentWithPods(4, PodStatus.PENDING, PodStatus.PENDING);
    vpa(UpdateMode.Recreate, null);

    assertThat(updater.runOnce()).extracting(UpdateAction::pod, UpdateAction::action).containsExactlyInAnyOrder(
        org.assertj.core.groups.Tuple.tuple("ns/test-1", UpdateAction.EVICTED),
        org.assertj.core.groups.Tuple.tuple("ns/test-2", UpdateAction.EVICTED));
    assertThat(store.list(Pod.class, "ns").items()).isEmpty();
    assertThat(events).containsExactlyInAnyOrder(
        "Normal EvictedByVPA Evict Pod/ns/test-1: Pod was evicted by VPA Updater to apply resource recommendation.",
        "Normal EvictedPod Evict VerticalPodAutoscaler/ns/web: VPA Updater evicted Pod test-1 to apply resource "
            + "recommendation.",
        "Normal EvictedByVPA Evict Pod/ns/test-2: Pod was evicted by VPA Updater to apply resource recommendation.",
        "Normal EvictedPod Evict VerticalPodAutoscaler/ns/web: VPA Updater evicted Pod test-2 to apply resource "
            + "recommendation.");
  }

  /** A recorder that throws does not stop the evictions: events are best effort. */
  @Test
  void update_throwingRecorder_stillEvicts() {
    deploymentWithPods(4, PodStatus.PENDING, PodStatus.PENDING);
    vpa(UpdateMode.Recreate, null);
    List<String> tried = new java.util.ArrayList<>();
    VpaUpdater throwing = new VpaUpdater(store, clock, VpaUpdater.DEFAULT_EVICTION_TOLERANCE,
        (regarding, related, type, reason, action, note) -> {
          tried.add(reason);
          throw new IllegalStateException("event sink is down");
        });

    assertThat(throwing.runOnce()).extracting(UpdateAction::action)
        .containsExactly(UpdateAction.EVICTED, UpdateAction.EVICTED);
    assertThat(store.list(Pod.class, "ns").items()).isEmpty();
    assertThat(tried).containsExactly("EvictedByVPA", "EvictedPod", "EvictedByVPA", "EvictedPod");
  }

  @Test
  void update_upstreamTestEvictEmitEvent_podThatCanNotBeEvicted() {
    deploymentWithPods(4, running());
    vpa(UpdateMode.Recreate, null);

    assertThat(updater.runOnce()).isEmpty();
    assertThat(store.list(Pod.class, "ns").items()).hasSize(1);
    assertThat(events).isEmpty();
  }

  @Test
  void update_belowMinReplicas_nothing() {
    workload(1);
    vpa(UpdateMode.Recreate, null);
    assertThat(updater.runOnce()).isEmpty();
  }

  @Test
  void update_modesOffAndInitial_neverEvict() {
    workload(4);
    vpa(UpdateMode.Initial, null);
    assertThat(updater.runOnce()).isEmpty();
    store.delete(VerticalPodAutoscaler.class, "ns", "web");
    vpa(UpdateMode.Off, null);
    assertThat(updater.runOnce()).isEmpty();
  }

  @Test
  void update_inPlaceOrRecreate_resizesWithinToleranceWithoutEviction() {
    workload(4);
    vpa(UpdateMode.InPlaceOrRecreate, null);

    List<UpdateAction> a = updater.runOnce();

    // in-place resizes count against the tolerance as evictions do: half of 4
    assertThat(actions(a)).containsExactly(UpdateAction.RESIZED_IN_PLACE, UpdateAction.RESIZED_IN_PLACE,
        UpdateAction.IN_PLACE_DEFERRED, UpdateAction.IN_PLACE_DEFERRED);
    assertThat(store.list(Pod.class, "ns").items()).hasSize(4)
        .filteredOn(p -> p.spec().containers().get(0).resources().requests().milliValue(ResourceNames.CPU) == 500)
        .extracting(p -> p.metadata().key())
        .containsExactlyInAnyOrder(a.get(0).pod(), a.get(1).pod());

    // upstream's InPlaceUpdate records InPlaceResizedByVPA on each pod it resized, nothing on the VPA
    assertThat(events).containsExactlyInAnyOrder(
        "Normal InPlaceResizedByVPA Resize Pod/" + a.get(0).pod() + ": Pod was resized in place by VPA Updater.",
        "Normal InPlaceResizedByVPA Resize Pod/" + a.get(1).pod() + ": Pod was resized in place by VPA Updater.");

    // the next pass resizes the other two (the resized pods are within the recommended range now)
    assertThat(actions(updater.runOnce())).containsExactly(UpdateAction.RESIZED_IN_PLACE,
        UpdateAction.RESIZED_IN_PLACE);
    assertThat(events).hasSize(4);
  }

  @Test
  void update_pendingPod_evictedWithoutUsingTheTolerance() {
    workload(3);
    Pod p = store.require(Pod.class, "ns", "web-2");
    store.updateStatus(p.withStatus(p.status().withPhase(PodPhase.Pending)));
    vpa(UpdateMode.Recreate, null);

    List<UpdateAction> a = updater.runOnce();

    // 2 running of 3 configured, tolerance int(1.5) = 1: no running pod may go, the Pending one may
    assertThat(a).extracting(UpdateAction::pod, UpdateAction::action).containsExactlyInAnyOrder(
        org.assertj.core.groups.Tuple.tuple("ns/web-0", UpdateAction.BLOCKED_BY_EVICTION_TOLERANCE),
        org.assertj.core.groups.Tuple.tuple("ns/web-1", UpdateAction.BLOCKED_BY_EVICTION_TOLERANCE),
        org.assertj.core.groups.Tuple.tuple("ns/web-2", UpdateAction.EVICTED));
  }

  private static Pod newPod(ResourceList requests, ResourceList limits) {
    return Pod.builder().namespace("ns").name("new").container("app", "nginx:1", requests, limits).build();
  }

  private static VerticalPodAutoscaler vpaObject(UpdateMode mode, @Nullable PodResourcePolicy policy) {
    VerticalPodAutoscalerSpec spec = VerticalPodAutoscalerSpec.builder()
        .targetRef(CrossVersionObjectReference.deployment("web")).updateMode(mode).resourcePolicy(policy).build();
    RecommendedPodResources rec = new RecommendedPodResources(List.of(
        new RecommendedContainerResources("app", cpu(500), cpu(300), cpu(1000), cpu(500))));
    return VerticalPodAutoscaler.of(ObjectMeta.builder().namespace("ns").name("web").build(), spec)
        .withStatus(new VerticalPodAutoscalerStatus(rec, List.of()));
  }

  @Test
  void admit_requestsAndLimits_limitKeepsRatio() {
    Pod p = VpaAdmission.admit(newPod(cpu(100), cpu(200)), vpaObject(UpdateMode.Initial, null));
    assertThat(p.spec().containers().get(0).resources().requests().milliValue(ResourceNames.CPU)).isEqualTo(500);
    assertThat(p.spec().containers().get(0).resources().limits().milliValue(ResourceNames.CPU)).isEqualTo(1000);
  }

  @Test
  void admit_requestEqualsLimit_limitBecomesRequest() {
    Pod p = VpaAdmission.admit(newPod(cpu(100), cpu(100)), vpaObject(UpdateMode.Recreate, null));
    assertThat(p.spec().containers().get(0).resources().limits().milliValue(ResourceNames.CPU)).isEqualTo(500);
  }

  @Test
  void admit_requestsOnly_limitUnchanged() {
    PodResourcePolicy policy = PodResourcePolicy.of(
        ContainerResourcePolicy.of("app").withControlledValues(ContainerControlledValues.RequestsOnly));
    Pod p = VpaAdmission.admit(newPod(cpu(100), cpu(600)), vpaObject(UpdateMode.Auto, policy));
    assertThat(p.spec().containers().get(0).resources().requests().milliValue(ResourceNames.CPU)).isEqualTo(500);
    assertThat(p.spec().containers().get(0).resources().limits().milliValue(ResourceNames.CPU)).isEqualTo(600);
  }

  @Test
  void admit_modeOff_unchanged() {
    Pod original = newPod(cpu(100), cpu(200));
    assertThat(VpaAdmission.admit(original, vpaObject(UpdateMode.Off, null))).isSameAs(original);
  }

  // Pod-level resources (KEP-2837): upstream's VPA (kubernetes/autoscaler master 55c37cd5) applies container
  // recommendations only and leaves the pod-level budget; what does not fit is refused by pod validation.

  private static Pod podLevelPod(ResourceList containerRequests, ResourceList podRequests, ResourceList podLimits) {
    return Pod.builder().namespace("ns").name("new").container("app", "nginx:1", containerRequests)
        .resources(podRequests, podLimits).build();
  }

  @Test
  void admit_podLevelBudgetRoomy_containerRequestSetPodLevelKept() {
    Pod p = VpaAdmission.admit(podLevelPod(cpu(100), cpu(2000), ResourceList.EMPTY),
        vpaObject(UpdateMode.Initial, null));
    assertThat(p.spec().containers().get(0).resources().requests().milliValue(ResourceNames.CPU)).isEqualTo(500);
    assertThat(p.spec().resources().requests().milliValue(ResourceNames.CPU)).isEqualTo(2000);
    assertThat(p.effectiveRequests().milliValue(ResourceNames.CPU)).isEqualTo(2000);
  }

  @Test
  void admit_recommendationAbovePodLevelRequest_refusedNamingTheField() {
    Pod original = podLevelPod(cpu(100), cpu(300), ResourceList.EMPTY);
    assertThatThrownBy(() -> VpaAdmission.admit(original, vpaObject(UpdateMode.Auto, null)))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("ns/new")
        .hasMessageContaining("spec.resources.requests.cpu")
        .hasMessageContaining("must be greater than or equal to aggregate container requests of 500m");
  }

  @Test
  void admit_scaledLimitAbovePodLevelLimit_refusedNamingTheField() {
    // request 100m, limit 200m, pod-level limit 800m: the new request 500m scales the limit to 1000m
    Pod original = Pod.builder().namespace("ns").name("new").container("app", "nginx:1", cpu(100), cpu(200))
        .resources(cpu(800), cpu(800)).build();
    assertThatThrownBy(() -> VpaAdmission.admit(original, vpaObject(UpdateMode.Initial, null)))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("must be less than or equal to pod limits of 800m");
  }

  @Test
  void update_inPlaceOrRecreate_podLevelPodsEvictedNotResized() {
    store.create(Deployment.builder().namespace("ns").name("web").replicas(3)
        .matchLabels(Map.of("app", "web"))
        .podSpec(PodSpec.builder().container("app", "nginx:1", cpu(100)).build()).build());
    OwnerReference rs = replicaSet(store, 3);
    for (int i = 0; i < 3; i++) {
      Pod.Builder b = Pod.builder().metadata(ObjectMeta.builder().namespace("ns").name("web-" + i).label("app", "web")
          .ownerReference(rs).build()).container("app", "nginx:1", cpu(100))
          .status(running());
      if (i == 0) {
        b.resources(cpu(2000), ResourceList.EMPTY); // room for the 500m recommendation, but no resize of such a pod
      }
      store.create(b.build());
    }
    vpa(UpdateMode.InPlaceOrRecreate, null);

    // the whole group may be disrupted at once, so that the fallback eviction is not held back by the resizes
    List<UpdateAction> a = new VpaUpdater(store, clock, 1.0).runOnce();

    assertThat(a).extracting(UpdateAction::pod, UpdateAction::action).containsExactlyInAnyOrder(
        org.assertj.core.groups.Tuple.tuple("ns/web-0", "Evicted"),
        org.assertj.core.groups.Tuple.tuple("ns/web-1", "ResizedInPlace"),
        org.assertj.core.groups.Tuple.tuple("ns/web-2", "ResizedInPlace"));
    assertThat(store.get(Pod.class, "ns", "web-0")).isEmpty();
  }

  @Test
  void update_vpaOnDaemonSet_groupConfiguredByNumberReady() {
    DaemonSet ds = store.create(DaemonSet.builder().namespace("ns").name("agent").matchLabels(Map.of("app", "agent"))
        .podSpec(PodSpec.builder().container("app", "nginx:1", cpu(100)).build()).build());
    store.updateStatus(ds.withStatus(new DaemonSetStatus(4, 0, 4, 4, 4, 4, 0, 1, null, List.of())));
    for (int i = 0; i < 4; i++) {
      store.create(Pod.builder().metadata(ObjectMeta.builder().namespace("ns").name("agent-" + i)
          .label("app", "agent").ownerReference(OwnerReference.controllerOf(ds)).build())
          .container("app", "nginx:1", cpu(100)).status(running()).build());
    }
    VerticalPodAutoscalerSpec spec = VerticalPodAutoscalerSpec.builder()
        .targetRef(CrossVersionObjectReference.of("apps/v1", DaemonSet.KIND, "agent")).updateMode(UpdateMode.Recreate)
        .build();
    RecommendedPodResources rec = new RecommendedPodResources(List.of(
        new RecommendedContainerResources("app", cpu(500), cpu(300), cpu(1000), cpu(500))));
    store.create(VerticalPodAutoscaler.of(ObjectMeta.builder().namespace("ns").name("agent").build(), spec)
        .withStatus(new VerticalPodAutoscalerStatus(rec, List.of())));

    // upstream's target selector fetcher reads the DaemonSet's selector; half of its 4 ready pods may go at once
    assertThat(actions(updater.runOnce())).containsExactly(UpdateAction.EVICTED, UpdateAction.EVICTED,
        UpdateAction.BLOCKED_BY_EVICTION_TOLERANCE, UpdateAction.BLOCKED_BY_EVICTION_TOLERANCE);
  }
}
