package io.fleetkit.scheduler.plugins.interpodaffinity;

import static io.fleetkit.scheduler.plugins.interpodaffinity.Fixtures.in;
import static io.fleetkit.scheduler.plugins.interpodaffinity.Fixtures.labels;
import static io.fleetkit.scheduler.plugins.interpodaffinity.Fixtures.makePod;
import static io.fleetkit.scheduler.plugins.interpodaffinity.Fixtures.selector;
import static io.fleetkit.scheduler.plugins.interpodaffinity.Fixtures.term;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.framework.ClusterEvent;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import io.fleetkit.scheduler.DefaultPlugins;
import io.fleetkit.scheduler.PendingPod;
import io.fleetkit.scheduler.Scheduler;
import io.fleetkit.scheduler.StoreScheduler;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

/**
 * The pod and node queueing hints of {@link InterPodAffinityPlugin}, ported from kubernetes
 * {@code pkg/scheduler/framework/plugins/interpodaffinity/plugin_test.go}: Test_isSchedulableAfterPodChange (17 of 17
 * cases) and Test_isSchedulableAfterNodeChange (12 of 12). Upstream's {@code Queue} is {@code true}, {@code QueueSkip}
 * {@code false}; its pods without a name get generated ones, and "the target pod" is recognised by namespace and name
 * (upstream compares UIDs). Then the hints at work in the scheduler: a parked pod is not retried for a bound pod its
 * terms do not match, and is for one they do.
 */
final class QueueingHintsTest {
  private static final List<String> SCAN = List.of("securityscan", "value2");
  private static final InterPodAffinityPlugin PLUGIN = new InterPodAffinityPlugin(InterPodAffinityArgs.DEFAULT, () -> {
    throw new AssertionError("no snapshot needed");
  });

  record PodCase(String name, Pod pod, @Nullable Pod oldPod, @Nullable Pod newPod, boolean queue) {
    @Override
    public String toString() {
      return name;
    }
  }

  private static Pod bound(Fixtures.MakePod p) {
    return p.node("fake-node").obj();
  }

  /** The other pod of upstream's update cases, bound, with one label. */
  private static Pod other(String key, String value) {
    return bound(makePod().name("other").label(key, value));
  }

  static Stream<PodCase> podCases() {
    Pod affinity = makePod().name("p").podAffinityIn("service", "region", SCAN).obj();
    Pod anti = makePod().name("p").podAntiAffinityIn("service", "region", SCAN).obj();
    Pod twoTerms = makePod().name("p").podAffinityExists("aaa", "hostname").podAffinityExists("bbb", "hostname")
        .obj();
    return Stream.of(
        new PodCase("add a pod which matches the pod affinity", affinity, null,
            bound(makePod().label("service", "securityscan")), true),
        new PodCase("add an un-scheduled pod", affinity, null, makePod().label("service", "securityscan").obj(),
            false),
        new PodCase("add a pod which doesn't match the pod affinity", affinity, null,
            bound(makePod().label("aaa", "a")), false),
        new PodCase("update a pod from non-match to match pod affinity", affinity,
            other("aaa", "a"),
            other("service", "securityscan"), true),
        new PodCase("the updating pod matches target pod's affinity both before and after label changes", affinity,
            other("service", "value2"),
            other("service", "securityscan"), false),
        new PodCase("update an un-scheduled pod", affinity, makePod().name("other").label("aaa", "a").obj(),
            makePod().name("other").label("service", "securityscan").obj(), false),
        new PodCase("update a pod from match to non-match the pod affinity", affinity,
            other("service", "securityscan"),
            other("aaa", "a"), false),
        new PodCase("update a pod from match to non-match pod's affinity - multiple terms case", twoTerms,
            other("aaa", "a"),
            other("service", "securityscan"), false),
        new PodCase("update a pod from non-match to match pod's affinity - multiple terms case", twoTerms,
            other("aaa", "a"),
            bound(makePod().name("other").label("aaa", "").label("bbb", "")), true),
        new PodCase("updated pod is the target pod", makePod().name("p").label("foo", "baz").obj(),
            makePod().name("p").label("foo", "bar").obj(), makePod().name("p").label("foo", "baz").obj(), true),
        new PodCase("modify pod label to change it from satisfying pod anti-affinity to not satisfying anti-affinity",
            anti, other("service", "securityscan"),
            other("service", "aaaa"), true),
        new PodCase("modify pod label to change it from not satisfying pod anti-affinity to satisfying anti-affinity",
            anti, other("service", "bbb"),
            other("service", "securityscan"), false),
        new PodCase("delete a pod which doesn't match pod's anti-affinity", anti,
            other("aaa", "a"), null, false),
        new PodCase("delete a pod which matches pod's anti-affinity", anti,
            other("service", "securityscan"), null, true),
        new PodCase("delete a pod with anti-affinity that matches pending pod",
            makePod().name("p").label("service", "securityscan").obj(),
            bound(makePod().podAntiAffinityIn("service", "region", SCAN)), null, true),
        new PodCase("delete a pod with anti-affinity that doesn't match pending pod",
            makePod().name("p").label("service", "foo").obj(),
            bound(makePod().podAntiAffinityIn("service", "region", SCAN)), null, false),
        new PodCase("delete a pod which doesn't match pending pod's anti-affinity and has anti-affinity that doesn't"
            + " match pending pod", makePod().name("p").podAntiAffinityIn("service", "region", SCAN)
            .label("service", "foo").obj(),
            bound(makePod().podAntiAffinityIn("service", "region", SCAN).label("service", "foo")), null, false));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("podCases")
  void isSchedulableAfterPodChange(PodCase c) {
    ClusterEvent event = c.oldPod() == null ? ClusterEvent.ASSIGNED_POD_ADD
        : c.newPod() == null ? ClusterEvent.ASSIGNED_POD_DELETE : ClusterEvent.ASSIGNED_POD_UPDATE;
    assertThat(PLUGIN.isSchedulableAfter(c.pod(), event, c.oldPod(), c.newPod())).isEqualTo(c.queue());
  }

  record NodeCase(String name, Pod pod, @Nullable Node oldNode, Node newNode, boolean queue) {
    @Override
    public String toString() {
      return name;
    }
  }

  private static Node node(String... kv) {
    return Fixtures.node("node-a", labels(kv));
  }

  static Stream<NodeCase> nodeCases() {
    Pod affinity = makePod().name("p").podAffinityIn("service", "zone", SCAN).obj();
    LabelSelector another = new LabelSelector(Map.of("another", "label"), List.of());
    Pod anti = makePod().name("p").requiredAntiAffinity(term(another, "zone")).obj();
    return Stream.of(
        // affinity
        new NodeCase("add a new node with matched pod affinity topologyKey", affinity, null, node("zone", "zone1"),
            true),
        new NodeCase("add a new node without matched topologyKey",
            makePod().name("p").podAffinityIn("service", "region", SCAN).obj(), null, node("zone", "zone1"), false),
        new NodeCase("update node label but not topologyKey", affinity, node("aaa", "a"), node("aaa", "b"), false),
        new NodeCase("update node label that isn't related to the pod affinity", affinity, node("zone", "zone1"),
            node("zone", "zone1", "unrelated-label", "unrelated"), false),
        new NodeCase("update node with different affinity topologyKey value", affinity, node("zone", "zone1"),
            node("zone", "zone2"), true),
        new NodeCase("update node to have the affinity topology label", affinity, node("aaa", "a"),
            node("zone", "zone1"), true),
        // anti-affinity
        new NodeCase("add a new node with matched pod anti-affinity topologyKey", anti, null, node("zone", "zone1"),
            true),
        new NodeCase("add a new node without matched pod anti-affinity topologyKey", anti, null, node(), true),
        new NodeCase("update node label that isn't related to the pod anti-affinity", anti, node("zone", "zone1"),
            node("zone", "zone1", "unrelated-label", "unrelated"), false),
        new NodeCase("update node with different anti-affinity topologyKey value", anti, node("zone", "zone1"),
            node("zone", "zone2"), true),
        new NodeCase("update node to have the anti-affinity topology label", anti, node("aaa", "a"),
            node("zone", "zone1"), false),
        new NodeCase("update node label not to have anti-affinity topology label", anti, node("zone", "zone1"),
            node("aaa", "a"), true));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("nodeCases")
  void isSchedulableAfterNodeChange(NodeCase c) {
    ClusterEvent event = c.oldNode() == null ? ClusterEvent.NODE_ADD : ClusterEvent.NODE_UPDATE;
    assertThat(PLUGIN.isSchedulableAfter(c.pod(), event, c.oldNode(), c.newNode())).isEqualTo(c.queue());
  }

  @Test
  void eventWithoutItsObjects_requeues() {
    Pod affinity = makePod().name("p").podAffinityIn("service", "zone", SCAN).obj();
    for (ClusterEvent e : List.of(ClusterEvent.ASSIGNED_POD_ADD, ClusterEvent.ASSIGNED_POD_DELETE,
        ClusterEvent.NODE_ADD, ClusterEvent.NODE_UPDATE)) {
      assertThat(PLUGIN.isSchedulableAfter(affinity, e, null, null)).as(e.name()).isTrue();
    }
  }

  @Test
  void scheduler_parkedPodIsRetriedOnlyForABoundPodItsTermsMatch() {
    ManualClock clock = ManualClock.atEpoch2026();
    try (ObjectStore store = ObjectStore.builder().directDelivery().clock(clock.asClock()).build();
        Scheduler s = Scheduler.builder().clock(clock).store(store).profile(DefaultPlugins.profile()).build()) {
      store.create(Node.builder().name("node1").label("region", "r1")
          .capacity(ResourceList.builder().put("cpu", "4").put("memory", "8Gi").put("pods", "110").build())
          .ready().build());
      store.create(makePod().name("app").namespace("default")
          .requiredAffinity(term(selector(in("service", "securityscan")), "region")).obj());
      try (StoreScheduler feed = s.attach(store)) {
        s.runUntilIdle();
        clock.advance(Duration.ofMinutes(1)); // past any backoff, well before the five-minute flush
        s.runUntilIdle();
        PendingPod parked = s.pending().stream().filter(p -> p.podKey().equals("default/app")).findFirst()
            .orElseThrow();
        assertThat(parked.queue()).isEqualTo(PendingPod.Queue.UNSCHEDULABLE);

        store.create(makePod().name("other").namespace("default").node("node1").label("service", "web").obj());
        s.runUntilIdle();
        PendingPod still = s.pending().stream().filter(p -> p.podKey().equals("default/app")).findFirst()
            .orElseThrow();
        assertThat(still.queue()).isEqualTo(PendingPod.Queue.UNSCHEDULABLE);
        assertThat(still.attempts()).as("an unrelated pod does not retry it").isEqualTo(parked.attempts());

        store.create(makePod().name("scanner").namespace("default").node("node1").label("service", "securityscan")
            .obj());
        s.runUntilIdle();
        assertThat(store.require(Pod.class, "default", "app").spec().nodeName()).isEqualTo("node1");
      }
    }
  }
}
