package io.fleetkit.reconcile.controllers.internal;

import static io.fleetkit.api.apps.PersistentVolumeClaimRetentionPolicyType.Delete;
import static io.fleetkit.api.apps.PersistentVolumeClaimRetentionPolicyType.Retain;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.apps.PersistentVolumeClaimRetentionPolicyType;
import io.fleetkit.api.apps.StatefulSet;
import io.fleetkit.api.apps.StatefulSetPersistentVolumeClaimRetentionPolicy;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.meta.OwnerReference;
import io.fleetkit.api.resource.ResourceList;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The claim ownership rules of the retention policy, ported from kubernetes
 * {@code pkg/controller/statefulset/stateful_set_utils_test.go}, the version with TestClaimOwnerUpToDateEdgeCases,
 * TestUpdateClaimControllerRef and TestHasStaleOwnerRef (read through the code index; its commit was not recorded
 * there): TestGetPersistentVolumeClaimRetentionPolicy, TestMatchesRef, TestIsClaimOwnerUpToDate,
 * TestClaimOwnerUpToDateEdgeCases, TestUpdateClaimOwnerRefForSetAndPod, TestUpdateClaimControllerRef, TestHasOwnerRef,
 * TestHasUnexpectedController, TestNonController, TestHasStaleOwnerRef. Upstream's {@code Controller: nil} and
 * {@code ptr.To(false)} are both {@code controller=false} here.
 */
final class StatefulSetClaimOwnershipTest {
  private static final PodSpec SPEC = PodSpec.builder().container("nginx", "nginx", ResourceList.EMPTY).build();

  private static StatefulSet set(String name, String uid, int replicas, PersistentVolumeClaimRetentionPolicyType
      whenScaled, PersistentVolumeClaimRetentionPolicyType whenDeleted) {
    return StatefulSet.builder().metadata(ObjectMeta.builder().namespace("default").name(name).uid(uid).build())
        .replicas(replicas).matchLabels(Map.of("foo", "bar")).podSpec(SPEC)
        .persistentVolumeClaimRetentionPolicy(whenDeleted, whenScaled).build();
  }

  private static Pod pod(String name, String uid) {
    return Pod.builder().namespace("default").name(name).uid(uid).spec(SPEC).build();
  }

  private static OwnerReference ref(String apiVersion, String kind, String name, String uid, boolean controller) {
    return new OwnerReference(apiVersion, kind, name, uid, controller, false);
  }

  @Test
  void getPersistentVolumeClaimRetentionPolicy_retainAndScaleDown_asSet() {
    StatefulSet retain = set("foo", "u", 1, Retain, Retain);
    assertThat(StatefulSetClaimOwnership.policy(retain).whenScaled()).isEqualTo(Retain);
    assertThat(StatefulSetClaimOwnership.policy(retain).whenDeleted()).isEqualTo(Retain);
    StatefulSet scaledown = set("foo", "u", 1, Delete, Retain);
    assertThat(StatefulSetClaimOwnership.policy(scaledown).whenScaled()).isEqualTo(Delete);
    assertThat(StatefulSetClaimOwnership.policy(scaledown).whenDeleted()).isEqualTo(Retain);
  }

  @Test
  void matchesRef_upstreamCases() {
    // full match; match without UID; mismatch name; wrong schema
    assertThat(StatefulSetClaimOwnership.matchesRef(ref("v1", "Pod", "fred", "abc", false), pod("fred", "abc")))
        .isTrue();
    assertThat(StatefulSetClaimOwnership.matchesRef(ref("v1", "Pod", "fred", "abc", false),
        pod("fred", "not-matching"))).isTrue();
    assertThat(StatefulSetClaimOwnership.matchesRef(ref("v1", "Pod", "fred", "abc", false), pod("joan", "abc")))
        .isFalse();
    assertThat(StatefulSetClaimOwnership.matchesRef(ref("beta2", "Pod", "fred", "abc", false), pod("fred", "abc")))
        .isFalse();
  }

  /** A case of TestIsClaimOwnerUpToDate: policies, the refs the claim needs, replicas and the pod's ordinal. */
  private record UpToDateCase(String name, PersistentVolumeClaimRetentionPolicyType scaleDown,
      PersistentVolumeClaimRetentionPolicyType setDelete, boolean needsPodRef, boolean needsSetRef, int replicas,
      int ordinal) {}

  @Test
  void isClaimOwnerUpToDate_upstreamCases_everyCombinationOfRefs() {
    List<UpToDateCase> cases = List.of(
        new UpToDateCase("retain", Retain, Retain, false, false, 0, 0),
        new UpToDateCase("on SS delete", Retain, Delete, false, true, 0, 0),
        new UpToDateCase("on scaledown only, condemned", Delete, Retain, true, false, 2, 2),
        new UpToDateCase("on scaledown only, remains", Delete, Retain, false, false, 2, 1),
        new UpToDateCase("on both, condemned", Delete, Delete, true, false, 2, 2),
        new UpToDateCase("on both, remains", Delete, Delete, false, true, 2, 1));
    int checked = 0;
    for (UpToDateCase tc : cases) {
      for (boolean useOtherRefs : List.of(false, true)) {
        for (boolean setPodRef : List.of(false, true)) {
          for (boolean setSetRef : List.of(false, true)) {
            Pod pod = pod("pod-" + tc.ordinal(), "pod-123");
            StatefulSet set = set("stateful-set", "ss-456", tc.replicas(), tc.scaleDown(), tc.setDelete());
            List<OwnerReference> refs = new ArrayList<>();
            if (setPodRef) {
              refs = StatefulSetClaimOwnership.addControllerRef(refs, pod);
            }
            if (setSetRef) {
              refs = StatefulSetClaimOwnership.addControllerRef(refs, set);
            }
            if (useOtherRefs) {
              refs = new ArrayList<>(refs);
              refs.add(ref("v1", "Pod", "rand1", "rand1-uid", false));
              refs.add(ref("v1", "Pod", "rand2", "rand2-uid", false));
            }
            boolean shouldMatch = setPodRef == tc.needsPodRef() && setSetRef == tc.needsSetRef();
            assertThat(StatefulSetClaimOwnership.isClaimOwnerUpToDate(refs, set, pod))
                .as("%s with pod=%s,set=%s,others=%s", tc.name(), setPodRef, setSetRef, useOtherRefs)
                .isEqualTo(shouldMatch);
            checked++;
          }
        }
      }
    }
    assertThat(checked).isEqualTo(48);
  }

  @Test
  void claimOwnerUpToDate_edgeCases() {
    StatefulSetPersistentVolumeClaimRetentionPolicy deleteBoth = StatefulSetPersistentVolumeClaimRetentionPolicy.of(
        Delete, Delete);
    StatefulSetPersistentVolumeClaimRetentionPolicy setDeleteOnly =
        StatefulSetPersistentVolumeClaimRetentionPolicy.of(Delete, Retain);
    record EdgeCase(String name, List<OwnerReference> refs, StatefulSetPersistentVolumeClaimRetentionPolicy policy,
        boolean shouldMatch) {}
    List<EdgeCase> cases = List.of(
        new EdgeCase("normal controller, pod", List.of(ref("v1", "Pod", "pod-1", "pod-123", true)), deleteBoth, true),
        new EdgeCase("non-controller causes policy mismatch, pod",
            List.of(ref("v1", "Pod", "pod-1", "pod-123", false)), deleteBoth, false),
        new EdgeCase("stale controller does not affect policy, pod",
            List.of(ref("v1", "Pod", "pod-1", "pod-stale", true)), deleteBoth, true),
        new EdgeCase("unexpected controller causes policy mismatch, pod",
            List.of(ref("v1", "Pod", "pod-1", "pod-123", true), ref("v1", "Pod", "Random", "random", true)),
            deleteBoth, false),
        new EdgeCase("normal controller, set",
            List.of(ref("apps/v1", "StatefulSet", "stateful-set", "ss-456", true)), setDeleteOnly, true),
        new EdgeCase("non-controller causes policy mismatch, set",
            List.of(ref("appsv1", "StatefulSet", "stateful-set", "ss-456", false)), setDeleteOnly, false),
        new EdgeCase("stale controller ignored, set",
            List.of(ref("apps/v1", "StatefulSet", "stateful-set", "set-stale", true)), setDeleteOnly, true),
        new EdgeCase("unexpected controller causes policy mismatch, set",
            List.of(ref("apps/v1", "StatefulSet", "stateful-set", "ss-456", true),
                ref("apps/v1", "StatefulSet", "Random", "random", true)), setDeleteOnly, false));
    for (EdgeCase tc : cases) {
      Pod pod = pod("pod-1", "pod-123");
      StatefulSet set = set("stateful-set", "ss-456", 1, tc.policy().whenScaled(), tc.policy().whenDeleted());
      assertThat(StatefulSetClaimOwnership.isClaimOwnerUpToDate(tc.refs(), set, pod)).as(tc.name())
          .isEqualTo(tc.shouldMatch());
    }
  }

  /** A case of TestUpdateClaimOwnerRefForSetAndPod. */
  private record UpdateCase(String name, PersistentVolumeClaimRetentionPolicyType scaleDown,
      PersistentVolumeClaimRetentionPolicyType setDelete, boolean condemned, boolean needsPodRef,
      boolean needsSetRef, boolean unexpectedController) {}

  @Test
  void updateClaimOwnerRefForSetAndPod_upstreamCases_eightVariations() {
    List<UpdateCase> cases = List.of(
        new UpdateCase("retain", Retain, Retain, false, false, false, false),
        new UpdateCase("delete with set", Retain, Delete, false, false, true, false),
        new UpdateCase("delete with scaledown, not condemned", Delete, Retain, false, false, false, false),
        new UpdateCase("delete on scaledown, condemned", Delete, Retain, true, true, false, false),
        new UpdateCase("delete on both, not condemned", Delete, Delete, false, false, true, false),
        new UpdateCase("delete on both, condemned", Delete, Delete, true, true, false, false),
        new UpdateCase("unexpected controller", Delete, Delete, true, false, false, true));
    for (UpdateCase tc : cases) {
      for (int variations = 0; variations < 8; variations++) {
        boolean hasPodRef = (variations & 1) != 0;
        boolean hasSetRef = (variations & 2) != 0;
        boolean extraOwner = (variations & 3) != 0; // as upstream writes it
        StatefulSet set = set("ss", "ss-123", 5, tc.scaleDown(), tc.setDelete());
        Pod pod = pod(tc.condemned() ? "pod-8" : "pod-1", "pod-456");
        List<OwnerReference> refs = new ArrayList<>();
        if (hasPodRef) {
          refs = StatefulSetClaimOwnership.addControllerRef(refs, pod);
        }
        if (hasSetRef) {
          refs = StatefulSetClaimOwnership.addControllerRef(refs, set);
        }
        refs = new ArrayList<>(refs);
        if (extraOwner) {
          refs.add(ref("custom/v1", "random", "random", "abc", false)); // must not affect our references
        }
        if (tc.unexpectedController()) {
          refs.add(ref("custom/v1", "Unknown", "unknown", "xyz", true));
        }
        List<OwnerReference> updated = StatefulSetClaimOwnership.updateClaimOwnerRefForSetAndPod(refs, set, pod);
        // the specified owner is the only one of ours left, as a controller
        assertThat(isControllerRef(updated, "pod-456")).as("pod ref for %s hasPodRef=%s hasSetRef=%s", tc.name(),
            hasPodRef, hasSetRef).isEqualTo(tc.needsPodRef());
        assertThat(isControllerRef(updated, "ss-123")).as("set ref for %s hasPodRef=%s hasSetRef=%s", tc.name(),
            hasPodRef, hasSetRef).isEqualTo(tc.needsSetRef());
        if (extraOwner) {
          assertThat(updated).as("the extra owner is kept").contains(ref("custom/v1", "random", "random", "abc",
              false));
        }
      }
    }
  }

  private static boolean isControllerRef(List<OwnerReference> refs, String uid) {
    for (OwnerReference r : refs) {
      if (r.uid().equals(uid)) {
        return r.controller();
      }
    }
    return false;
  }

  @Test
  void updateClaimControllerRef_upstreamCases() {
    StatefulSet set = set("sts", "123", 1, Delete, Delete);
    Pod pod = pod("pod-0", "456");
    OwnerReference stsController = ref("apps/v1", "StatefulSet", "sts", "123", true);
    OwnerReference someoneElse = ref("someone", "Else", "foo", "", false);
    // set correctly
    assertSameRefs(StatefulSetClaimOwnership.updateClaimOwnerRefForSetAndPod(List.of(stsController, someoneElse),
        set, pod), List.of(stsController, someoneElse));
    // missing controller
    assertSameRefs(StatefulSetClaimOwnership.updateClaimOwnerRefForSetAndPod(
        List.of(ref("apps/v1", "StatefulSet", "sts", "123", false)), set, pod), List.of(stsController));
    // matching name but missing
    OwnerReference sameName = ref("someone", "else", "sts", "456", false);
    assertSameRefs(StatefulSetClaimOwnership.updateClaimOwnerRefForSetAndPod(List.of(sameName), set, pod),
        List.of(sameName, stsController));
    // not present
    assertSameRefs(StatefulSetClaimOwnership.updateClaimOwnerRefForSetAndPod(List.of(), set, pod),
        List.of(stsController));
    // controller, but no UID: an unexpected stale reference, removed and nothing added
    assertSameRefs(StatefulSetClaimOwnership.updateClaimOwnerRefForSetAndPod(
        List.of(ref("apps/v1", "StatefulSet", "sts", "", true)), set, pod), List.of());
    // neither controller nor UID: the same
    assertSameRefs(StatefulSetClaimOwnership.updateClaimOwnerRefForSetAndPod(
        List.of(ref("apps/v1", "StatefulSet", "sts", "", false)), set, pod), List.of());
  }

  /** Upstream's {@code ownerRefsChanged}: the same references by apiVersion, kind and name, in any order. */
  private static void assertSameRefs(List<OwnerReference> got, List<OwnerReference> want) {
    assertThat(keys(got)).as("%s vs %s", got, want).isEqualTo(keys(want));
    assertThat(got).hasSameSizeAs(want);
  }

  private static Set<String> keys(List<OwnerReference> refs) {
    Set<String> out = new HashSet<>();
    for (OwnerReference r : refs) {
      out.add(r.apiVersion() + "-" + r.kind() + "-" + r.name());
    }
    return out;
  }

  @Test
  void hasOwnerRef_byUidControllerOrNot() {
    List<OwnerReference> refs = List.of(ref("", "", "", "123", true), ref("", "", "", "456", false),
        ref("", "", "", "789", false));
    assertThat(StatefulSetClaimOwnership.hasOwnerRef(refs, "123")).isTrue();
    assertThat(StatefulSetClaimOwnership.hasOwnerRef(refs, "456")).isTrue();
    assertThat(StatefulSetClaimOwnership.hasOwnerRef(refs, "789")).isTrue();
    assertThat(StatefulSetClaimOwnership.hasOwnerRef(refs, "012")).isFalse();
  }

  @Test
  void hasUnexpectedController_upstreamCases_underEachDeletePolicy_neverUnderRetain() {
    record Case(String name, List<OwnerReference> refs, boolean unexpected) {}
    List<Case> cases = List.of(
        new Case("custom controller", List.of(ref("chipmunks/v1", "CustomController", "simon", "other-uid", true)),
            true),
        new Case("custom non-controller",
            List.of(ref("chipmunks/v1", "CustomController", "simon", "other-uid", false)), false),
        new Case("custom unspecified controller",
            List.of(ref("chipmunks/v1", "CustomController", "simon", "other-uid", false)), false),
        new Case("other pod controller", List.of(ref("v1", "Pod", "simon", "other-uid", true)), true),
        new Case("other set controller", List.of(ref("apps/v1", "Set", "simon", "other-uid", true)), true),
        new Case("own set controller", List.of(ref("apps/v1", "StatefulSet", "set", "set-uid", true)), false),
        new Case("own set controller, stale uid", List.of(ref("apps/v1", "StatefulSet", "set", "stale-uid", true)),
            true),
        new Case("own pod controller", List.of(ref("v1", "Pod", "pod", "pod-uid", true)), false),
        new Case("own pod controller, stale uid", List.of(ref("v1", "Pod", "pod", "stale-uid", true)), true),
        new Case("own controller and another", List.of(ref("v1", "Pod", "pod", "pod-uid", true),
            ref("chipmunks/v1", "CustomController", "simon", "other-uid", true)), true),
        new Case("own controller and a non-controller", List.of(ref("v1", "Pod", "pod", "pod-uid", true),
            ref("chipmunks/v1", "CustomController", "simon", "other-uid", false)), false));
    Pod pod = pod("pod", "pod-uid");
    for (Case tc : cases) {
      assertThat(StatefulSetClaimOwnership.hasUnexpectedController(tc.refs(), set("set", "set-uid", 1, Retain,
          Retain), pod)).as("any controller is allowed under Retain: %s", tc.name()).isFalse();
      for (StatefulSet set : List.of(set("set", "set-uid", 1, Delete, Retain), set("set", "set-uid", 1, Retain,
          Delete), set("set", "set-uid", 1, Delete, Delete))) {
        assertThat(StatefulSetClaimOwnership.hasUnexpectedController(tc.refs(), set, pod))
            .as("%s (policy %s)", tc.name(), set.spec().persistentVolumeClaimRetentionPolicy())
            .isEqualTo(tc.unexpected());
      }
    }
  }

  @Test
  void nonController_upstreamCases() {
    record Case(String name, List<OwnerReference> refs, boolean nonController) {}
    OwnerReference podController = ref("v1", "Pod", "pod", "pod", true);
    OwnerReference podOwner = ref("v1", "Pod", "pod", "pod", false);
    OwnerReference setController = ref("apps/v1", "Set", "set", "set", true);
    OwnerReference setOwner = ref("apps/v1", "Set", "set", "set", false);
    List<Case> cases = List.of(
        new Case("set and pod controller", List.of(podController, setController), false),
        new Case("set controller, pod noncontroller", List.of(podOwner, setController), true),
        new Case("set noncontroller, pod controller", List.of(podController, setOwner), true),
        new Case("set controller", List.of(setController), false),
        new Case("pod controller", List.of(podController), false),
        new Case("nothing", List.of(), false),
        new Case("set noncontroller", List.of(setOwner), true),
        new Case("set noncontroller with ptr", List.of(setOwner), true),
        new Case("pod noncontroller", List.of(ref("v1", "pod", "pod", "pod", false)), true),
        new Case("other noncontroller", List.of(ref("v1", "pod", "pod", "not-matching", false)), false));
    StatefulSet set = set("set", "set", 1, Retain, Retain);
    Pod pod = pod("pod", "pod");
    for (Case tc : cases) {
      assertThat(StatefulSetClaimOwnership.hasNonControllerOwner(tc.refs(), set, pod)).as(tc.name())
          .isEqualTo(tc.nonController());
    }
  }

  @Test
  void hasStaleOwnerRef_sameNameOtherUid_stale() {
    List<OwnerReference> refs = List.of(ref("v1", "Pod", "bob", "123", false),
        ref("v1", "Pod", "shirley", "456", false));
    assertThat(StatefulSetClaimOwnership.hasStaleOwnerRef(refs, pod("bob", "123"))).as("ownerA").isFalse();
    assertThat(StatefulSetClaimOwnership.hasStaleOwnerRef(refs, pod("shirley", "789"))).as("ownerB").isTrue();
    assertThat(StatefulSetClaimOwnership.hasStaleOwnerRef(refs, pod("yvonne", "345"))).as("ownerC").isFalse();
  }

  @Test
  void podInOrdinalRange_startOrdinal_rangeIsStartToStartPlusReplicas() {
    StatefulSet set = StatefulSet.builder().name("foo").replicas(3).startOrdinal(2).matchLabels(Map.of("a", "b"))
        .podSpec(SPEC).build();
    assertThat(StatefulSetClaimOwnership.podInOrdinalRange(pod("foo-1", "u"), set)).isFalse();
    assertThat(StatefulSetClaimOwnership.podInOrdinalRange(pod("foo-2", "u"), set)).isTrue();
    assertThat(StatefulSetClaimOwnership.podInOrdinalRange(pod("foo-4", "u"), set)).isTrue();
    assertThat(StatefulSetClaimOwnership.podInOrdinalRange(pod("foo-5", "u"), set)).isFalse();
    assertThat(StatefulSetClaimOwnership.podInOrdinalRange(pod("foo", "u"), set)).as("no ordinal").isFalse();
  }
}
