package io.fleetkit.reconcile.controllers.internal;

import io.fleetkit.reconcile.controllers.DaemonSetPlacement;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.core.PodTemplateSpec;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.scheduling.Affinity;
import io.fleetkit.api.scheduling.NodeAffinity;
import io.fleetkit.api.scheduling.NodeSelector;
import io.fleetkit.api.scheduling.NodeSelectorOperator;
import io.fleetkit.api.scheduling.NodeSelectorRequirement;
import io.fleetkit.api.scheduling.NodeSelectorTerm;
import io.fleetkit.api.scheduling.PreferredSchedulingTerm;
import io.fleetkit.api.scheduling.TaintEffect;
import io.fleetkit.api.scheduling.Toleration;
import io.fleetkit.reconcile.controllers.WorkloadLabels;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Ported from upstream {@code pkg/controller/daemon/util/daemonset_util_test.go} at commit
 * 008b3652959ca58af8be3fb5b6ecfe9ae7638282: {@code TestIsPodUpdated} (10 cases), {@code TestCreatePodTemplate}
 * (2 cases), {@code TestReplaceDaemonSetPodNodeNameNodeAffinity} (8 cases) and {@code TestGetTargetNodeName}
 * (4 cases), all of them. {@code labels: nil} and {@code labels: {}} are both an empty map in FleetKit.
 */
final class DaemonSetPodsTest {

  private static Pod newPod(String name, String nodeName, Map<String, String> labels) {
    return Pod.of(ObjectMeta.builder().namespace("default").name(name).labels(labels).build(),
        PodSpec.builder().container("c", "foo/bar", ResourceList.EMPTY).nodeName(nodeName).build());
  }

  static Stream<Arguments> isPodUpdated() {
    long gen = 12345;
    long bad = 12350;
    String hash = "55555";
    Map<String, String> labels = Map.of(WorkloadLabels.POD_TEMPLATE_GENERATION, "12345",
        WorkloadLabels.CONTROLLER_REVISION_HASH, hash);
    Map<String, String> labelsNoHash = Map.of(WorkloadLabels.POD_TEMPLATE_GENERATION, "12345");
    return Stream.of(
        Arguments.of("templateGeneration and hash both match", gen, labels, hash, true),
        Arguments.of("templateGeneration matches, hash doesn't", gen, labels, hash + "123", true),
        Arguments.of("templateGeneration matches, no hash label, has hash", gen, labelsNoHash, hash, true),
        Arguments.of("templateGeneration matches, no hash label, no hash", gen, labelsNoHash, "", true),
        Arguments.of("templateGeneration matches, has hash label, no hash", gen, labels, "", true),
        Arguments.of("templateGeneration doesn't match, hash does", bad, labels, hash, true),
        Arguments.of("templateGeneration and hash don't match", bad, labels, hash + "123", false),
        Arguments.of("empty labels, no hash", gen, Map.of(), "", false),
        Arguments.of("empty labels", gen, Map.of(), hash, false),
        Arguments.of("no labels", gen, Map.of(), hash, false));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("isPodUpdated")
  void isPodUpdated_upstreamTable(String name, long generation, Map<String, String> labels, String hash,
      boolean updated) {
    assertThat(DaemonSetPods.isPodUpdated(newPod("pod1", "node1", labels), hash, generation)).isEqualTo(updated);
  }

  @ParameterizedTest
  @MethodSource
  void createPodTemplate_upstreamTable(long generation, String hash, boolean expectUniqueLabel) {
    PodTemplateSpec t = DaemonSetPods.createPodTemplate(PodTemplateSpec.of(Map.of(),
        PodSpec.builder().container("c", "i", ResourceList.EMPTY).build()), generation, hash);
    assertThat(t.labels()).containsEntry(WorkloadLabels.POD_TEMPLATE_GENERATION, Long.toString(generation));
    if (expectUniqueLabel) {
      assertThat(t.labels()).containsEntry(WorkloadLabels.CONTROLLER_REVISION_HASH, hash);
    } else {
      assertThat(t.labels()).doesNotContainKey(WorkloadLabels.CONTROLLER_REVISION_HASH);
    }
    assertThat(t.spec().tolerations()).containsExactlyElementsOf(DaemonSetPlacement.DAEMON_TOLERATIONS);
  }

  static Stream<Arguments> createPodTemplate_upstreamTable() {
    return Stream.of(Arguments.of(1L, "", false), Arguments.of(2L, "3242341807", true));
  }

  private static NodeSelectorRequirement req(String key, NodeSelectorOperator op, String... values) {
    return new NodeSelectorRequirement(key, op, List.of(values));
  }

  private static Affinity required(NodeSelectorTerm... terms) {
    return new Affinity(new NodeAffinity(new NodeSelector(List.of(terms)), List.of()), null, null);
  }

  private static NodeSelectorTerm fields(NodeSelectorRequirement... r) {
    return new NodeSelectorTerm(List.of(), List.of(r));
  }

  private static NodeSelectorTerm expressions(NodeSelectorRequirement... r) {
    return new NodeSelectorTerm(List.of(r), List.of());
  }

  static Stream<Arguments> replaceNodeNameNodeAffinity() {
    Affinity pinned = required(fields(req("metadata.name", NodeSelectorOperator.In, "host_1")));
    PreferredSchedulingTerm preferred = new PreferredSchedulingTerm(1,
        expressions(req("kubernetes.io/hostname", NodeSelectorOperator.In, "host_1")));
    return Stream.of(
        Arguments.of(null, pinned),
        Arguments.of(required(expressions(req("kubernetes.io/hostname", NodeSelectorOperator.In, "host_1"))),
            pinned),
        Arguments.of(new Affinity(new NodeAffinity(null, List.of(preferred)), null, null),
            new Affinity(new NodeAffinity(pinned.nodeAffinity().requiredDuringSchedulingIgnoredDuringExecution(),
                List.of(preferred)), null, null)),
        Arguments.of(required(fields(req("metadata.name", NodeSelectorOperator.In, "host_1", "host_2"))), pinned),
        Arguments.of(null, pinned),
        Arguments.of(required(expressions(req("hostname", NodeSelectorOperator.In, "host_1")),
            fields(req("metadata.name", NodeSelectorOperator.In, "host_2"))), pinned),
        Arguments.of(required(fields(req("metadata.name", NodeSelectorOperator.NotIn, "host_2"))), pinned),
        Arguments.of(required(fields(req("metadata.foo", NodeSelectorOperator.In, "bar"))), pinned));
  }

  @ParameterizedTest
  @MethodSource
  void replaceNodeNameNodeAffinity(@Nullable Affinity affinity, Affinity expected) {
    assertThat(DaemonSetPods.replaceNodeNameNodeAffinity(affinity, "host_1")).isEqualTo(expected);
  }

  @Test
  void targetNodeName_upstreamTable() {
    assertThat(DaemonSetPlacement.targetNodeName(newPod("pod1", "node-1", Map.of()))).isEqualTo("node-1");
    Pod pinned = newPod("pod2", "", Map.of());
    pinned = new Pod(pinned.metadata(), pinned.spec().toBuilder().affinity(required(fields(req("metadata.name",
        NodeSelectorOperator.In, "node-1")))).build(), pinned.status());
    assertThat(DaemonSetPlacement.targetNodeName(pinned)).isEqualTo("node-1");
    Pod twoNames = new Pod(pinned.metadata(), pinned.spec().toBuilder().affinity(required(fields(req("metadata.name",
        NodeSelectorOperator.In, "node-1", "node-2")))).build(), pinned.status());
    assertThat(DaemonSetPlacement.targetNodeName(twoNames)).as("not unique: upstream's error").isNull();
    assertThat(DaemonSetPlacement.targetNodeName(newPod("pod4", "", Map.of()))).as("no affinity: upstream's error")
        .isNull();
  }

  @Test
  void withDaemonTolerations_replacesMatchingTolerationKeepsOthers() {
    Toleration timed = new Toleration(DaemonSetPods.TAINT_NOT_READY, io.fleetkit.api.scheduling.TolerationOperator
        .Exists, "", TaintEffect.NoExecute, 300L);
    Toleration own = Toleration.equal("dedicated", "user1", TaintEffect.NoSchedule);
    PodSpec spec = DaemonSetPlacement.withDaemonTolerations(PodSpec.builder().container("c", "i", ResourceList.EMPTY)
        .toleration(timed).toleration(own).build());
    assertThat(spec.tolerations()).hasSize(7).contains(own).doesNotContain(timed);
    assertThat(spec.tolerations().get(0).tolerationSeconds()).isNull(); // replaced in place, without the timeout
    Map<String, Integer> keys = new HashMap<>();
    spec.tolerations().forEach(t -> keys.merge(t.key(), 1, Integer::sum));
    assertThat(keys.values()).allMatch(n -> n == 1);
  }

  // daemon/util/daemonset_util.go AddOrUpdateDaemonPodTolerations: network-unavailable only with hostNetwork
  @Test
  void withDaemonTolerations_hostNetwork_alsoToleratesNetworkUnavailable() {
    PodSpec plain = DaemonSetPlacement.withDaemonTolerations(PodSpec.builder().container("c", "i", ResourceList.EMPTY)
        .build());
    PodSpec host = DaemonSetPlacement.withDaemonTolerations(PodSpec.builder().container("c", "i", ResourceList.EMPTY)
        .hostNetwork(true).build());

    assertThat(plain.tolerations()).containsExactlyElementsOf(DaemonSetPlacement.DAEMON_TOLERATIONS);
    assertThat(host.tolerations()).hasSize(DaemonSetPlacement.DAEMON_TOLERATIONS.size() + 1)
        .containsAll(DaemonSetPlacement.DAEMON_TOLERATIONS)
        .last().isEqualTo(Toleration.exists("node.kubernetes.io/network-unavailable", TaintEffect.NoSchedule));
    // applied twice, still one of each
    assertThat(DaemonSetPlacement.withDaemonTolerations(host).tolerations()).isEqualTo(host.tolerations());
  }
}
