package io.fleetkit.autoscale.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodPhase;
import io.fleetkit.api.core.Volume;
import io.fleetkit.api.core.VolumeSource;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.meta.IntOrPercent;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.meta.OwnerReference;
import io.fleetkit.api.policy.PodDisruptionBudget;
import io.fleetkit.api.policy.PodDisruptionBudgetSpec;
import io.fleetkit.api.policy.PodDisruptionBudgetStatus;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.autoscale.cluster.Drainability.Outcome;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

final class DrainabilityTest {
  private static final OwnerReference RC = new OwnerReference("v1", "ReplicationController", "rc", "rc-uid", true,
      true);
  private static final OwnerReference DS = new OwnerReference("apps/v1", "DaemonSet", "ds", "ds-uid", true, true);
  /** Upstream's {@code testTime}: the time the rules are taken at. */
  private static final Instant TEST_TIME = Instant.parse("2020-12-18T17:00:00Z");

  private static Drainability rules(List<PodDisruptionBudget> pdbs) {
    return Drainability.withBudgets(pdbs, TEST_TIME);
  }

  private static Pod.Builder pod() {
    return Pod.builder().name("bar").namespace("default").nodeName("node")
        .container("c", "pause", ResourceList.ofCpuMemory(100, 1 << 20));
  }

  private static Volume emptyDir(String name) {
    return Volume.emptyDir(name);
  }

  record Case(String desc, Pod pod, String wantReason) {
    @Override
    public String toString() {
      return desc;
    }
  }

  /**
   * Ported from kubernetes/autoscaler cluster-autoscaler/simulator/drainability/rules/localstorage/rule_test.go,
   * TestDrain (14 cases), evaluated through the whole rule chain: the upstream rule test feeds one rule, so its pods
   * without a controller that it expects to pass (failed, terminal, evicted, safe-to-evict, long-terminating) are
   * ones earlier rules of the chain let through before the replicated rule would block them.
   */
  static List<Case> localStorageCases() {
    String key = Drainability.SAFE_TO_EVICT_LOCAL_VOLUMES;
    String ls = Drainability.LOCAL_STORAGE_REQUESTED;
    return List.of(
        new Case("pod with EmptyDir", pod().ownerReference(RC).volume(emptyDir("scratch")).build(), ls),
        new Case("pod with EmptyDir and SafeToEvictLocalVolumesKey annotation",
            pod().ownerReference(RC).annotation(key, "scratch").volume(emptyDir("scratch")).build(), ""),
        new Case("pod with EmptyDir and empty value for SafeToEvictLocalVolumesKey annotation",
            pod().ownerReference(RC).annotation(key, "").volume(emptyDir("scratch")).build(), ls),
        new Case("pod with EmptyDir and non-matching value for SafeToEvictLocalVolumesKey annotation",
            pod().ownerReference(RC).annotation(key, "scratch-2").volume(emptyDir("scratch-1")).build(), ls),
        new Case("pod with EmptyDir and SafeToEvictLocalVolumesKey annotation with matching values",
            three(pod().ownerReference(RC).annotation(key, "scratch-1,scratch-2,scratch-3")), ""),
        new Case("pod with EmptyDir and SafeToEvictLocalVolumesKey annotation with non-matching values",
            three(pod().ownerReference(RC).annotation(key, "scratch-1,scratch-2,scratch-5")), ls),
        new Case("pod with EmptyDir and SafeToEvictLocalVolumesKey annotation with some matching values",
            three(pod().ownerReference(RC).annotation(key, "scratch-1,scratch-2")), ls),
        new Case("pod with EmptyDir and SafeToEvictLocalVolumesKey annotation empty values",
            three(pod().ownerReference(RC).annotation(key, ",")), ls),
        new Case("EmptyDir failed pod", pod().volume(emptyDir("scratch")).phase(PodPhase.Failed).build(), ""),
        new Case("EmptyDir terminal pod", pod().volume(emptyDir("scratch")).phase(PodPhase.Succeeded).build(), ""),
        new Case("EmptyDir evicted pod", pod().volume(emptyDir("scratch")).phase(PodPhase.Failed).build(), ""),
        new Case("EmptyDir pod with PodSafeToEvict annotation",
            pod().annotation(Drainability.SAFE_TO_EVICT, "true").build(), ""),
        new Case("EmptyDir long terminating pod with 0 grace period",
            terminating(0, TEST_TIME.minus(TerminatingPods.EXTRA_THRESHOLD.multipliedBy(2))), ""),
        new Case("EmptyDir long terminating pod with extended grace period",
            terminating(6 * 60, TEST_TIME.minusSeconds(2 * 6 * 60)), ""));
  }

  private static Pod three(Pod.Builder b) {
    return b.volume(emptyDir("scratch-1")).volume(emptyDir("scratch-2")).volume(emptyDir("scratch-3")).build();
  }

  /** Upstream's emptyDir pods deleted at {@code deleted} with a grace period of {@code grace} seconds. */
  private static Pod terminating(long grace, Instant deleted) {
    Pod p = pod().volume(emptyDir("scratch")).restartPolicy(io.fleetkit.api.core.RestartPolicy.OnFailure)
        .terminationGracePeriodSeconds(grace).phase(PodPhase.Unknown).build();
    return p.withMetadata(p.metadata().toBuilder().deletionTimestamp(deleted).build());
  }

  @ParameterizedTest
  @MethodSource("localStorageCases")
  void check_upstreamLocalStorageCases_blockOnlyUnlistedLocalVolumes(Case c) {
    Drainability.Decision d = rules(List.of()).check(c.pod());
    assertThat(d.reason()).isEqualTo(c.wantReason());
    assertThat(d.outcome() == Outcome.BLOCK).isEqualTo(!c.wantReason().isEmpty());
  }

  /** The other rules of rules.go, one case each. */
  static List<Case> ruleCases() {
    return List.of(
        new Case("no controller blocks (replicated)", pod().build(), Drainability.NOT_REPLICATED),
        new Case("kube-system pod without a PDB blocks (system)",
            pod().namespace("kube-system").ownerReference(RC).build(), Drainability.UNMOVABLE_KUBE_SYSTEM_POD),
        new Case("safe-to-evict=false blocks (notsafetoevict)",
            pod().ownerReference(RC).annotation(Drainability.SAFE_TO_EVICT, "false").build(),
            Drainability.NOT_SAFE_TO_EVICT),
        new Case("hostPath blocks (localstorage)",
            pod().ownerReference(RC).volume(new Volume("h", new VolumeSource.HostPath("/data"))).build(),
            Drainability.LOCAL_STORAGE_REQUESTED),
        new Case("memory emptyDir is not local storage",
            pod().ownerReference(RC).volume(new Volume("m", new VolumeSource.EmptyDir("Memory", null))).build(), ""),
        new Case("safe-to-evict=true lets a bare pod with local storage go",
            pod().annotation(Drainability.SAFE_TO_EVICT, "true").volume(emptyDir("s")).build(), ""),
        new Case("DaemonSet pod is skipped", pod().ownerReference(DS).volume(emptyDir("s")).build(), ""),
        new Case("mirror pod is skipped", pod().annotation(Drainability.MIRROR_ANNOTATION, "x").build(), ""),
        new Case("replicated pod moves", pod().ownerReference(RC).build(), ""));
  }

  @ParameterizedTest
  @MethodSource("ruleCases")
  void check_ruleChain_givesUpstreamReasons(Case c) {
    assertThat(rules(List.of()).check(c.pod()).reason()).isEqualTo(c.wantReason());
  }

  private static PodDisruptionBudget pdb(String ns, int allowed) {
    return PodDisruptionBudget.of(ObjectMeta.of(ns, "pdb"),
        PodDisruptionBudgetSpec.minAvailable(LabelSelector.of(Map.of("app", "web")), IntOrPercent.of(1)))
        .withStatus(new PodDisruptionBudgetStatus(1, Map.of(), allowed, 2, 1, 2, List.of()));
  }

  @Test
  void check_pdbWithoutDisruptionsLeft_blocks_andCoveredKubeSystemPodMoves() {
    Pod web = pod().ownerReference(RC).label("app", "web").build();
    assertThat(rules(List.of(pdb("default", 0))).check(web).reason())
        .isEqualTo(Drainability.NOT_ENOUGH_PDB);
    assertThat(rules(List.of(pdb("default", 1))).check(web).outcome()).isEqualTo(Outcome.EVICT);
    Pod sys = pod().namespace("kube-system").ownerReference(RC).label("app", "web").build();
    assertThat(rules(List.of(pdb("kube-system", 1))).check(sys).outcome())
        .isEqualTo(Outcome.EVICT);
  }

  @Test
  void drain_twoPodsUnderABudgetOfOne_blocksTheSecond_andChargeSpendsTheBudget() {
    Pod a = pod().name("a").ownerReference(RC).label("app", "web").build();
    Pod b = pod().name("b").ownerReference(RC).label("app", "web").build();
    Drainability d = rules(List.of(pdb("default", 1)));
    Drainability.NodeDrain both = d.drain(List.of(a, b));
    assertThat(both.blocked()).isTrue();
    assertThat(both.blockingPod()).isEqualTo("default/b");
    assertThat(both.reason()).isEqualTo(Drainability.NOT_ENOUGH_PDB);
    Drainability.NodeDrain one = d.drain(List.of(a));
    assertThat(one.evict()).containsExactly(a);
    d.charge(one.evict());
    assertThat(d.check(b).reason()).isEqualTo(Drainability.NOT_ENOUGH_PDB);
  }

  private static PodDisruptionBudget budget(String ns, String label) {
    // upstream's budgets carry no status: disruptionsAllowed is 0
    return PodDisruptionBudget.of(ObjectMeta.of(ns, "pdb-" + label),
        PodDisruptionBudgetSpec.minAvailable(LabelSelector.of(Map.of("label", label)), IntOrPercent.of(1)));
  }

  /**
   * Ported from kubernetes/autoscaler cluster-autoscaler/simulator/drainability/rules/pdb/rule_test.go, TestDrainable
   * (3 cases); the pods get a controller so that the chain reaches the pdb rule.
   */
  @Test
  void check_upstreamPdbRuleCases() {
    Drainability none = rules(List.of());
    // "no pdbs"
    assertThat(none.check(pod().ownerReference(RC).build()).outcome()).isEqualTo(Outcome.EVICT);
    // "no matching pdbs"
    Pod happy = pod().name("happy").namespace("good").label("label", "true").ownerReference(RC).build();
    assertThat(rules(List.of(budget("bad", "true"), budget("good", "false"))).check(happy)
        .outcome()).isEqualTo(Outcome.EVICT);
    // "pdb prevents scale-down"
    Pod sad = pod().name("sad").namespace("good").label("label", "true").ownerReference(RC).build();
    Drainability.Decision d = rules(List.of(budget("bad", "true"), budget("good", "true"),
        budget("good", "false"))).check(sad);
    assertThat(d.outcome()).isEqualTo(Outcome.BLOCK);
    assertThat(d.reason()).isEqualTo(Drainability.NOT_ENOUGH_PDB);
  }

  /** Ported from .../drainability/rules/safetoevict/rule_test.go, TestDrainable (2 cases). */
  @Test
  void check_upstreamSafeToEvictRuleCases() {
    Drainability none = rules(List.of());
    // "regular pod": undefined for this rule; with no controller the chain then blocks it
    assertThat(none.check(pod().name("pod").namespace("ns").build()).reason()).isEqualTo(Drainability.NOT_REPLICATED);
    // "safe to evict pod": drainable
    assertThat(none.check(pod().annotation(Drainability.SAFE_TO_EVICT, "true").build()))
        .isEqualTo(Drainability.Decision.EVICT);
  }
}
