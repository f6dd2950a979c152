package io.fleetkit.reconcile.controllers.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.apps.ClaimTemplate;
import io.fleetkit.api.apps.StatefulSet;
import io.fleetkit.api.core.Container;
import io.fleetkit.api.core.PersistentVolumeClaim;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodCondition;
import io.fleetkit.api.core.PodPhase;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.core.Volume;
import io.fleetkit.api.core.VolumeSource;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.meta.OwnerReference;
import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.reconcile.controllers.WorkloadLabels;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Ported from upstream {@code pkg/controller/statefulset/stateful_set_utils_test.go}: TestGetParentNameAndOrdinal,
 * TestIsMemberOf, TestIdentityMatches, TestStorageMatches, TestUpdateIdentity, TestUpdateStorage,
 * TestIsRunningAndReady (without the removed init annotation), TestAscendingOrdinal, TestNewPodControllerRef,
 * TestCreateApplyRevision. Fixture: upstream's
 * {@code newStatefulSet(3)} ("foo", claim template "datadir", hostPath volume "home", service "governingsvc").
 */
final class StatefulSetPodsTest {

  static StatefulSet newStatefulSet(int replicas) {
    PodSpec spec = PodSpec.builder().container("nginx", "nginx", ResourceList.EMPTY)
        .volume(new Volume("home", new VolumeSource.HostPath("/tmp/home"))).build();
    StatefulSet s = StatefulSet.builder().namespace("default").name("foo").replicas(replicas)
        .matchLabels(Map.of("foo", "bar")).podSpec(spec).serviceName("governingsvc")
        .volumeClaimTemplate(ClaimTemplate.of("datadir", null,
            ResourceList.of(Map.of("storage", Quantity.parse("1")))))
        .build();
    return s.withMetadata(s.metadata().toBuilder().uid("test").build());
  }

  static Pod newStatefulSetPod(StatefulSet set, int ordinal) {
    return StatefulSetPods.newPod(set, set.spec().template(), "foo-rev", ordinal);
  }

  private static Pod renamed(Pod p, String name) {
    return p.withMetadata(p.metadata().toBuilder().name(name).build());
  }

  @Test
  void getParentNameAndOrdinal_memberAndNonMember() {
    StatefulSet set = newStatefulSet(3);
    Pod pod = newStatefulSetPod(set, 1);
    assertThat(StatefulSetPods.parentAndOrdinal(pod.metadata().name()))
        .isEqualTo(new StatefulSetPods.ParentAndOrdinal("foo", 1));
    assertThat(StatefulSetPods.parentAndOrdinal("1-bar")).isEqualTo(new StatefulSetPods.ParentAndOrdinal("", -1));
  }

  @Test
  void isMemberOf_otherSetName_false() {
    StatefulSet set = newStatefulSet(3);
    StatefulSet set2 = set.withMetadata(set.metadata().toBuilder().name("foo2").build());
    Pod pod = newStatefulSetPod(set, 1);
    assertThat(StatefulSetPods.isMemberOf(set, pod)).isTrue();
    assertThat(StatefulSetPods.isMemberOf(set2, pod)).isFalse();
  }

  @Test
  void identityMatches_wrongNameNamespaceHostnameOrSubdomain_false() {
    StatefulSet set = newStatefulSet(3);
    Pod pod = newStatefulSetPod(set, 1);
    assertThat(StatefulSetPods.identityMatches(set, pod)).as("new pod").isTrue();
    assertThat(StatefulSetPods.identityMatches(set, renamed(pod, "foo"))).as("wrong name").isFalse();
    Pod otherNs = pod.withMetadata(pod.metadata().toBuilder().namespace("other").build());
    assertThat(StatefulSetPods.identityMatches(set, otherNs)).as("wrong namespace").isFalse();
    assertThat(StatefulSetPods.identityMatches(set, withoutAnnotation(pod, WorkloadLabels.HOSTNAME)))
        .as("no hostname").isFalse();
    assertThat(StatefulSetPods.identityMatches(set, withoutAnnotation(pod, WorkloadLabels.SUBDOMAIN)))
        .as("no subdomain").isFalse();
  }

  private static Pod withoutAnnotation(Pod p, String key) {
    Map<String, String> a = new java.util.HashMap<>(p.metadata().annotations());
    a.remove(key);
    return p.withMetadata(p.metadata().toBuilder().annotations(a).build());
  }

  private static Pod withVolumes(Pod p, List<Volume> volumes) {
    return p.withSpec(p.spec().toBuilder().volumes(volumes).build());
  }

  private static List<Volume> claimsRenamed(Pod p, String claimName, boolean dropClaim) {
    List<Volume> out = new ArrayList<>();
    for (Volume v : p.spec().volumes()) {
      if (v.claim() == null) {
        out.add(v);
      } else if (dropClaim) {
        out.add(Volume.emptyDir(v.name()));
      } else {
        out.add(Volume.persistentVolumeClaim(v.name(), claimName));
      }
    }
    return out;
  }

  @Test
  void storageMatches_missingOrWrongClaimOrOrdinal_false() {
    StatefulSet set = newStatefulSet(3);
    Pod pod = newStatefulSetPod(set, 1);
    assertThat(StatefulSetPods.storageMatches(set, pod)).as("new pod").isTrue();
    assertThat(StatefulSetPods.storageMatches(set, withVolumes(pod, List.of()))).as("no volumes").isFalse();
    assertThat(StatefulSetPods.storageMatches(set, withVolumes(pod, claimsRenamed(pod, "", true))))
        .as("claims replaced").isFalse();
    assertThat(StatefulSetPods.storageMatches(set, withVolumes(pod, claimsRenamed(pod, "foo", false))))
        .as("claim renamed").isFalse();
    assertThat(StatefulSetPods.storageMatches(set, renamed(pod, "bar"))).as("no ordinal").isFalse();
  }

  @Test
  void updateIdentity_brokenIdentity_repaired() {
    StatefulSet set = newStatefulSet(3);
    Pod pod = newStatefulSetPod(set, 1);
    Pod otherNs = pod.withMetadata(pod.metadata().toBuilder().namespace("other").build());
    assertThat(StatefulSetPods.identityMatches(set, otherNs)).isFalse();
    assertThat(StatefulSetPods.identityMatches(set, StatefulSetPods.updateIdentity(set, otherNs))).isTrue();
    Pod noHost = withoutAnnotation(pod, WorkloadLabels.HOSTNAME);
    assertThat(StatefulSetPods.identityMatches(set, StatefulSetPods.updateIdentity(set, noHost))).isTrue();
    Pod noSub = withoutAnnotation(pod, WorkloadLabels.SUBDOMAIN);
    assertThat(StatefulSetPods.identityMatches(set, noSub)).isFalse();
    assertThat(StatefulSetPods.identityMatches(set, StatefulSetPods.updateIdentity(set, noSub))).isTrue();
  }

  @Test
  void updateStorage_brokenStorage_repairedOthersKept() {
    StatefulSet set = newStatefulSet(3);
    Pod pod = newStatefulSetPod(set, 1);
    Pod none = withVolumes(pod, List.of());
    assertThat(StatefulSetPods.storageMatches(set, StatefulSetPods.updateStorage(set, none))).isTrue();
    Pod replaced = withVolumes(pod, claimsRenamed(pod, "", true));
    assertThat(StatefulSetPods.storageMatches(set, replaced)).isFalse();
    Pod repaired = StatefulSetPods.updateStorage(set, replaced);
    assertThat(StatefulSetPods.storageMatches(set, repaired)).isTrue();
    assertThat(repaired.spec().volumes()).extracting(Volume::name).containsExactly("home", "datadir");
    Pod renamedClaim = withVolumes(pod, claimsRenamed(pod, "foo", false));
    assertThat(StatefulSetPods.storageMatches(set, StatefulSetPods.updateStorage(set, renamedClaim))).isTrue();
  }

  @Test
  void isRunningAndReady_phaseAndCondition() {
    StatefulSet set = newStatefulSet(3);
    Pod pod = newStatefulSetPod(set, 1);
    assertThat(StatefulSetPods.isRunningAndReady(pod)).as("pending").isFalse();
    pod = pod.withStatus(pod.status().withPhase(PodPhase.Running));
    assertThat(StatefulSetPods.isRunningAndReady(pod)).as("running, no Ready condition").isFalse();
    pod = pod.withStatus(pod.status().withCondition(
        PodCondition.of(PodCondition.READY, ConditionStatus.True, "", "", null)));
    assertThat(StatefulSetPods.isRunningAndReady(pod)).isTrue();
  }

  @Test
  void ascendingOrdinal_shuffled_sortedByOrdinalNotName() {
    StatefulSet set = newStatefulSet(10);
    List<Pod> pods = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      pods.add(newStatefulSetPod(set, i));
    }
    Collections.shuffle(pods, new Random(7));
    pods.sort(StatefulSetPods.ascendingOrdinal());
    assertThat(pods).extracting(StatefulSetPods::ordinal).isSorted().containsExactly(0, 1, 2, 3, 4, 5, 6, 7, 8, 9,
        10, 11);
  }

  @Test
  void newPod_controllerRef_namesTheSet() {
    StatefulSet set = newStatefulSet(1);
    Pod pod = newStatefulSetPod(set, 0);
    OwnerReference ref = pod.metadata().controllerRef();
    assertThat(ref).isNotNull();
    assertThat(ref.apiVersion()).isEqualTo("apps/v1");
    assertThat(ref.kind()).isEqualTo("StatefulSet");
    assertThat(ref.name()).isEqualTo("foo");
    assertThat(ref.uid()).isEqualTo("test");
    assertThat(ref.controller()).isTrue();
  }

  // TestCreateApplyRevision: a revision applied to a changed set restores its template; the set's annotations go
  // onto the revision
  @Test
  void createApplyRevision_changedSet_revisionRestoresTemplateAndCarriesAnnotations() {
    StatefulSet set = newStatefulSet(1).withStatus(new io.fleetkit.api.apps.StatefulSetStatus(0, 0, 0, 0, 0, 0, "",
        "", 0));
    io.fleetkit.api.apps.ControllerRevision revision = StatefulSetRevisions.newRevision(set, 1,
        set.status().collisionCount());
    StatefulSet changed = set.withSpec(new io.fleetkit.api.apps.StatefulSetSpec(1, set.spec().selector(),
        new io.fleetkit.api.core.PodTemplateSpec(set.spec().template().metadata(),
            set.spec().template().spec().toBuilder().containers(List.of(container("foo"))).build()),
        "governingsvc", set.spec().volumeClaimTemplates(), set.spec().podManagementPolicy(),
        set.spec().updateStrategy(), 10, 0, set.spec().persistentVolumeClaimRetentionPolicy(),
        set.spec().ordinals()));
    changed = changed.withMetadata(changed.metadata().toBuilder().annotation("foo", "bar").build());

    StatefulSet restoredSet = StatefulSetRevisions.applyRevision(changed, revision);
    io.fleetkit.api.apps.ControllerRevision restoredRevision = StatefulSetRevisions.newRevision(restoredSet, 2,
        restoredSet.status().collisionCount());

    assertThat(ControllerHistory.equalRevision(revision, restoredRevision)).isTrue();
    assertThat(restoredRevision.metadata().annotations()).containsEntry("foo", "bar");
    // the change itself is a new revision
    assertThat(ControllerHistory.equalRevision(revision, StatefulSetRevisions.newRevision(changed, 2, 0))).isFalse();
  }

  @Test
  void claims_perTemplate_namedAndLabelledWithSelector() {
    StatefulSet set = newStatefulSet(3);
    List<PersistentVolumeClaim> claims = StatefulSetPods.claims(set, 2);
    assertThat(claims).hasSize(1);
    ObjectMeta m = claims.get(0).metadata();
    assertThat(m.name()).isEqualTo("datadir-foo-2");
    assertThat(m.labels()).containsEntry("foo", "bar");
    assertThat(m.ownerReferences()).isEmpty();
    assertThat(claims.get(0).requestedStorage()).isEqualTo(Quantity.parse("1"));
  }

  static Container container(String image) {
    return Container.of("nginx", image, ResourceList.EMPTY);
  }
}
