package io.fleetkit.autoscale.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.Volume;
import io.fleetkit.api.core.VolumeProjection;
import io.fleetkit.api.core.VolumeSource;
import io.fleetkit.api.meta.OwnerReference;
import io.fleetkit.api.resource.ResourceList;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Scale-up's equivalence groups ({@link BinpackingEstimator.PodGroups#of}, upstream's {@code BuildPodGroups} and
 * {@code groupPodsBySchedulingProperties}). The cases of kubernetes/autoscaler
 * {@code cluster-autoscaler/core/scaleup/equivalence/groups_test.go} at commit
 * 0e20a38557062d2b3cd6a23ec98640a9cc731826 (the last version in that repository before the core moved out of it),
 * against {@code groups.go} of the same commit: TestGroupSchedulablePodsForNode, TestEquivalenceGroupSizeLimiting and
 * TestEquivalenceGroupIgnoresDaemonSets, as data ({@link #upstreamCases}), then FleetKit's own cases. Upstream compares
 * groups as sets of pods in any order (its groups come from a map); so does {@link #upstreamCases_groupAsUpstream}.
 * Not ported: TestPodGroupClone (4 cases), the copy of a group's per-node-group scheduling state ({@code Schedulable},
 * {@code SchedulableGroups}, {@code SchedulingErrors}); FleetKit's groups are immutable and carry no such state (the
 * per-pool schedulability is a fresh array for each pool), so there is nothing to copy.
 *
 * <p>Upstream's {@code BuildTestPod(name, cpu, mem)} is {@link #testPod} (namespace {@code default}, one container
 * requesting {@code cpu} millicores and {@code mem} bytes, named {@code c} with image {@code pause}, which upstream's
 * leaves empty and FleetKit's pods require; upstream's pod names {@code p2_1} are {@code p2-1}, RFC 1123 names); its {@code GenerateOwnerReferences} is a controller
 * reference ({@link #owner}). Adapted: upstream's FlexVolume sources (driver {@code testDriver}) are not modelled, a
 * host path stands in for them, as in {@code PodSpecEquivalenceTest}; what the case checks is that two pods whose
 * non-projected volumes differ in name are apart.
 */
final class PodGroupsTest {
  /** Upstream's {@code BuildServiceTokenProjectedVolumeSource("path")}. */
  private static final VolumeSource.Projected PROJECTED_SA = new VolumeSource.Projected(
      List.of(new VolumeProjection.ServiceAccountToken("", null, "path")), null);
  /** Stands in for upstream's {@code FlexVolumeSource{Driver: "testDriver"}}. */
  private static final VolumeSource FLEX_STAND_IN = new VolumeSource.HostPath("/testDriver");

  private static Pod testPod(String name, long milliCpu, long memoryBytes) {
    return Pod.builder().name(name).namespace("default").uid(name)
        .container("c", "pause", ResourceList.ofCpuMemory(milliCpu, memoryBytes)).build();
  }

  private static OwnerReference owner(String kind, String apiVersion, String name, String uid) {
    return new OwnerReference(apiVersion, kind, name, uid, true, true);
  }

  private static OwnerReference rc(String name, String uid) {
    return owner("ReplicationController", "extensions/v1beta1", name, uid);
  }

  private static Pod owned(Pod p, OwnerReference ref) {
    return p.toBuilder().ownerReference(ref).build();
  }

  private static Pod withVolume(Pod p, String name, VolumeSource source) {
    return p.toBuilder().volume(new Volume(name, source)).build();
  }

  /** The groups as sets of pod names. */
  private static List<Set<String>> groups(List<Pod> pods) {
    return BinpackingEstimator.PodGroups.of(pods).pods().stream()
        .map(g -> g.stream().map(p -> p.metadata().name()).collect(Collectors.toSet()))
        .toList();
  }

  /** Name, pods, wanted groups (each a set of pod names). */
  static Stream<Arguments> upstreamCases() {
    return Stream.of(
        Arguments.of("TestGroupSchedulablePodsForNode", groupSchedulablePodsForNode(), List.of(
            Set.of("p1"), Set.of("p2-1", "p2-2"), Set.of("p3-1", "p3-2"), Set.of("p4-1", "p4-2"), Set.of("p5-1"),
            Set.of("p5-2"))),
        Arguments.of("TestEquivalenceGroupSizeLimiting", sizeLimiting(), sizeLimitingWanted()),
        Arguments.of("TestEquivalenceGroupIgnoresDaemonSets", ignoresDaemonSets(), List.of(Set.of("p1"),
            Set.of("p2"))));
  }

  /** Upstream's pods p1 (no controller), p2_x (rc1), p3_x (rc2), p4_x (rc3), p5_x (rc4). */
  private static List<Pod> groupSchedulablePodsForNode() {
    OwnerReference rc1 = rc("rc1", "12345678-1234-1234-1234-123456789012");
    OwnerReference rc2 = rc("rc2", "12345678-1234-1234-1234-12345678901a");
    OwnerReference rc3 = rc("rc3", "12345678-1234-1234-1234-12345678901e");
    OwnerReference rc4 = rc("rc4", "12345678-1234-1234-1234-12345678901f");
    Pod p1 = testPod("p1", 1500, 200000);
    Pod p21 = owned(testPod("p2-1", 3000, 200000), rc1);
    Pod p22 = owned(testPod("p2-2", 3000, 200000), rc1);
    Pod p31 = owned(testPod("p3-1", 100, 200000), rc2);
    Pod p32 = owned(testPod("p3-2", 100, 200000), rc2);
    // two pods with projected volume sources are in the same group
    Pod p41 = withVolume(owned(testPod("p4-1", 100, 200000), rc3), "kube-api-access-nz94b", PROJECTED_SA);
    Pod p42 = withVolume(owned(testPod("p4-2", 100, 200000), rc3), "kube-api-access-mo25i", PROJECTED_SA);
    // two pods with other volume sources (upstream: flex volumes) differently named are in different groups
    Pod p51 = owned(withVolume(testPod("p5-1", 100, 200000), "volume-nz94b", FLEX_STAND_IN), rc4);
    Pod p52 = owned(withVolume(testPod("p5-2", 100, 200000), "volume-mo25i", FLEX_STAND_IN), rc4);
    return List.of(p1, p21, p22, p31, p32, p41, p42, p51, p52);
  }

  /**
   * Upstream's 11 pods of one controller, {@code uniqueLabel} l0 to l10: all different, so 11 groups of one
   * (upstream's branch giving later pods label l10 is never taken: its loop stops at index 10).
   */
  private static List<Pod> sizeLimiting() {
    OwnerReference rc = rc("rc", "12345678-1234-1234-1234-123456789012");
    List<Pod> pods = new ArrayList<>();
    for (int i = 0; i < SimilarPods.MAX_PER_CONTROLLER + 1; i++) {
      String label = "l" + Math.min(i, SimilarPods.MAX_PER_CONTROLLER);
      pods.add(owned(testPod("p" + i, 3000, 200000), rc).toBuilder().label("uniqueLabel", label).build());
    }
    return pods;
  }

  private static List<Set<String>> sizeLimitingWanted() {
    List<Set<String>> out = new ArrayList<>();
    for (int i = 0; i < SimilarPods.MAX_PER_CONTROLLER + 1; i++) {
      out.add(Set.of("p" + i));
    }
    return out;
  }

  /** Two equal pods of one DaemonSet. */
  private static List<Pod> ignoresDaemonSets() {
    OwnerReference ds = owner("DaemonSet", "apps/v1", "ds", "12345678-1234-1234-1234-123456789012");
    return List.of(owned(testPod("p1", 3000, 200000), ds), owned(testPod("p2", 3000, 200000), ds));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("upstreamCases")
  void upstreamCases_groupAsUpstream(String name, List<Pod> pods, List<Set<String>> wanted) {
    List<Set<String>> got = groups(pods);
    // upstream: the number of groups, every group one of the wanted ones, every wanted one found
    assertThat(got).as(name).hasSize(wanted.size());
    assertThat(got).as(name).containsExactlyInAnyOrderElementsOf(wanted);
    // TestEquivalenceGroupSizeLimiting's secondary check: each group holds one pod
    if (name.equals("TestEquivalenceGroupSizeLimiting")) {
      assertThat(got).as(name).allSatisfy(g -> assertThat(g).hasSize(1));
      assertThat(got).as(name).hasSize(pods.size());
    }
    assertThat(BinpackingEstimator.PodGroups.of(pods).size()).as(name).isEqualTo(pods.size());
  }

  // FleetKit's own cases

  /** Groups come in the order of their first pods, each group's pods in list order. */
  @Test
  void of_groupsInOrderOfFirstAppearance() {
    List<Pod> pods = groupSchedulablePodsForNode();
    List<Pod> shuffled = List.of(pods.get(8), pods.get(2), pods.get(0), pods.get(1), pods.get(6), pods.get(7),
        pods.get(5));
    assertThat(BinpackingEstimator.PodGroups.of(shuffled).pods())
        .extracting(g -> g.stream().map(p -> p.metadata().name()).toList())
        .containsExactly(List.of("p5-2"), List.of("p2-2", "p2-1"), List.of("p1"), List.of("p4-2", "p4-1"),
            List.of("p5-1"));
  }

  /**
   * What upstream's cap does, which its size-limiting case does not reach: once a controller has 10 groups, each pod of
   * a new variant is a group of its own, even pods equal to one another, while pods of the 10 first variants still
   * join their groups.
   */
  @Test
  void of_pastTenVariantsOfAController_eachNewPodIsAlone() {
    OwnerReference rc = rc("rc", "rc-uid");
    List<Pod> pods = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      pods.add(owned(testPod("v" + i, 100, 1000), rc).toBuilder().label("variant", "v" + i).build());
    }
    pods.add(owned(testPod("late-a", 100, 1000), rc).toBuilder().label("variant", "late").build());
    pods.add(owned(testPod("late-b", 100, 1000), rc).toBuilder().label("variant", "late").build());
    pods.add(owned(testPod("v3-again", 100, 1000), rc).toBuilder().label("variant", "v3").build());
    List<Set<String>> got = groups(pods);
    assertThat(got).hasSize(12);
    assertThat(got).contains(Set.of("late-a"), Set.of("late-b"), Set.of("v3", "v3-again"));
    // another controller's pods are not affected by this one's cap
    OwnerReference other = rc("other", "other-uid");
    pods.add(owned(testPod("o1", 100, 1000), other).toBuilder().label("variant", "late").build());
    pods.add(owned(testPod("o2", 100, 1000), other).toBuilder().label("variant", "late").build());
    assertThat(groups(pods)).contains(Set.of("o1", "o2"));
  }

  /**
   * Upstream's {@code IsDaemonSetPod} also counts a pod annotated {@code cluster-autoscaler.kubernetes.io/daemonset-pod:
   * "true"}: such a pod is alone even where an equal pod of its controller has a group; pods without a controller are
   * alone however equal.
   */
  @Test
  void of_annotatedDaemonPodsAndPodsWithoutController_areAlone() {
    OwnerReference rs = owner("ReplicaSet", "apps/v1", "rs", "rs-uid");
    Pod a = owned(testPod("a", 100, 1000), rs);
    Pod b = owned(testPod("b", 100, 1000), rs);
    Pod daemonLike = owned(testPod("c", 100, 1000), rs).toBuilder()
        .annotation(TemplateNodes.DAEMON_SET_POD_ANNOTATION, "true").build();
    Pod notDaemon = owned(testPod("d", 100, 1000), rs).toBuilder()
        .annotation(TemplateNodes.DAEMON_SET_POD_ANNOTATION, "false").build();
    Pod bare1 = testPod("e", 100, 1000);
    Pod bare2 = testPod("f", 100, 1000);
    assertThat(groups(List.of(a, daemonLike, b, notDaemon, bare1, bare2)))
        .containsExactly(Set.of("a", "b", "d"), Set.of("c"), Set.of("e"), Set.of("f"));
  }

  /** A StatefulSet's pods differ in hostname (dropped) but also in their pod-name label (kept): one group each. */
  @Test
  void of_podsWithTheirOwnLabels_areApart_evenWithSemanticallyEqualSpecs() {
    OwnerReference sts = owner("StatefulSet", "apps/v1", "db", "sts-uid");
    List<Pod> pods = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      Pod p = owned(testPod("db-" + i, 100, 1000), sts);
      pods.add(p.toBuilder().label("statefulset.kubernetes.io/pod-name", "db-" + i)
          .spec(p.spec().toBuilder().hostname("db-" + i).build()).build());
    }
    assertThat(groups(pods)).containsExactly(Set.of("db-0"), Set.of("db-1"), Set.of("db-2"));
    List<Pod> sameLabels = pods.stream().map(p -> p.toBuilder().labels(Map.of("app", "db")).build())
        .toList();
    assertThat(groups(sameLabels)).containsExactly(Set.of("db-0", "db-1", "db-2"));
  }

  @Test
  void of_noPods_noGroups() {
    assertThat(BinpackingEstimator.PodGroups.of(List.of()).pods()).isEmpty();
    assertThat(BinpackingEstimator.PodGroups.of(List.of()).size()).isZero();
  }

  @Test
  void only_keepsTheMarkedGroupsInOrder_countsTheirPods() {
    Pod a0 = owned(testPod("a-0", 100, 1000), rc("rc-a", "uid-a"));
    Pod a1 = owned(testPod("a-1", 100, 1000), rc("rc-a", "uid-a"));
    Pod b = testPod("b", 200, 1000);
    Pod c = testPod("c", 300, 1000);
    BinpackingEstimator.PodGroups all = BinpackingEstimator.PodGroups.of(List.of(a0, b, a1, c));

    BinpackingEstimator.PodGroups kept = all.only(new boolean[] {true, false, true});

    assertThat(kept.pods()).containsExactly(List.of(a0, a1), List.of(c));
    assertThat(kept.size()).isEqualTo(3);
    assertThat(all.pods()).as("the groups it was made from stay as they were").hasSize(3);
    assertThat(all.only(new boolean[3]).size()).isZero();
    assertThat(all.only(new boolean[] {true, true, true})).isSameAs(all);
  }

  @Test
  void only_wrongLength_throwsNamingTheRule() {
    BinpackingEstimator.PodGroups all = BinpackingEstimator.PodGroups.of(List.of(testPod("x", 100, 1000)));
    assertThatThrownBy(() -> all.only(new boolean[2])).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("keep: 2 entries for 1 pod groups, must be one per group");
  }
}
