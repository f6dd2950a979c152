package io.fleetkit.autoscale.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Upstream's {@code cluster-autoscaler/core/scaledown/unremovable/nodes_test.go} ({@code TestUpdate}), 4 of 4. */
final class UnremovableNodesTest {
  static final Instant BEFORE_UPDATE = Instant.ofEpochMilli(1652455130000L);
  static final Instant UPDATE_TIME = Instant.ofEpochMilli(1652455131111L);
  static final Instant AFTER_UPDATE = Instant.ofEpochMilli(1652455132222L);

  static Stream<Arguments> update() {
    return Stream.of(
        Arguments.of("empty", Map.of(), List.of(), 0),
        Arguments.of("one removed via ttl", Map.of("n1", BEFORE_UPDATE, "n2", AFTER_UPDATE), List.of("n1", "n2"), 1),
        Arguments.of("one missing from cluster", Map.of("n1", AFTER_UPDATE, "n2", AFTER_UPDATE), List.of("n2"), 1),
        Arguments.of("all stay", Map.of("n1", AFTER_UPDATE, "n2", AFTER_UPDATE), List.of("n1", "n2"), 2));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource
  void update(String name, Map<String, Instant> unremovable, List<String> nodes, int want) {
    UnremovableNodes n = new UnremovableNodes();
    unremovable.forEach(n::addTimeout);
    n.update(nodes::contains, UPDATE_TIME);
    assertThat(n.size()).isEqualTo(want);
    assertThat(n.recent()).allSatisfy(node -> assertThat(nodes).contains(node));
    unremovable.forEach((node, ttl) -> assertThat(n.isRecent(node))
        .isEqualTo(nodes.contains(node) && ttl.isAfter(UPDATE_TIME)));
  }
}
