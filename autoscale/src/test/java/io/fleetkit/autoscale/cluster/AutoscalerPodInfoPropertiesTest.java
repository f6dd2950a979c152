package io.fleetkit.autoscale.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodPhase;
import io.fleetkit.api.core.Volume;
import io.fleetkit.api.core.VolumeSource;
import io.fleetkit.api.framework.NodeInfos;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.framework.PodInfos;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.meta.IntOrPercent;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.meta.OwnerReference;
import io.fleetkit.api.policy.PodDisruptionBudget;
import io.fleetkit.api.policy.PodDisruptionBudgetSpec;
import io.fleetkit.api.policy.PodDisruptionBudgetStatus;
import io.fleetkit.api.scheduling.Affinity;
import io.fleetkit.api.scheduling.PodAffinity;
import io.fleetkit.api.scheduling.PodAffinityTerm;
import io.fleetkit.api.scheduling.WeightedPodAffinityTerm;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * What scale-down keeps per pod object ({@link AutoscalerPodInfo}) is what it computed in every loop: the unbound copy
 * is the view {@code PodInfos.of(pod.withNodeName(""))} would make (the same pod and numbers), the same object on
 * every call, with the pod's (anti-)affinity facts, and the drain decision from the kept rules equals {@link Drainability#check(Pod)} of the pod and of its
 * copy, with and without budgets, over random pods.
 */
final class AutoscalerPodInfoPropertiesTest {
  private static final OwnerReference DS = new OwnerReference("apps/v1", "DaemonSet", "ds", "ds-uid", true, true);

  @Property(tries = 200)
  void keptCopyAndRules_equalRecomputing(@ForAll long seed, @ForAll @IntRange(min = 0, max = 3) int allowed) {
    Random rnd = new Random(seed);
    Pod pod = randomPod(rnd);
    AutoscalerPodInfo info = AutoscalerPodInfo.of(pod);
    AutoscalerPodInfo copy = info.unbound();
    PodInfo expected = PodInfos.of(pod.withNodeName(""));
    assertThat(copy.pod()).isEqualTo(expected.pod());
    assertThat(List.of(copy.key(), copy.requests(), copy.nonZeroMilliCpu(), copy.nonZeroMemory(), copy.priority()))
        .isEqualTo(List.of(expected.key(), expected.requests(), expected.nonZeroMilliCpu(), expected.nonZeroMemory(),
            expected.priority()));
    assertThat(List.of(info.hasAffinity(), info.hasRequiredAntiAffinity(), copy.hasAffinity(),
        copy.hasRequiredAntiAffinity())).isEqualTo(List.of(NodeInfos.hasAffinity(pod),
        NodeInfos.hasRequiredAntiAffinity(pod), NodeInfos.hasAffinity(pod), NodeInfos.hasRequiredAntiAffinity(pod)));
    assertThat(info.unbound()).isSameAs(copy);
    assertThat(copy.unbound()).isSameAs(copy);
    PodDisruptionBudget pdb = PodDisruptionBudget.of(ObjectMeta.of(pod.metadata().namespace(), "web"),
        PodDisruptionBudgetSpec.minAvailable(LabelSelector.of(Map.of("app", "web")), IntOrPercent.of(1)))
        .withStatus(new PodDisruptionBudgetStatus(allowed, Map.of(), 1, 2, 3, 3, List.of()));
    // the rules' time before and after a deleted pod's long-terminating instant (deleted 2026-01-01, 30 s grace)
    for (var budgetsAt : List.of(Map.entry(List.<PodDisruptionBudget>of(), Instant.parse("2026-01-01T00:00:30Z")),
        Map.entry(List.of(pdb), Instant.parse("2026-01-01T00:00:30Z")),
        Map.entry(List.<PodDisruptionBudget>of(), Instant.parse("2026-01-01T00:01:01Z")),
        Map.entry(List.of(pdb), Instant.parse("2026-01-01T00:01:01Z")))) {
      List<PodDisruptionBudget> budgets = budgetsAt.getKey();
      Drainability d = Drainability.withBudgets(budgets, budgetsAt.getValue());
      Drainability.Decision want = d.check(pod);
      assertThat(d.check(pod, info.rules())).as("%s with %s", pod, budgets).isEqualTo(want);
      assertThat(d.check(copy.pod(), copy.rules())).isEqualTo(want);
      assertThat(d.check(copy.pod())).isEqualTo(want);
      Drainability.NodeDrain whole = d.drain(List.of(pod, pod));
      Drainability.Drain<AutoscalerPodInfo> kept = d.drain(List.of(info, copy), PodInfo::pod,
          AutoscalerPodInfo::rules);
      assertThat(List.of(kept.evict().stream().map(PodInfo::key).toList(), kept.blockingPod(), kept.reason()))
          .isEqualTo(List.of(whole.evict().stream().map(p -> p.metadata().key()).toList(), whole.blockingPod(),
              whole.reason()));
    }
  }

  private static Pod randomPod(Random rnd) {
    Pod.Builder b = Pod.builder().namespace(rnd.nextInt(4) == 0 ? Drainability.KUBE_SYSTEM : "default")
        .name("p" + rnd.nextInt(1000)).nodeName(rnd.nextInt(5) == 0 ? "" : "n1")
        .container("app", "img", io.fleetkit.api.resource.ResourceList.ofCpuMemory(100 + rnd.nextInt(900), 0));
    switch (rnd.nextInt(4)) {
      case 0 -> { }
      case 1 -> b.ownerReference(DS);
      default -> b.ownerReference(CaFixtures.RS);
    }
    if (rnd.nextBoolean()) {
      b.label("app", "web");
    }
    switch (rnd.nextInt(6)) {
      case 0 -> b.annotation(Drainability.SAFE_TO_EVICT, "true");
      case 1 -> b.annotation(Drainability.SAFE_TO_EVICT, "false");
      case 2 -> b.annotation(Drainability.MIRROR_ANNOTATION, "x");
      default -> { }
    }
    switch (rnd.nextInt(5)) {
      case 0 -> b.volume(Volume.emptyDir("scratch"));
      case 1 -> b.volume(new Volume("h", new VolumeSource.HostPath("/data")))
          .annotation(Drainability.SAFE_TO_EVICT_LOCAL_VOLUMES, rnd.nextBoolean() ? "h" : "other");
      default -> { }
    }
    PodAffinityTerm term = PodAffinityTerm.of(LabelSelector.of(Map.of("app", "web")), "kubernetes.io/hostname");
    switch (rnd.nextInt(5)) {
      case 0 -> b.affinity(new Affinity(null, new PodAffinity(List.of(term), List.of()), null));
      case 1 -> b.affinity(new Affinity(null, null, new PodAffinity(List.of(term), List.of())));
      case 2 -> b.affinity(new Affinity(null, null,
          new PodAffinity(List.of(), List.of(new WeightedPodAffinityTerm(10, term)))));
      default -> { }
    }
    if (rnd.nextInt(6) == 0) {
      b.phase(rnd.nextBoolean() ? PodPhase.Succeeded : PodPhase.Failed);
    }
    Pod p = b.build();
    if (rnd.nextInt(8) == 0) {
      p = p.withMetadata(p.metadata().toBuilder().deletionTimestamp(Instant.parse("2026-01-01T00:00:00Z")).build());
    }
    return p;
  }
}
