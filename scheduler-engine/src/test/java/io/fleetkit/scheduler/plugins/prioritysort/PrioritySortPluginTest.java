package io.fleetkit.scheduler.plugins.prioritysort;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.framework.PodInfos;
import io.fleetkit.api.framework.QueuedPodInfo;
import org.junit.jupiter.api.Test;

// Ported from kubernetes/kubernetes pkg/scheduler/framework/plugins/queuesort/priority_sort_test.go, TestLess
// (4 cases: "p1.priority less than p2.priority", "p1.priority greater than p2.priority",
// "equal priority. p1 is added to schedulingQ earlier than p2",
// "equal priority. p2 is added to schedulingQ earlier than p1").
final class PrioritySortPluginTest {
  private final PrioritySortPlugin plugin = new PrioritySortPlugin();

  private static QueuedPodInfo q(String name, int priority, long timestamp) {
    Pod p = Pod.builder().name(name).container("c", "i", ResourceList.EMPTY).priority(priority).build();
    return new QueuedPodInfo(PodInfos.of(p), timestamp, timestamp, 0);
  }

  @Test
  void compare_higherPriorityFirst() {
    assertThat(plugin.compare(q("p1", 100, 0), q("p2", 50, 0))).isNegative();
  }

  @Test
  void compare_lowerPriorityLater() {
    assertThat(plugin.compare(q("p1", 50, 0), q("p2", 100, 0))).isPositive();
  }

  @Test
  void compare_equalPriority_earlierTimestampFirst() {
    assertThat(plugin.compare(q("p1", 100, 1), q("p2", 100, 2))).isNegative();
  }

  @Test
  void compare_equalPriority_laterTimestampLater() {
    assertThat(plugin.compare(q("p1", 100, 2), q("p2", 100, 1))).isPositive();
  }

  @Test
  void name_isKubeName() {
    assertThat(plugin.name()).isEqualTo("PrioritySort");
  }
}
