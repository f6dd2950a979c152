package io.fleetkit.api.scheduling;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import io.fleetkit.api.labels.Selector;
import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The compiled match paths must not allocate: 100k calls may not allocate more than a few kilobytes in total. */
final class MatchAllocationTest {

  private static long allocatedBytes() {
    return ((com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean()).getCurrentThreadAllocatedBytes();
  }

  @Test
  void compiledMatchers_manyCalls_doNotAllocate() {
    assumeThat(ManagementFactory.getThreadMXBean()).isInstanceOf(com.sun.management.ThreadMXBean.class);
    Map<String, String> labels = Map.of("zone", "z1", "gpu", "a100", "kernel", "0600", "app", "web");
    NodeSelector required = new NodeSelector(List.of(new NodeSelectorTerm(List.of(
        new NodeSelectorRequirement("zone", NodeSelectorOperator.In, List.of("z1", "z2")),
        new NodeSelectorRequirement("kernel", NodeSelectorOperator.Gt, List.of("500")),
        new NodeSelectorRequirement("legacy", NodeSelectorOperator.DoesNotExist, List.of())),
        List.of(new NodeSelectorRequirement("metadata.name", NodeSelectorOperator.NotIn, List.of("bad"))))));
    RequiredNodeAffinity affinity = RequiredNodeAffinity.of(Map.of("app", "web"), new NodeAffinity(required,
        List.of()));
    PreferredSchedulingTerms preferred = PreferredSchedulingTerms.of(List.of(new PreferredSchedulingTerm(10,
        new NodeSelectorTerm(List.of(new NodeSelectorRequirement("gpu", NodeSelectorOperator.Exists, List.of())),
            List.of()))));
    Selector selector = Selector.parse("app=web,zone in (z1,z2),!legacy,kernel>100");
    List<Taint> taints = List.of(Taint.of("a", "1", TaintEffect.NoSchedule));
    List<Toleration> tolerations = List.of(Toleration.exists("a", null));
    long sink = 0;
    for (int i = 0; i < 20_000; i++) { // warm up
      sink += run(labels, affinity, preferred, selector, taints, tolerations);
    }
    long before = allocatedBytes();
    for (int i = 0; i < 100_000; i++) {
      sink += run(labels, affinity, preferred, selector, taints, tolerations);
    }
    long allocated = allocatedBytes() - before;
    assertThat(sink).isEqualTo(120_000L * 13);
    assertThat(allocated).as("bytes allocated by 100k matches").isLessThan(16 * 1024);
  }

  private static long run(Map<String, String> labels, RequiredNodeAffinity affinity,
      PreferredSchedulingTerms preferred, Selector selector, List<Taint> taints, List<Toleration> tolerations) {
    long s = affinity.match("n1", labels) ? 1 : 0;
    s += preferred.score("n1", labels);
    s += selector.matches(labels) ? 1 : 0;
    s += Taints.tolerationsTolerateTaint(tolerations, taints.get(0)) ? 1 : 0;
    return s;
  }
}
