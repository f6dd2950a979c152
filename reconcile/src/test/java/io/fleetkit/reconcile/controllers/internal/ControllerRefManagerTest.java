package io.fleetkit.reconcile.controllers.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.apps.ReplicaSet;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.meta.OwnerReference;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import io.fleetkit.reconcile.Informer;
import io.fleetkit.reconcile.Lister;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Ported from kubernetes {@code pkg/controller/controller_ref_manager_test.go} (commit 04791b49; the version with
 * the finalizers and namespace cases): TestClaimPods, its 9 cases, each a method below named after it. Upstream's
 * controller is a ReplicationController named by nothing but its namespace and uid {@code 123}; here it is a
 * ReplicaSet {@code default/rc} with that uid (a Node for the cluster-scoped case), not stored: only the pods are.
 * Upstream's fake pod control counts patches; here the store's writes to the pods are counted and each is checked as
 * upstream checks the patch: it names the controller's uid (an adoption adds it as controller, a release removes it)
 * and carries the manager's finalizers (added on adoption, removed on release). The claimed pods are compared by
 * name, in order (FleetKit returns an adopted pod as the store wrote it, with its new owner reference).
 * TestGeneratePatchBytesForDelete (5 cases) is not ported: FleetKit writes whole objects, it builds no
 * strategic-merge patches.
 */
final class ControllerRefManagerTest {
  private static final Map<String, String> PRODUCTION = Map.of("type", "production");
  private static final Map<String, String> TESTING = Map.of("type", "testing");
  private static final LabelSelector PRODUCTION_SELECTOR = LabelSelector.of(PRODUCTION);
  private static final String CONTROLLER_UID = "123";
  private static final Supplier<@Nullable String> CAN_ADOPT = () -> null;
  private static final PodSpec SPEC = PodSpec.builder().container("c", "foo/bar", ResourceList.EMPTY).build();

  private final ManualClock clock = ManualClock.atEpoch2026();
  private final ObjectStore store = ObjectStore.builder().directDelivery().clock(clock.asClock()).build();

  @AfterEach
  void close() {
    store.close();
  }

  private static ReplicaSet controller(String uid, boolean deleting) {
    ReplicaSet rs = ReplicaSet.builder().namespace("default").name("rc").matchLabels(PRODUCTION)
        .podSpec(SPEC).build();
    ObjectMeta.Builder m = rs.metadata().toBuilder().uid(uid);
    if (deleting) {
      m.deletionTimestamp(ManualClock.atEpoch2026().now());
    }
    return rs.withMetadata(m.build());
  }

  /** Upstream's {@code newPod}: a pod of {@code namespace} with these labels, controlled by {@code owner} if any. */
  private Pod pod(String name, String namespace, Map<String, String> labels, @Nullable ApiObject<?> owner,
      boolean deleting) {
    ObjectMeta.Builder m = ObjectMeta.builder().namespace(namespace).name(name).labels(labels);
    if (owner != null) {
      m.ownerReference(OwnerReference.controllerOf(owner));
    }
    if (deleting) {
      m.finalizer("test/hold");
    }
    Pod p = store.create(Pod.of(m.build(), SPEC));
    if (deleting) {
      store.delete(Pod.class, namespace, name);
      p = store.require(Pod.class, namespace, name);
    }
    return p;
  }

  private Pod pod(String name, Map<String, String> labels, @Nullable ApiObject<?> owner) {
    return pod(name, "default", labels, owner, false);
  }

  /** The claim's outcome, with the writes it made to the pods (upstream's patches). */
  private record Outcome(List<String> claimed, List<String> errors, int patches) {}

  private <C extends ApiObject<C>> Outcome claim(C controller, List<String> finalizers, List<Pod> pods) {
    Map<String, Pod> before = new HashMap<>();
    for (Pod p : pods) {
      before.put(p.metadata().key(), p);
    }
    ControllerRefManager<C> manager = new ControllerRefManager<>(store, controller, PRODUCTION_SELECTOR, CAN_ADOPT,
        finalizers);
    ControllerRefManager.Claim<Pod> claim = manager.claim(pods);
    int patches = 0;
    String uid = controller.metadata().uid();
    for (Pod was : pods) {
      Pod now = store.require(Pod.class, was.metadata().namespace(), was.metadata().name());
      if (now.metadata().resourceVersion().equals(was.metadata().resourceVersion())) {
        continue;
      }
      patches++;
      OwnerReference wasRef = was.metadata().controllerRef();
      OwnerReference nowRef = now.metadata().controllerRef();
      if (wasRef == null) { // an adoption: the controller's reference and the finalizers added
        assertThat(nowRef).as("adopted %s", now.metadata().key()).isNotNull();
        assertThat(nowRef.uid()).isEqualTo(uid);
        for (String f : finalizers) {
          assertThat(now.metadata().finalizers()).contains(f);
        }
      } else { // a release: the reference to the controller and the finalizers removed
        assertThat(wasRef.uid()).isEqualTo(uid);
        assertThat(now.metadata().ownerReferences()).noneMatch(r -> r.uid().equals(uid));
        for (String f : finalizers) {
          assertThat(now.metadata().finalizers()).doesNotContain(f);
        }
      }
    }
    List<String> names = new ArrayList<>();
    for (Pod p : claim.claimed()) {
      names.add(p.metadata().name());
      assertThat(p.metadata().controllerRef()).as("claimed %s is controlled", p.metadata().key()).isNotNull();
      assertThat(p.metadata().controllerRef().uid()).isEqualTo(uid);
    }
    return new Outcome(names, claim.errors(), patches);
  }

  // upstream: "Claim pods with correct label" (the controller has no uid upstream; any uid does)
  @Test
  void claimPods_correctLabel_adoptsTheMatchingOrphan() {
    ReplicaSet rc = controller("", false);
    Outcome o = claim(rc, List.of(), List.of(pod("pod1", PRODUCTION, null), pod("pod2", TESTING, null)));
    assertThat(o.claimed()).containsExactly("pod1");
    assertThat(o.patches()).isEqualTo(1);
    assertThat(o.errors()).isEmpty();
  }

  // upstream: "Controller marked for deletion can not claim pods"
  @Test
  void claimPods_controllerBeingDeleted_claimsNoOrphan() {
    ReplicaSet rc = controller(CONTROLLER_UID, true);
    Outcome o = claim(rc, List.of(), List.of(pod("pod1", PRODUCTION, null), pod("pod2", PRODUCTION, null)));
    assertThat(o.claimed()).isEmpty();
    assertThat(o.patches()).isZero();
    assertThat(o.errors()).isEmpty();
  }

  // upstream: "Controller marked for deletion can not claim new pods"
  @Test
  void claimPods_controllerBeingDeleted_keepsWhatItControls() {
    ReplicaSet rc = controller(CONTROLLER_UID, true);
    Outcome o = claim(rc, List.of(), List.of(pod("pod1", PRODUCTION, rc), pod("pod2", PRODUCTION, null)));
    assertThat(o.claimed()).containsExactly("pod1");
    assertThat(o.patches()).isZero();
  }

  // upstream: "Controller can not claim pods owned by another controller"
  @Test
  void claimPods_podOfAnotherController_ignored() {
    ReplicaSet rc = controller(CONTROLLER_UID, false);
    ReplicaSet rc2 = controller("AAAAA", false);
    Outcome o = claim(rc, List.of(), List.of(pod("pod1", PRODUCTION, rc), pod("pod2", PRODUCTION, rc2)));
    assertThat(o.claimed()).containsExactly("pod1");
    assertThat(o.patches()).isZero();
    assertThat(store.require(Pod.class, "default", "pod2").metadata().controllerRef().uid()).isEqualTo("AAAAA");
  }

  // upstream: "Controller releases claimed pods when selector doesn't match"
  @Test
  void claimPods_controlledPodNoLongerMatching_released() {
    ReplicaSet rc = controller(CONTROLLER_UID, false);
    Outcome o = claim(rc, List.of(), List.of(pod("pod1", PRODUCTION, rc), pod("pod2", TESTING, rc)));
    assertThat(o.claimed()).containsExactly("pod1");
    assertThat(o.patches()).isEqualTo(1);
    assertThat(store.require(Pod.class, "default", "pod2").metadata().ownerReferences()).isEmpty();
  }

  // upstream: "Controller does not claim orphaned pods marked for deletion"
  @Test
  void claimPods_orphanBeingDeleted_notAdopted() {
    ReplicaSet rc = controller(CONTROLLER_UID, false);
    Pod podToDelete1 = pod("pod1", "default", PRODUCTION, rc, true);
    Pod podToDelete2 = pod("pod2", "default", PRODUCTION, null, true);
    Outcome o = claim(rc, List.of(), List.of(podToDelete1, podToDelete2));
    assertThat(o.claimed()).containsExactly("pod1");
    assertThat(o.patches()).isZero();
  }

  // upstream: "Controller claims or release pods according to selector with finalizers"
  @Test
  void claimPods_withFinalizers_adoptAddsThemReleaseRemovesThem() {
    ReplicaSet rc = controller(CONTROLLER_UID, false);
    Pod pod2 = pod("pod2", TESTING, rc);
    pod2 = store.update(pod2.withMetadata(pod2.metadata().toBuilder().finalizer("foo-finalizer")
        .finalizer("bar-finalizer").build()));
    Outcome o = claim(rc, List.of("foo-finalizer", "bar-finalizer"),
        List.of(pod("pod1", PRODUCTION, rc), pod2, pod("pod3", PRODUCTION, null)));
    assertThat(o.claimed()).containsExactly("pod1", "pod3");
    assertThat(o.patches()).isEqualTo(2);
    assertThat(store.require(Pod.class, "default", "pod3").metadata().finalizers())
        .containsExactly("foo-finalizer", "bar-finalizer");
    assertThat(store.require(Pod.class, "default", "pod2").metadata().finalizers()).isEmpty();
  }

  // upstream: "Controller does not claim pods of different namespace"
  @Test
  void claimPods_orphanOfAnotherNamespace_notAdopted() {
    ReplicaSet rc = controller(CONTROLLER_UID, false);
    Outcome o = claim(rc, List.of(), List.of(pod("pod1", PRODUCTION, null),
        pod("pod2", "fakens", PRODUCTION, null, false)));
    assertThat(o.claimed()).containsExactly("pod1");
    assertThat(o.patches()).isEqualTo(1);
  }

  // upstream: "Cluster scoped controller claims pods of specified namespace" (a Node stands for the cluster-scoped
  // controller; the manager takes its selector apart)
  @Test
  void claimPods_clusterScopedController_adoptsInEveryNamespace() {
    Node node = Node.builder().name("rc").build();
    node = node.withMetadata(node.metadata().toBuilder().uid(CONTROLLER_UID).build());
    Outcome o = claim(node, List.of(), List.of(pod("pod1", PRODUCTION, null),
        pod("pod2", "fakens", PRODUCTION, null, false)));
    assertThat(o.claimed()).containsExactly("pod1", "pod2");
    assertThat(o.patches()).isEqualTo(2);
  }

  // --- beyond the upstream table ---------------------------------------------------------------------------------

  @Test
  void claim_controllerDeletedSinceCached_recheckRefusesAdoptionOnceAndReportsIt() {
    ReplicaSet cached = store.create(controller("", false).withMetadata(controller("", false).metadata()
        .toBuilder().finalizer("test/hold").build()));
    store.delete(ReplicaSet.class, "default", "rc"); // the store now shows it being deleted; the cache does not
    AtomicInteger asked = new AtomicInteger();
    Supplier<@Nullable String> recheck = ControllerRefManager.recheckDeletion(store, cached);
    ControllerRefManager<ReplicaSet> manager = new ControllerRefManager<>(store, cached, PRODUCTION_SELECTOR, () -> {
      asked.incrementAndGet();
      return recheck.get();
    }, List.of());
    ControllerRefManager.Claim<Pod> claim = manager.claim(List.of(pod("pod1", PRODUCTION, cached),
        pod("pod2", PRODUCTION, null), pod("pod3", PRODUCTION, null)));
    assertThat(claim.claimed()).extracting(p -> p.metadata().name()).containsExactly("pod1");
    assertThat(claim.failed()).isTrue();
    assertThat(claim.errors()).hasSize(2).allMatch(e -> e.contains("has just been deleted"));
    assertThat(asked).hasValue(1);
    assertThat(store.require(Pod.class, "default", "pod2").metadata().ownerReferences()).isEmpty();
  }

  @Test
  void recheckDeletion_recreatedUnderTheSameName_refused() {
    ReplicaSet old = store.create(controller("", false));
    store.delete(ReplicaSet.class, "default", "rc");
    store.create(controller("", false));
    assertThat(ControllerRefManager.recheckDeletion(store, old).get()).contains("is gone: got uid");
    store.delete(ReplicaSet.class, "default", "rc");
    assertThat(ControllerRefManager.recheckDeletion(store, old).get()).contains("is gone");
  }

  @Test
  void claim_staleOrphan_adoptionConflictIsAnError_goneOrphanIsNot() {
    ReplicaSet rc = controller(CONTROLLER_UID, false);
    Pod stale = pod("pod1", PRODUCTION, null);
    store.update(stale.withMetadata(stale.metadata().toBuilder().label("extra", "x").build()));
    Pod gone = pod("pod2", PRODUCTION, null);
    store.delete(Pod.class, "default", "pod2");
    ControllerRefManager.Claim<Pod> claim = new ControllerRefManager<>(store, rc, PRODUCTION_SELECTOR, CAN_ADOPT,
        List.of()).claim(List.of(stale, gone));
    assertThat(claim.claimed()).isEmpty();
    assertThat(claim.errors()).hasSize(1);
    assertThat(claim.errors().get(0)).startsWith("adopting Pod default/pod1 for ReplicaSet default/rc: ");
  }

  @Test
  void claim_keepsOtherOwnersReferences_andMakesAPlainReferenceToItTheController() {
    ReplicaSet rc = controller(CONTROLLER_UID, false);
    OwnerReference other = new OwnerReference("v1", "ConfigMap", "cm", "cm-uid", false, false);
    OwnerReference plain = new OwnerReference("apps/v1", "ReplicaSet", "rc", CONTROLLER_UID, false, false);
    Pod orphan = store.create(Pod.of(ObjectMeta.builder().namespace("default").name("pod1").labels(PRODUCTION)
        .ownerReference(other).ownerReference(plain).build(), SPEC));
    Pod owned = store.create(Pod.of(ObjectMeta.builder().namespace("default").name("pod2").labels(TESTING)
        .ownerReference(other).ownerReference(OwnerReference.controllerOf(rc)).build(), SPEC));
    ControllerRefManager.Claim<Pod> claim = new ControllerRefManager<>(store, rc, PRODUCTION_SELECTOR, CAN_ADOPT,
        List.of()).claim(List.of(orphan, owned));
    assertThat(claim.claimed()).extracting(p -> p.metadata().name()).containsExactly("pod1");
    assertThat(store.require(Pod.class, "default", "pod1").metadata().ownerReferences())
        .containsExactly(other, OwnerReference.controllerOf(rc));
    assertThat(store.require(Pod.class, "default", "pod2").metadata().ownerReferences()).containsExactly(other);
  }

  @Test
  void claim_filter_releasesAControlledPodItRejects() {
    ReplicaSet rc = controller(CONTROLLER_UID, false);
    ControllerRefManager.Claim<Pod> claim = new ControllerRefManager<>(store, rc, PRODUCTION_SELECTOR, CAN_ADOPT,
        List.of()).claim(List.of(pod("rc-0", PRODUCTION, rc), pod("web-0", PRODUCTION, rc),
            pod("web-1", PRODUCTION, null)), p -> p.metadata().name().startsWith("rc-"));
    assertThat(claim.claimed()).extracting(p -> p.metadata().name()).containsExactly("rc-0");
    assertThat(store.require(Pod.class, "default", "web-0").metadata().controllerRef()).isNull();
    assertThat(store.require(Pod.class, "default", "web-1").metadata().controllerRef()).isNull();
  }

  @Test
  void claimFromLister_controlsExactlyWhatItSelects_returnsTheCachesListUnwritten() {
    ReplicaSet rc = controller(CONTROLLER_UID, false);
    pod("pod1", PRODUCTION, rc);
    pod("pod2", PRODUCTION, rc);
    pod("other", TESTING, null);
    try (Informer<Pod> pods = Informer.builder(store, Pod.class).build()) {
      pods.start().join();
      ControllerRefManager.Claim<Pod> claim = new ControllerRefManager<>(store, rc, PRODUCTION_SELECTOR, CAN_ADOPT,
          List.of()).claim(pods.lister());
      assertThat(claim.claimed()).as("the cache's own list, so callers can tell nothing changed")
          .isSameAs(pods.lister().byIndex(Lister.CONTROLLER_INDEX, CONTROLLER_UID));
      assertThat(claim.claimed()).extracting(p -> p.metadata().name()).containsExactly("pod1", "pod2");

      Pod orphan = pod("pod3", PRODUCTION, null);
      ControllerRefManager.Claim<Pod> next = new ControllerRefManager<>(store, rc, PRODUCTION_SELECTOR, CAN_ADOPT,
          List.of()).claim(pods.lister());
      assertThat(next.claimed()).extracting(p -> p.metadata().name()).containsExactly("pod1", "pod2", "pod3");
      assertThat(store.require(Pod.class, "default", "pod3").metadata().resourceVersion())
          .isNotEqualTo(orphan.metadata().resourceVersion());
    }
  }
}
