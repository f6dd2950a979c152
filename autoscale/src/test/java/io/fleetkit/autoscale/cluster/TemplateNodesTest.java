package io.fleetkit.autoscale.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.apps.DaemonSet;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.meta.OwnerReference;
import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.scheduling.PreemptionPolicy;
import io.fleetkit.reconcile.controllers.DaemonSetPlacement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * Ported from kubernetes/autoscaler:
 * <ul>
 *   <li>{@code cluster-autoscaler/utils/daemonset/daemonset_test.go} (stored version 5c22805b): TestGetDaemonSetPodsForNode
 *       (its 5 blocks) and TestEvictedPodsFilter (4 cases, against {@link ScaleDownEvictor#podsToEvict}, FleetKit's
 *       {@code PodsToEvict});
 *   <li>{@code cluster-autoscaler/simulator/node_info_utils_test.go} (stored version 1b8c0c8d): the DaemonSet cases of
 *       TestSanitizedTemplateNodeInfoFromNodeGroup (2 of 3) and TestSanitizedTemplateNodeInfoFromNodeInfo (10 of 10),
 *       their pods checked as upstream's {@code verifySanitizedPods} (count and order, a new name, bound to the
 *       template node, otherwise the wanted pod);
 *   <li>{@code cluster-autoscaler/core/podlistprocessor/filter_out_daemon_sets_test.go} (stored version 20030aeb):
 *       TestFilterOutDaemonSetPodListProcessor (4 cases);
 *   <li>{@code cluster-autoscaler/utils/pod/pod_test.go} (commit d27ffb8f): TestIsDaemonSetPod (5
 *       cases), TestIsMirrorPod (3 cases), TestFilterRecreatablePods (7 cases, against
 *       {@code ActuationStatus.recreatable}).
 * </ul>
 * (TestCalculate of {@code simulator/utilization/info_test.go}, DaemonSet checks included, is in
 * {@link NodeUtilizationTest}.)
 * Skipped: TestSanitizedTemplateNodeInfoFromNodeGroup "node group error results in an error" (a pool's template is a
 * value and cannot fail to be read). The upstream example node carries a {@code ToBeDeletedByClusterAutoscaler} taint
 * that upstream's sanitization removes before the DaemonSets are matched; FleetKit builds templates from the pool's
 * template, which has no such taint, and does no taint sanitization, so the node here is built without it. Upstream's
 * node sanitization checks (new UID, hostname label, deprecated labels) belong to the example-node templates FleetKit
 * does not build.
 */
final class TemplateNodesTest {
  private static final long MI = 1024L * 1024;

  // ---- daemonset_test.go ----

  /** Upstream's {@code newDaemonSet(name, cpu, memory, selector)}. */
  private static DaemonSet newDaemonSet(String name, String cpu, String memory, @Nullable Map<String, String> sel) {
    PodSpec.Builder spec = PodSpec.builder().container("c", "foo/bar", ResourceList.builder()
        .put("cpu", Quantity.parse(cpu)).put("memory", Quantity.parse(memory)).build());
    if (sel != null) {
      spec.nodeSelector(sel);
    }
    return DaemonSet.builder().name(name).namespace("default").uid(name + "-uid")
        .matchLabels(Map.of("name", "simple-daemon", "type", "production")).podSpec(spec.build()).build();
  }

  /** Upstream's {@code BuildTestNode(name, 1000, 1000)}, Ready. */
  private static Node testNode(String name) {
    ResourceList r = ResourceList.builder().put("cpu", Quantity.ofMilli(1000)).put("memory", Quantity.ofBytes(1000))
        .put("pods", Quantity.of(100)).build();
    return Node.builder().name(name).capacity(r).allocatable(r).ready().build();
  }

  @Test
  void daemonSetPodsForNode_upstreamGetDaemonSetPodsForNode() {
    Node node = testNode("node");
    DaemonSet ds1 = newDaemonSet("ds1", "0.1", "100M", null);
    DaemonSet ds2 = newDaemonSet("ds2", "0.1", "100M", Map.of("foo", "bar"));
    DaemonSet ds3 = newDaemonSet("ds1", "4", "4000M", null);

    List<Pod> both = TemplateNodes.daemonSetPodsForNode(node, List.of(ds1, ds2));
    assertThat(both).hasSize(1);
    assertThat(both.get(0).metadata().name()).startsWith("ds1");
    assertThat(TemplateNodes.daemonSetPodsForNode(node, List.of(ds1))).hasSize(1);
    assertThat(TemplateNodes.daemonSetPodsForNode(node, List.of(ds2))).isEmpty();
    assertThat(TemplateNodes.daemonSetPodsForNode(node, List.of(ds3)))
        .as("resources are not checked: 4 CPUs on a 1-CPU node still land").hasSize(1);
    assertThat(TemplateNodes.daemonSetPodsForNode(node, List.of())).isEmpty();
  }

  @Test
  void daemonSetPodsForNode_podIsTheControllersNewPod() {
    DaemonSet ds1 = newDaemonSet("ds1", "0.1", "100M", null);
    Pod p = TemplateNodes.daemonSetPodsForNode(testNode("node"), List.of(ds1)).get(0);
    assertThat(p.spec()).isEqualTo(DaemonSetPlacement.newPodSpec(ds1, "node"));
    assertThat(p.spec().nodeName()).isEqualTo("node");
    assertThat(p.spec().tolerations()).containsAll(DaemonSetPlacement.DAEMON_TOLERATIONS);
    assertThat(p.metadata().namespace()).isEqualTo("default");
    assertThat(p.metadata().labels()).containsEntry("name", "simple-daemon");
    OwnerReference c = p.metadata().controllerRef();
    assertThat(c).isNotNull();
    assertThat(c.kind()).isEqualTo("DaemonSet");
    assertThat(c.uid()).isEqualTo("ds1-uid");
    assertThat(TemplateNodes.isDaemonSetPod(p)).isTrue();
  }

  @Test
  void daemonSetPodsForNode_longNodeName_podNameStaysAValidName() {
    String nodeName = "n".repeat(120) + "." + "m".repeat(120);
    DaemonSet ds = newDaemonSet("d".repeat(50), "0.1", "100M", null);
    List<Pod> pods = TemplateNodes.daemonSetPodsForNode(testNode(nodeName), List.of(ds));
    assertThat(pods).hasSize(1);
    String name = pods.get(0).metadata().name();
    assertThat(name).hasSizeLessThanOrEqualTo(253).startsWith(ds.metadata().name() + "-pod-n");
    assertThat(TemplateNodes.name(ds.metadata().name() + "-pod-" + nodeName)).as("deterministic").isEqualTo(name);
    assertThat(TemplateNodes.name("short")).isEqualTo("short");
  }

  private record EvictCase(String name, Map<String, String> pods, boolean evictionDefault, List<String> expected) {}

  @Test
  void podsToEvict_upstreamEvictedPodsFilter() {
    List<EvictCase> cases = List.of(
        new EvictCase("all pods evicted by default", Map.of("p1", "", "p2", "", "p3", ""), true,
            List.of("p1", "p2", "p3")),
        new EvictCase("no pods evicted by default", Map.of("p1", "", "p2", "", "p3", ""), false, List.of()),
        new EvictCase("all pods evicted by default, one opt-out", Map.of("p1", "", "p2", "false", "p3", ""), true,
            List.of("p1", "p3")),
        new EvictCase("no pods evicted by default, one opt-in", Map.of("p1", "", "p2", "true", "p3", ""), false,
            List.of("p2")));
    OwnerReference ds = new OwnerReference("apps/v1", "DaemonSet", "ds", "ds-uid", true, true);
    for (EvictCase c : cases) {
      List<Pod> dsPods = new ArrayList<>();
      c.pods().forEach((n, av) -> {
        Pod.Builder b = Pod.builder().name(n).ownerReference(ds)
            .container("app", "pause", ResourceList.ofCpuMemory(100, 0));
        if (!av.isEmpty()) {
          b.annotation(ScaleDownEvictor.ENABLE_DS_EVICTION, av);
        }
        dsPods.add(b.build());
      });
      List<String> got = ScaleDownEvictor.podsToEvict(dsPods, c.evictionDefault()).daemonSetPods().stream()
          .map(p -> p.metadata().name()).toList();
      assertThat(got).as(c.name()).containsExactlyInAnyOrderElementsOf(c.expected());
    }
  }

  // ---- node_info_utils_test.go ----

  private static final PodSpec EMPTY = PodSpec.builder().container("c", "image", ResourceList.EMPTY).build();
  private static final DaemonSet DS1 = ds("ds1", EMPTY);
  private static final DaemonSet DS2 = ds("ds2", EMPTY);
  private static final DaemonSet DS3 = ds("ds3", EMPTY.toBuilder().nodeSelector("key", "value").build());
  private static final DaemonSet DS4 = ds("ds4",
      EMPTY.toBuilder().priorityClassName(TemplateNodes.SYSTEM_NODE_CRITICAL).build());
  private static final List<DaemonSet> TEST_DAEMON_SETS = List.of(DS1, DS2, DS3, DS4);

  /** Upstream's ds1..ds4: namespace {@code <name>-namespace}, uid the name (an empty template has a container here). */
  private static DaemonSet ds(String name, PodSpec spec) {
    return DaemonSet.builder().name(name).namespace(name + "-namespace").uid(name)
        .matchLabels(Map.of("app", name)).podSpec(spec).build();
  }

  /** Upstream's {@code exampleNode}: {@code BuildTestNode("n", 1000, 10)} with its labels (taint: see the class doc). */
  private static Node exampleNode(String name) {
    ResourceList r = ResourceList.builder().put("cpu", Quantity.ofMilli(1000)).put("memory", Quantity.ofBytes(10))
        .put("pods", Quantity.of(100)).build();
    return Node.builder().name(name).capacity(r).allocatable(r).ready().label("custom", "label")
        .label("node.kubernetes.io/instance-type", "some-instance").label("topology.kubernetes.io/region",
            "some-region").build();
  }

  /** Upstream's {@code BuildScheduledTestPod(name, 100, 1, "n")}. */
  private static Pod scheduled(String name) {
    return Pod.builder().name(name).nodeName("n").container("app", "pause", ResourceList.ofCpuMemory(100, 1)).build();
  }

  /** Upstream's {@code SetMirrorPodSpec}. */
  private static Pod mirror(Pod p) {
    return new Pod(p.metadata().toBuilder().annotation(Drainability.MIRROR_ANNOTATION, "mirror").build(), p.spec(),
        p.status());
  }

  /** Upstream's {@code setDeletionTimestamp}. */
  private static Pod deleting(Pod p) {
    return new Pod(p.metadata().toBuilder().deletionTimestamp(Instant.parse("2026-01-01T00:00:00Z")).build(), p.spec(),
        p.status());
  }

  /** Upstream's {@code buildDSPod(ds, nodeName)}: the controller's new pod with a controller reference. */
  private static Pod dsPod(DaemonSet ds, String node) {
    return DaemonSetPlacement.newPod(ds, node, ds.metadata().name() + "-pod-example");
  }

  /**
   * Upstream's {@code verifySanitizedPods} for {@code want}: as many pods in the same order, each with a new name, bound
   * to {@code node}, and otherwise the wanted pod.
   */
  private static void verifyPods(String name, List<Pod> got, List<Pod> want, String node) {
    assertThat(got).as(name).hasSize(want.size());
    for (int i = 0; i < want.size(); i++) {
      Pod g = got.get(i);
      Pod w = want.get(i);
      assertThat(g.metadata().name()).as(name + " pod " + i + " renamed").isNotEqualTo(w.metadata().name());
      assertThat(g.spec().nodeName()).as(name + " pod " + i + " node").isEqualTo(node);
      assertThat(g.spec()).as(name + " pod " + i + " spec").isEqualTo(w.spec().withNodeName(node));
      assertThat(g.metadata().namespace()).as(name + " pod " + i + " namespace").isEqualTo(w.metadata().namespace());
      assertThat(g.metadata().ownerReferences()).as(name + " pod " + i + " owners")
          .isEqualTo(w.metadata().ownerReferences());
      assertThat(g.metadata().annotations()).as(name + " pod " + i + " annotations")
          .isEqualTo(w.metadata().annotations());
    }
  }

  @Test
  void forPoolTemplate_upstreamSanitizedTemplateNodeInfoFromNodeGroup() {
    String t = "template-node-for-pool-0";
    // "simple template with no pods"
    verifyPods("simple template with no pods", TemplateNodes.forPoolTemplate(exampleNode(t), TEST_DAEMON_SETS),
        List.of(dsPod(DS1, "n"), dsPod(DS2, "n"), dsPod(DS4, "n")), t);
    // "template with all kinds of pods": upstream's node group template comes with pods; its function then is
    // SanitizedTemplateNodeInfoFromNodeInfo with the DaemonSets forced
    List<Pod> examplePods = List.of(scheduled("p1"), scheduled("p2"), mirror(scheduled("p3")),
        deleting(mirror(scheduled("p4"))), dsPod(DS1, "n"), deleting(dsPod(DS2, "n")));
    verifyPods("template with all kinds of pods",
        TemplateNodes.expectedOnFreshNode(exampleNode(t), examplePods, TEST_DAEMON_SETS, true),
        List.of(mirror(scheduled("p3")), dsPod(DS1, "n"), dsPod(DS2, "n"), dsPod(DS4, "n")), t);
  }

  private record InfoCase(String name, List<Pod> pods, List<DaemonSet> daemonSets, boolean forceDs,
      List<Pod> wantPods) {}

  @Test
  void expectedOnFreshNode_upstreamSanitizedTemplateNodeInfoFromNodeInfo() {
    List<Pod> dsPods = List.of(dsPod(DS1, "n"), deleting(dsPod(DS2, "n")));
    List<Pod> everything = List.of(scheduled("p1"), scheduled("p2"), mirror(scheduled("p3")),
        deleting(mirror(scheduled("p4"))), dsPod(DS1, "n"), deleting(dsPod(DS2, "n")));
    List<InfoCase> cases = List.of(
        new InfoCase("node without any pods", List.of(), List.of(), false, List.of()),
        new InfoCase("node with non-DS/mirror pods", List.of(scheduled("p1"), scheduled("p2")), List.of(), false,
            List.of()),
        new InfoCase("node with a mirror pod", List.of(mirror(scheduled("p1"))), List.of(), false,
            List.of(mirror(scheduled("p1")))),
        new InfoCase("node with a deleted mirror pod",
            List.of(mirror(scheduled("p1")), deleting(mirror(scheduled("p2")))), List.of(), false,
            List.of(mirror(scheduled("p1")))),
        new InfoCase("node with DS pods [forceDS=false, no daemon sets]", dsPods, List.of(), false,
            List.of(dsPod(DS1, "n"))),
        new InfoCase("node with DS pods [forceDS=false, some daemon sets]", dsPods, TEST_DAEMON_SETS, false,
            List.of(dsPod(DS1, "n"), dsPod(DS4, "n"))),
        new InfoCase("node with a DS pod [forceDS=true, no daemon sets]", dsPods, List.of(), true,
            List.of(dsPod(DS1, "n"))),
        new InfoCase("node with a DS pod [forceDS=true, some daemon sets]", dsPods, TEST_DAEMON_SETS, true,
            List.of(dsPod(DS1, "n"), dsPod(DS2, "n"), dsPod(DS4, "n"))),
        new InfoCase("everything together [forceDS=false]", everything, TEST_DAEMON_SETS, false,
            List.of(mirror(scheduled("p3")), dsPod(DS1, "n"), dsPod(DS4, "n"))),
        new InfoCase("everything together [forceDS=true]", everything, TEST_DAEMON_SETS, true,
            List.of(mirror(scheduled("p3")), dsPod(DS1, "n"), dsPod(DS2, "n"), dsPod(DS4, "n"))));
    String t = "template-node-for-nodegroupid-0";
    for (InfoCase c : cases) {
      verifyPods(c.name(), TemplateNodes.expectedOnFreshNode(exampleNode(t), c.pods(), c.daemonSets(), c.forceDs()),
          c.wantPods(), t);
    }
  }

  @Test
  void isPreemptingSystemNodeCritical_needsTheClassAndPreemption() {
    Pod critical = DaemonSetPlacement.newPod(DS4, "n", "a");
    assertThat(TemplateNodes.isPreemptingSystemNodeCritical(critical)).isTrue();
    Pod never = new Pod(critical.metadata(), critical.spec().toBuilder().preemptionPolicy(PreemptionPolicy.Never)
        .build(), critical.status());
    assertThat(TemplateNodes.isPreemptingSystemNodeCritical(never)).isFalse();
    assertThat(TemplateNodes.isPreemptingSystemNodeCritical(DaemonSetPlacement.newPod(DS1, "n", "b"))).isFalse();
  }

  // ---- utils/pod/pod_test.go ----

  private static Pod bare(String name) {
    return Pod.builder().name(name).namespace("bar").container("c", "image", ResourceList.EMPTY).build();
  }

  @Test
  void isDaemonSetPod_upstreamIsDaemonSetPod() {
    assertThat(TemplateNodes.isDaemonSetPod(bare("foo"))).as("Pod with empty OwnerRef").isFalse();
    assertThat(TemplateNodes.isDaemonSetPod(bare("foo").toBuilder()
        .ownerReference(new OwnerReference("apps/v1", "DaemonSet", "", "", true, false)).build()))
        .as("Pod with empty OwnerRef.Kind == DaemonSet").isTrue();
    assertThat(TemplateNodes.isDaemonSetPod(bare("foo").toBuilder().annotation("other", "x").build()))
        .as("Pod with annotation but not with `DaemonSetPodAnnotationKey`").isFalse();
    assertThat(TemplateNodes.isDaemonSetPod(bare("foo").toBuilder()
        .annotation(TemplateNodes.DAEMON_SET_POD_ANNOTATION, "bad value").build()))
        .as("Pod with `DaemonSetPodAnnotationKey` annotation but wrong value").isFalse();
    assertThat(TemplateNodes.isDaemonSetPod(bare("foo").toBuilder()
        .annotation(TemplateNodes.DAEMON_SET_POD_ANNOTATION, "true").build()))
        .as("Pod with `DaemonSetPodAnnotationKey:true` annotation").isTrue();
  }

  @Test
  void isMirrorPod_upstreamIsMirrorPod() {
    assertThat(TemplateNodes.isMirrorPod(bare("foo").toBuilder().annotation(Drainability.MIRROR_ANNOTATION, "")
        .build())).as("pod with ConfigMirrorAnnotationKey").isTrue();
    // upstream's second case ("without") is built with the annotation too, and wants true
    assertThat(TemplateNodes.isMirrorPod(bare("foo").toBuilder().annotation(Drainability.MIRROR_ANNOTATION, "")
        .build())).as("pod with without ConfigMirrorAnnotationKey").isTrue();
    assertThat(TemplateNodes.isMirrorPod(bare("foo"))).as("pod with nil Annotations map").isFalse();
  }

  private record RecreatableCase(String name, List<Pod> pods, List<Pod> want) {}

  @Test
  void recreatable_upstreamFilterRecreatablePods() {
    OwnerReference rs = new OwnerReference("apps/v1", "ReplicaSet", "rs", "rs-uid", true, false);
    OwnerReference ds = new OwnerReference("apps/v1", "DaemonSet", "ds", "ds-uid", true, false);
    java.util.function.Function<String, Pod> build = n -> Pod.builder().name(n)
        .container("c", "i", ResourceList.ofCpuMemory(100, 1)).build();
    java.util.function.Function<String, Pod> rsPod = n -> build.apply(n).toBuilder().ownerReference(rs).build();
    java.util.function.Function<String, Pod> dsPod = n -> build.apply(n).toBuilder().ownerReference(ds).build();
    java.util.function.Function<String, Pod> mirrorPod = n -> build.apply(n).toBuilder()
        .annotation(Drainability.MIRROR_ANNOTATION, "").build();
    java.util.function.Function<String, Pod> staticPod = n -> build.apply(n).toBuilder()
        .annotation(ActuationStatus.CONFIG_SOURCE_ANNOTATION, "file").build();
    List<RecreatableCase> cases = List.of(
        new RecreatableCase("no pods", List.of(), List.of()),
        new RecreatableCase("keep single pod", List.of(build.apply("p")), List.of(build.apply("p"))),
        new RecreatableCase("keep single RS pod", List.of(rsPod.apply("p")), List.of(rsPod.apply("p"))),
        new RecreatableCase("filter-out single DS pod", List.of(dsPod.apply("p")), List.of()),
        new RecreatableCase("filter-out single mirror pod", List.of(mirrorPod.apply("p")), List.of()),
        new RecreatableCase("filter-out single static pod", List.of(staticPod.apply("p")), List.of()),
        new RecreatableCase("all pods together", List.of(build.apply("p1"), rsPod.apply("p2"), dsPod.apply("p3"),
            mirrorPod.apply("p4"), staticPod.apply("p5")), List.of(build.apply("p1"), rsPod.apply("p2"))));
    for (RecreatableCase c : cases) {
      assertThat(ActuationStatus.recreatable(c.pods())).as(c.name()).containsExactlyInAnyOrderElementsOf(c.want());
    }
  }

  // ---- filter_out_daemon_sets_test.go ----

  /** Upstream's {@code SetDSPodSpec}: a DaemonSet controller reference. */
  private static Pod dsOwned(Pod p) {
    return new Pod(p.metadata().toBuilder().ownerReference(
        new OwnerReference("apps/v1", "DaemonSet", "ds", "ds-uid", true, true)).build(), p.spec(), p.status());
  }

  /** Upstream's {@code BuildTestPod(name, 1000, 1)}. */
  private static Pod testPod(String name) {
    return Pod.builder().name(name).container("app", "pause", ResourceList.ofCpuMemory(1000, 1)).build();
  }

  @Test
  void withoutDaemonSetPods_upstreamFilterOutDaemonSetPodListProcessor() {
    assertThat(TemplateNodes.withoutDaemonSetPods(List.of())).as("no pods").isEmpty();
    assertThat(TemplateNodes.withoutDaemonSetPods(List.of(testPod("p")))).as("single non-DS pod")
        .containsExactly(testPod("p"));
    assertThat(TemplateNodes.withoutDaemonSetPods(List.of(dsOwned(testPod("p"))))).as("single DS pod").isEmpty();
    assertThat(TemplateNodes.withoutDaemonSetPods(List.of(testPod("p1"), dsOwned(testPod("p2")),
        dsOwned(testPod("p3")), testPod("p4"), testPod("p5"), dsOwned(testPod("p6")))))
        .as("mixed DS and non-DS pods").containsExactly(testPod("p1"), testPod("p4"), testPod("p5"));
  }
}
