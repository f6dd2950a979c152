package io.fleetkit.scheduler.plugins.interpodaffinity;

import static io.fleetkit.scheduler.plugins.interpodaffinity.Fixtures.in;
import static io.fleetkit.scheduler.plugins.interpodaffinity.Fixtures.labels;
import static io.fleetkit.scheduler.plugins.interpodaffinity.Fixtures.makePod;
import static io.fleetkit.scheduler.plugins.interpodaffinity.Fixtures.node;
import static io.fleetkit.scheduler.plugins.interpodaffinity.Fixtures.selector;
import static io.fleetkit.scheduler.plugins.interpodaffinity.Fixtures.term;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Namespace;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.framework.CycleState;
import io.fleetkit.api.framework.PodInfos;
import io.fleetkit.api.framework.Status;
import io.fleetkit.api.store.ObjectStore;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A namespaceSelector resolved against the labels of Namespace objects, current at every cycle. */
final class NamespaceLookupsTest {

  static Status filter(InterPodAffinityPlugin p, TestSnapshot snapshot, Pod pod) {
    CycleState state = new TestCycleState();
    var info = PodInfos.of(pod);
    assertThat(p.preFilter(state, info, snapshot).status().isSuccess()).isTrue();
    return p.filter(state, info, snapshot.node("node1"));
  }

  @Test
  void in_store_namespaceSelectorSeesNamespaceLabelsAndTheirChanges() {
    try (ObjectStore store = ObjectStore.inMemory()) {
      Namespace web = store.create(Namespace.of("web", Map.of("team", "team1")));
      Node node1 = node("node1", labels("region", "r1"));
      Pod existing = makePod().node("node1").namespace("web").labels(labels("service", "securityscan")).obj();
      TestSnapshot snapshot = TestSnapshot.of(List.of(existing), List.of(node1));
      InterPodAffinityPlugin plugin = new InterPodAffinityPlugin(
          InterPodAffinityArgs.DEFAULT.withNamespaceLabels(NamespaceLookups.in(store)), () -> snapshot);
      LabelSelector team1 = selector(in("team", "team1"));
      Pod incoming = makePod().namespace("db").labels(labels("security", "S1"))
          .requiredAffinity(term(selector(in("service", "securityscan")), "region", List.of(), team1)).obj();

      assertThat(filter(plugin, snapshot, incoming).isSuccess()).isTrue();

      store.update(web.withMetadata(web.metadata().withLabels(Map.of("team", "team2"))));

      assertThat(filter(plugin, snapshot, incoming).code()).isEqualTo(Status.Code.UNSCHEDULABLE_AND_UNRESOLVABLE);
    }
  }

  @Test
  void of_namespaces_addsTheNameLabel_andMissingNamespacesAreNull() {
    var lookup = NamespaceLookups.of(List.of(Namespace.of("a", Map.of("x", "1"))));

    assertThat(lookup.apply("a")).containsEntry("x", "1").containsEntry("kubernetes.io/metadata.name", "a");
    assertThat(lookup.apply("b")).isNull();
  }
}
