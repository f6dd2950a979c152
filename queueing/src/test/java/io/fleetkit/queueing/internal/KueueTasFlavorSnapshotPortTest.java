package io.fleetkit.queueing.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.resource.ResourceNames;
import io.fleetkit.queueing.PodSetTopologyRequest;
import io.fleetkit.queueing.ResourceFlavor;
import io.fleetkit.queueing.Topology;
import io.fleetkit.queueing.TopologyAssignment;
import io.fleetkit.queueing.TopologyAssignment.Domain;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Ports of the smaller tests of kubernetes-sigs/kueue {@code pkg/cache/scheduler/tas_flavor_snapshot_test.go} (commit
 * ff69552e79ad21652c36caa97038382e55625cf7): TestMergeTopologyAssignments, TestHasLevel, TestSortedDomainsWithLeader,
 * TestSortedDomains, TestCompareDomainLevelValues, TestCountPodsInAssignment, TestComputeAssumedUsageFromAssignment,
 * TestAddAssumedUsage, TestTruncateAssignment and TestIsTopologyAssignmentStale. Case names are upstream's; the cases left out are listed in
 * docs/conformance.md.
 */
final class KueueTasFlavorSnapshotPortTest {
  private static final List<String> LEVELS = List.of("level-1", "level-2");

  // ---- TestMergeTopologyAssignments -------------------------------------------------------------------------------

  /**
   * Upstream builds the tree directly from four nodes x (a,b), y (a,c), z (d,e), w (d,f); FleetKit builds it from the
   * cluster's nodes, which must be Ready to count, so the nodes are Ready here.
   */
  private static TopologyAssigner mergeTree() {
    List<Node> nodes = List.of(node("x", "a", "b"), node("y", "a", "c"), node("z", "d", "e"), node("w", "d", "f"));
    return new TopologyAssigner(new Topology("dummy", LEVELS), ResourceFlavor.of("f"), nodes, Map.of(), Map.of());
  }

  private static Node node(String name, String l1, String l2) {
    return Node.builder().name(name).label("level-1", l1).label("level-2", l2).ready().build();
  }

  private static TopologyAssignment ta(Domain... domains) {
    return new TopologyAssignment(LEVELS, List.of(domains));
  }

  private static Domain d(int count, String... values) {
    return Domain.of(count, values);
  }

  @Test
  void merge_differentDomainsAllABeforeB_sortsAndKeepsAll() {
    assertThat(mergeTree().merge(ta(d(1, "a", "b"), d(1, "a", "c")), ta(d(1, "d", "e"), d(1, "d", "f"))))
        .isEqualTo(ta(d(1, "a", "b"), d(1, "a", "c"), d(1, "d", "e"), d(1, "d", "f")));
  }

  @Test
  void merge_differentDomainsAllBBeforeA_sortsAndKeepsAll() {
    assertThat(mergeTree().merge(ta(d(1, "d", "e"), d(1, "d", "f")), ta(d(1, "a", "b"), d(1, "a", "c"))))
        .isEqualTo(ta(d(1, "a", "b"), d(1, "a", "c"), d(1, "d", "e"), d(1, "d", "f")));
  }

  @Test
  void merge_differentDomainsMixedOrder_sortsAndKeepsAll() {
    assertThat(mergeTree().merge(ta(d(1, "a", "c"), d(1, "d", "e")), ta(d(1, "a", "b"), d(1, "d", "f"))))
        .isEqualTo(ta(d(1, "a", "b"), d(1, "a", "c"), d(1, "d", "e"), d(1, "d", "f")));
  }

  @Test
  void merge_differentAndSameDomainsMixedOrder_addsTheCountsOfTheSameDomain() {
    assertThat(mergeTree().merge(ta(d(1, "a", "c"), d(1, "d", "e")), ta(d(1, "a", "b"), d(1, "d", "e"))))
        .isEqualTo(ta(d(1, "a", "b"), d(1, "a", "c"), d(2, "d", "e")));
  }

  @Test
  void merge_topologyAWithEmptyDomains_givesB() {
    assertThat(mergeTree().merge(ta(), ta(d(1, "a", "b"), d(1, "d", "e"))))
        .isEqualTo(ta(d(1, "a", "b"), d(1, "d", "e")));
  }

  @Test
  void merge_topologyBWithEmptyDomain_givesA() {
    assertThat(mergeTree().merge(ta(d(1, "a", "c"), d(1, "d", "e")), ta()))
        .isEqualTo(ta(d(1, "a", "c"), d(1, "d", "e")));
  }

  @Test
  void merge_domainOutsideTheTopology_isRefusedNamingIt() {
    assertThatThrownBy(() -> mergeTree().merge(ta(d(1, "a", "z")), ta()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("topology dummy: domain [a, z] is not a domain of the lowest level level-2");
  }

  // ---- TestHasLevel -------------------------------------------------------------------------------------------------

  private static boolean hasLevel(PodSetTopologyRequest r) {
    return new TopologyAssigner(new Topology("dummy", LEVELS), ResourceFlavor.of("f"), List.of(), Map.of(), Map.of())
        .hasLevel(r);
  }

  @Test
  void hasLevel_upstreamCases() {
    assertThat(hasLevel(null)).as("topology request nil").isFalse();
    assertThat(hasLevel(new PodSetTopologyRequest(null, null, false, null, List.of())))
        .as("topology request empty").isFalse();
    assertThat(hasLevel(PodSetTopologyRequest.ofRequired("level-1"))).as("required").isTrue();
    assertThat(hasLevel(PodSetTopologyRequest.ofRequired("invalid-level"))).as("required – invalid level").isFalse();
    assertThat(hasLevel(PodSetTopologyRequest.ofPreferred("level-1"))).as("preferred").isTrue();
    assertThat(hasLevel(PodSetTopologyRequest.ofPreferred("invalid-level"))).as("preferred – invalid level")
        .isFalse();
    assertThat(hasLevel(PodSetTopologyRequest.ofUnconstrained())).as("unconstrained").isTrue();
    // Upstream's slice-only requests carry no slice size; FleetKit's request needs a positive one (Kueue's webhook
    // with TASValidateWorkloadSliceSize), which HasLevel does not read.
    assertThat(hasLevel(PodSetTopologyRequest.ofSlicesOnly("level-1", 1))).as("slice-only").isTrue();
    assertThat(hasLevel(PodSetTopologyRequest.ofSlicesOnly("invalid-level", 1))).as("slice-only – invalid level")
        .isFalse();
  }

  // ---- TestSortedDomainsWithLeader, TestSortedDomains --------------------------------------------------------------

  /** A domain with one level value and the given counts (upstream's {@code testDomainSpec}). */
  private static TopologyTree.Domain dom(String id, String value, int leaderCount, int slices, int pods) {
    TopologyTree.Domain d = new TopologyTree.Domain(id, List.of(value));
    d.leaderCount = leaderCount;
    d.sliceCount = slices;
    d.sliceCountWithLeader = slices;
    d.podCount = pods;
    d.podCountWithLeader = pods;
    return d;
  }

  private static List<String> ids(List<TopologyTree.Domain> domains) {
    List<String> out = new ArrayList<>();
    for (TopologyTree.Domain d : domains) {
      out.add(d.id);
    }
    return out;
  }

  @Test
  void sortedDomainsWithLeader_upstreamCases() {
    // "affinityScore ignored when feature gate is disabled" (FleetKit has no affinity score: the gate is off)
    assertThat(ids(TopologyAssigner.sortedDomainsWithLeader(
        List.of(dom("low-affinity", "a", 1, 5, 10), dom("high-affinity", "b", 1, 5, 10)), false)))
        .containsExactly("low-affinity", "high-affinity");
    assertThat(ids(TopologyAssigner.sortedDomainsWithLeader(
        List.of(dom("no-leader", "a", 0, 10, 10), dom("has-leader", "b", 1, 1, 1)), false)))
        .as("leaderCount descending: domains that can host leader come first")
        .containsExactly("has-leader", "no-leader");
    List<TopologyTree.Domain> abc = List.of(dom("a", "a", 1, 3, 1), dom("b", "b", 1, 1, 1), dom("c", "c", 1, 2, 1));
    assertThat(ids(TopologyAssigner.sortedDomainsWithLeader(abc, false)))
        .as("BestFit: sliceCountWithLeader descending").containsExactly("a", "c", "b");
    assertThat(ids(TopologyAssigner.sortedDomainsWithLeader(abc, true)))
        .as("LeastFreeCapacity: sliceCountWithLeader ascending").containsExactly("b", "c", "a");
    List<TopologyTree.Domain> sizes =
        List.of(dom("large", "a", 1, 5, 100), dom("small", "b", 1, 5, 10), dom("medium", "c", 1, 5, 50));
    assertThat(ids(TopologyAssigner.sortedDomainsWithLeader(sizes, false)))
        .as("BestFit: podCountWithLeader ascending as tiebreaker").containsExactly("small", "medium", "large");
    assertThat(ids(TopologyAssigner.sortedDomainsWithLeader(sizes, true)))
        .as("LeastFreeCapacity: podCountWithLeader ascending as tiebreaker")
        .containsExactly("small", "medium", "large");
    assertThat(ids(TopologyAssigner.sortedDomainsWithLeader(
        List.of(dom("c", "c", 1, 5, 10), dom("a", "a", 1, 5, 10), dom("b", "b", 1, 5, 10)), false)))
        .as("levelValues ascending as final tiebreaker").containsExactly("a", "b", "c");
  }

  @Test
  void sortedDomains_upstreamCases() {
    // "affinityScore ignored when feature gate is disabled"
    assertThat(ids(TopologyAssigner.sortedDomains(
        List.of(dom("low-affinity", "a", 0, 5, 10), dom("high-affinity", "b", 0, 5, 10)), false)))
        .containsExactly("low-affinity", "high-affinity");
    List<TopologyTree.Domain> abc = List.of(dom("a", "a", 0, 3, 1), dom("b", "b", 0, 1, 1), dom("c", "c", 0, 2, 1));
    assertThat(ids(TopologyAssigner.sortedDomains(abc, false))).as("BestFit: sliceCount descending")
        .containsExactly("a", "c", "b");
    assertThat(ids(TopologyAssigner.sortedDomains(abc, true))).as("LeastFreeCapacity: sliceCount ascending")
        .containsExactly("b", "c", "a");
    List<TopologyTree.Domain> sizes =
        List.of(dom("large", "a", 0, 5, 100), dom("small", "b", 0, 5, 10), dom("medium", "c", 0, 5, 50));
    assertThat(ids(TopologyAssigner.sortedDomains(sizes, false))).as("BestFit: podCount ascending as tiebreaker")
        .containsExactly("small", "medium", "large");
    assertThat(ids(TopologyAssigner.sortedDomains(sizes, true)))
        .as("LeastFreeCapacity: podCount ascending as tiebreaker").containsExactly("small", "medium", "large");
    assertThat(ids(TopologyAssigner.sortedDomains(
        List.of(dom("c", "c", 0, 5, 10), dom("a", "a", 0, 5, 10), dom("b", "b", 0, 5, 10)), false)))
        .as("levelValues ascending as final tiebreaker").containsExactly("a", "b", "c");
  }

  // ---- TestCompareDomainLevelValues ---------------------------------------------------------------------------------

  private static TopologyTree.Domain path(String... values) {
    return new TopologyTree.Domain(values[values.length - 1], List.of(values));
  }

  @Test
  void compareLevelValues_upstreamCases() {
    assertThat(TopologyAssigner.compareLevelValues(path("b1", "r1", "node-a"), path("b1", "r1", "node-b")))
        .as("same-parent sibling domains: ascending by hostname").isNegative();
    assertThat(TopologyAssigner.compareLevelValues(path("b1", "r1", "node-b"), path("b1", "r1", "node-a")))
        .as("same-parent sibling domains: descending by hostname").isPositive();
    assertThat(TopologyAssigner.compareLevelValues(path("b1", "r1", "node-a"), path("b1", "r1", "node-a")))
        .as("same-parent sibling domains: equal hostname").isZero();
    assertThat(TopologyAssigner.compareLevelValues(path("b1", "r1", "node-z"), path("b1", "r2", "node-a")))
        .as("multi-level inputs with different parents sorted lexicographically across levels").isNegative();
    assertThat(TopologyAssigner.compareLevelValues(path("b1", "r1"), path("b1", "r2")))
        .as("non-hostname levels sorted lexicographically across levels").isNegative();
  }

  // ---- TestCountPodsInAssignment, TestComputeAssumedUsageFromAssignment, TestAddAssumedUsage -----------------------

  private static TopologyAssignment hosts(Domain... domains) {
    return new TopologyAssignment(List.of("hostname"), List.of(domains));
  }

  @Test
  void podCount_upstreamCases() {
    assertThat(hosts().podCount()).as("empty assignment").isZero();
    assertThat(hosts(d(3, "node-a")).podCount()).as("single domain").isEqualTo(3);
    assertThat(hosts(d(2, "node-a"), d(3, "node-b"), d(1, "node-c")).podCount()).as("multiple domains")
        .isEqualTo(6);
  }

  /** Requests in Kueue's units: cpu in milli-units, others in units. */
  private static ResourceList kueue(long cpuMilli, long memory, long pods) {
    ResourceList.Builder b = ResourceList.builder().put(ResourceNames.CPU, Quantity.ofMilli(cpuMilli));
    if (memory > 0) {
      b.put(ResourceNames.MEMORY, Quantity.of(memory));
    }
    if (pods > 0) {
      b.put(ResourceNames.PODS, Quantity.of(pods));
    }
    return b.build();
  }

  @Test
  void usagePerDomain_upstreamCases() {
    ResourceList one = kueue(1000, 1024, 0);
    assertThat(hosts().usagePerDomain(one)).as("empty assignment").isEmpty();
    assertThat(hosts(d(1, "node-a")).usagePerDomain(one)).as("single domain with one pod")
        .isEqualTo(Map.of("node-a", kueue(1000, 1024, 1)));
    assertThat(hosts(d(2, "node-a"), d(3, "node-b")).usagePerDomain(one)).as("multiple domains")
        .isEqualTo(Map.of("node-a", kueue(2000, 2048, 2), "node-b", kueue(3000, 3072, 3)));
  }

  @Test
  void addUsage_includesPodCountForExistingAndNewDomains() {
    Map<String, ResourceList> usage = new LinkedHashMap<>(Map.of("node-a", kueue(1000, 0, 1)));
    TopologyAssigner.addUsage(usage, hosts(d(1, "node-a"), d(2, "node-b")), kueue(500, 2048, 0));
    assertThat(usage).isEqualTo(Map.of("node-a", kueue(1500, 2048, 2), "node-b", kueue(1000, 4096, 2)));
  }

  @Test
  void addUsage_includesPodCountStartingFromEmptyAssumedUsage() {
    Map<String, ResourceList> usage = new LinkedHashMap<>();
    TopologyAssigner.addUsage(usage, hosts(d(3, "node-a")), kueue(250, 512, 0));
    assertThat(usage).isEqualTo(Map.of("node-a", kueue(750, 1536, 3)));
  }

  // ---- TestTruncateAssignment ---------------------------------------------------------------------------------------

  @Test
  void truncate_upstreamCases() {
    assertThat(hosts(d(2, "node-a")).truncate(0)).as("truncate to zero").isEqualTo(hosts());
    assertThat(hosts(d(2, "node-a"), d(1, "node-b")).truncate(3)).as("no truncation needed")
        .isEqualTo(hosts(d(2, "node-a"), d(1, "node-b")));
    assertThat(hosts(d(3, "node-a"), d(2, "node-b")).truncate(3)).as("truncate to single domain")
        .isEqualTo(hosts(d(3, "node-a")));
    assertThat(hosts(d(3, "node-z"), d(2, "node-a")).truncate(3))
        .as("truncation preserves assignment order not lex order").isEqualTo(hosts(d(3, "node-z")));
    assertThat(hosts(d(3, "node-a"), d(3, "node-b")).truncate(4)).as("partial domain truncation")
        .isEqualTo(hosts(d(3, "node-a"), d(1, "node-b")));
    assertThat(hosts(d(5, "node-a"), d(3, "node-b")).truncate(2)).as("truncate within first domain")
        .isEqualTo(hosts(d(2, "node-a")));
  }

  // ---- TestIsTopologyAssignmentStale --------------------------------------------------------------------------------

  private static final String BLOCK = "cloud.provider.com/topology-block";
  private static final String RACK = "cloud.provider.com/topology-rack";

  /** Upstream's {@code hostnameLowest}: levels block, hostname; one node n1 in b1 (Ready, as FleetKit counts). */
  private static TopologyTree hostnameLowest() {
    return new TopologyAssigner(new Topology("t", List.of(BLOCK, Topology.HOSTNAME_LABEL)), ResourceFlavor.of("f"),
        List.of(Node.builder().name("n1").label(BLOCK, "b1").label(Topology.HOSTNAME_LABEL, "n1").ready().build()),
        Map.of(), Map.of()).tree;
  }

  /** Upstream's {@code rackLowest}: levels block, rack; one node n1 in b1/r1. */
  private static TopologyTree rackLowest() {
    return new TopologyAssigner(new Topology("t", List.of(BLOCK, RACK)), ResourceFlavor.of("f"),
        List.of(Node.builder().name("n1").label(BLOCK, "b1").label(RACK, "r1").ready().build()),
        Map.of(), Map.of()).tree;
  }

  @Test
  void stale_existingHostnameLeaf_isNotStale() {
    assertThat(TopologyReplacement.staleDomain(hostnameLowest(), List.of(Domain.of(0, "n1")))).isNull();
  }

  @Test
  void stale_missingHostnameLeaf_isStale() {
    assertThat(TopologyReplacement.staleDomain(hostnameLowest(), List.of(Domain.of(0, "n2")))).isEqualTo("n2");
  }

  /** "deleted node is stale even when its hostname matches an existing root domain ID". */
  @Test
  void stale_deletedNodeNamedLikeARootDomain_isStale() {
    assertThat(TopologyReplacement.staleDomain(hostnameLowest(), List.of(Domain.of(0, "b1")))).isEqualTo("b1");
  }

  @Test
  void stale_existingNonHostnameLeaf_isNotStale() {
    assertThat(TopologyReplacement.staleDomain(rackLowest(), List.of(Domain.of(0, "b1", "r1")))).isNull();
  }

  @Test
  void stale_missingNonHostnameLeaf_isStaleWithItsFirstValue() {
    assertThat(TopologyReplacement.staleDomain(rackLowest(), List.of(Domain.of(0, "b1", "r2")))).isEqualTo("b1");
  }
}
