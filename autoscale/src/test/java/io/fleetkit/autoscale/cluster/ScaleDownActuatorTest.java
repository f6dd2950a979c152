package io.fleetkit.autoscale.cluster;

import static io.fleetkit.autoscale.cluster.ActuationFixtures.dsPods;
import static io.fleetkit.autoscale.cluster.ActuationFixtures.removablePod;
import static io.fleetkit.autoscale.cluster.ActuationFixtures.removablePods;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Upstream's {@code TestStartDeletion} (kubernetes/autoscaler {@code cluster-autoscaler/core/scaledown/actuation/
 * actuator_test.go}, commit 008dc501): its {@code getStartDeletionTestCases} twice, as upstream runs them, with
 * IgnoreDaemonSetsUtilization false (suffix "testNg1") and true ("testNg2",
 * {@link AutoscalerOptions#ignoreDaemonSetsUtilization()}); the two sets differ only in the utilization of the nodes
 * holding DaemonSet pods alone (upstream's {@code dsUtilInfo}: 2/8, or 0/8 when those pods are ignored). Each case puts
 * its nodes and pods in a store whose admission fails the case's taints, evictions and node deletions (upstream's fake
 * client and cloud provider hooks, {@link ActuationFixtures}); the options of upstream's test (MaxScaleDownParallelism
 * 10, MaxDrainParallelism 5, MaxPodEvictionTime 0, DaemonSetEvictionForEmptyNodes, MaxGracefulTerminationSec 60, an
 * evictor with zero retry time) and a zero batcher interval. Checked as upstream: the status (result, error,
 * scaled-down nodes with their evicted pods and utilization), the deleted nodes, the evicted pods, every taint update
 * of every node, and the deletion results a second {@code StartDeletion} returns.
 *
 * <p>Upstream sets IgnoreDaemonSetsUtilization on its "test" node group only (its atomic groups keep the default,
 * false); FleetKit's option applies to every pool. No atomic group of the table holds a DaemonSet pod, so the cases
 * come out the same either way.
 *
 * <p>Not ported, in either set: "failure to taint drain atomic node stops further deletion and cleans already applied
 * taints" (its six-node atomic group against MaxDrainParallelism 5 is decided by upstream's budget processor, which
 * this version's actuator does not have: FleetKit's planner crops atomic pools before actuation).
 */
final class ScaleDownActuatorTest {
  private static final int MAX_GRACEFUL_TERMINATION = 60;

  /** One case of upstream's table. */
  static final class Case {
    String name;
    boolean ignoreDaemonSetsUtilization;
    final List<String[]> empty = new ArrayList<>(); // {pool, prefix, from, to, atomic}
    final List<String[]> drain = new ArrayList<>();
    final Map<String, List<Pod>> pods = new LinkedHashMap<>();
    Set<String> failedPodDrain = Set.of();
    Set<String> failedNodeDeletion = Set.of();
    Set<String> failedNodeTaint = Set.of();
    ScaleDownStatus.Result wantResult = ScaleDownStatus.Result.NODE_DELETE_STARTED;
    /** node -> {pool, evicted pods (comma-separated), cpu utilization eighths}. */
    final Map<String, String[]> wantScaledDown = new TreeMap<>();
    boolean wantErr;
    List<String> wantDeletedPods = List.of();
    List<String> wantDeletedNodes = List.of();
    /** node -> per update, whether it carries the ToBeDeleted taint (true) or no taint (false). */
    final Map<String, List<Boolean>> wantTaintUpdates = new TreeMap<>();
    final Map<String, NodeDeleteResult.Type> wantResults = new TreeMap<>();
    /** node -> pod -> {timedOut, error, grace}. */
    final Map<String, Map<String, Object[]>> wantPodResults = new TreeMap<>();

    Case(String name) {
      this.name = name;
    }

    Case then(Consumer<Case> c) {
      c.accept(this);
      return this;
    }

    Case empty(String pool, int from, int to, boolean atomic) {
      empty.add(new String[] {pool, pool, "" + from, "" + to, "" + atomic});
      return this;
    }

    Case drain(String pool, int from, int to, boolean atomic) {
      drain.add(new String[] {pool, pool, "" + from, "" + to, "" + atomic});
      return this;
    }

    Case pods(String node, List<Pod> p) {
      pods.put(node, p);
      return this;
    }

    Case scaledDown(String node, String pool, int eighths, String... evicted) {
      wantScaledDown.put(node, new String[] {pool, String.join(",", evicted), "" + eighths});
      return this;
    }

    Case tainted(String node, boolean... updates) {
      List<Boolean> u = new ArrayList<>();
      for (boolean b : updates) {
        u.add(b);
      }
      wantTaintUpdates.put(node, u);
      return this;
    }

    Case result(String node, NodeDeleteResult.Type t) {
      wantResults.put(node, t);
      return this;
    }

    Case podResult(String node, String pod, boolean timedOut, boolean err, long grace) {
      wantPodResults.computeIfAbsent(node, k -> new TreeMap<>()).put(pod, new Object[] {timedOut, err, grace});
      return this;
    }

    @Override
    public String toString() {
      return name;
    }
  }

  private static final NodeDeleteResult.Type OK = NodeDeleteResult.Type.OK;

  static Stream<Case> cases() {
    return Stream.concat(cases(false, "testNg1"), cases(true, "testNg2"));
  }

  /**
   * Upstream's {@code getStartDeletionTestCases(testNg, ignoreDaemonSetsUtilization, suffix)}: the table, each name
   * followed by {@code suffix}.
   */
  static Stream<Case> cases(boolean ignoreDaemonSetsUtilization, String suffix) {
    // upstream's dsUtilInfo: two DaemonSet pods of 1 CPU on an 8-CPU node, or none counted when they are ignored
    int dsUtil = ignoreDaemonSetsUtilization ? 0 : 2;
    List<Case> c = new ArrayList<>();
    c.add(new Case("nothing to delete").then(k -> k.wantResult = ScaleDownStatus.Result.NO_NODE_DELETED));
    c.add(new Case("empty node deletion").empty("test", 0, 2, false)
        .scaledDown("test-node-0", "test", 0).scaledDown("test-node-1", "test", 0)
        .then(k -> k.wantDeletedNodes = List.of("test-node-0", "test-node-1"))
        .tainted("test-node-0", true).tainted("test-node-1", true)
        .result("test-node-0", OK).result("test-node-1", OK));
    c.add(new Case("empty atomic node deletion").empty("atomic-2", 0, 2, true)
        .scaledDown("atomic-2-node-0", "atomic-2", 0).scaledDown("atomic-2-node-1", "atomic-2", 0)
        .then(k -> k.wantDeletedNodes = List.of("atomic-2-node-0", "atomic-2-node-1"))
        .tainted("atomic-2-node-0", true).tainted("atomic-2-node-1", true)
        .result("atomic-2-node-0", OK).result("atomic-2-node-1", OK));
    c.add(new Case("deletion with drain").drain("test", 0, 2, false)
        .pods("test-node-0", removablePods(2, "test-node-0")).pods("test-node-1", removablePods(2, "test-node-1"))
        .scaledDown("test-node-0", "test", 2, "default/test-node-0-pod-0", "default/test-node-0-pod-1")
        .scaledDown("test-node-1", "test", 2, "default/test-node-1-pod-0", "default/test-node-1-pod-1")
        .then(k -> {
          k.wantDeletedNodes = List.of("test-node-0", "test-node-1");
          k.wantDeletedPods = List.of("test-node-0-pod-0", "test-node-0-pod-1", "test-node-1-pod-0",
              "test-node-1-pod-1");
        })
        .tainted("test-node-0", true).tainted("test-node-1", true)
        .result("test-node-0", OK).result("test-node-1", OK));
    c.add(new Case("empty and drain deletion work correctly together").empty("test", 0, 2, false)
        .drain("test", 2, 4, false)
        .pods("test-node-2", removablePods(2, "test-node-2")).pods("test-node-3", removablePods(2, "test-node-3"))
        .scaledDown("test-node-0", "test", 0).scaledDown("test-node-1", "test", 0)
        .scaledDown("test-node-2", "test", 2, "default/test-node-2-pod-0", "default/test-node-2-pod-1")
        .scaledDown("test-node-3", "test", 2, "default/test-node-3-pod-0", "default/test-node-3-pod-1")
        .then(k -> {
          k.wantDeletedNodes = List.of("test-node-0", "test-node-1", "test-node-2", "test-node-3");
          k.wantDeletedPods = List.of("test-node-2-pod-0", "test-node-2-pod-1", "test-node-3-pod-0",
              "test-node-3-pod-1");
        })
        .tainted("test-node-0", true).tainted("test-node-1", true).tainted("test-node-2", true)
        .tainted("test-node-3", true)
        .result("test-node-0", OK).result("test-node-1", OK).result("test-node-2", OK).result("test-node-3", OK));
    c.add(new Case("two atomic groups can be scaled down together").empty("atomic-2-mixed", 1, 2, true)
        .drain("atomic-2-mixed", 0, 1, true).drain("atomic-2-drain", 0, 2, true)
        .pods("atomic-2-mixed-node-0", removablePods(2, "atomic-2-mixed-node-0"))
        .pods("atomic-2-drain-node-0", removablePods(1, "atomic-2-drain-node-0"))
        .pods("atomic-2-drain-node-1", removablePods(2, "atomic-2-drain-node-1"))
        .scaledDown("atomic-2-mixed-node-1", "atomic-2-mixed", 0)
        .scaledDown("atomic-2-mixed-node-0", "atomic-2-mixed", 2, "default/atomic-2-mixed-node-0-pod-0",
            "default/atomic-2-mixed-node-0-pod-1")
        .scaledDown("atomic-2-drain-node-0", "atomic-2-drain", 1, "default/atomic-2-drain-node-0-pod-0")
        .scaledDown("atomic-2-drain-node-1", "atomic-2-drain", 2, "default/atomic-2-drain-node-1-pod-0",
            "default/atomic-2-drain-node-1-pod-1")
        .then(k -> {
          k.wantDeletedNodes = List.of("atomic-2-mixed-node-0", "atomic-2-mixed-node-1", "atomic-2-drain-node-0",
              "atomic-2-drain-node-1");
          k.wantDeletedPods = List.of("atomic-2-mixed-node-0-pod-0", "atomic-2-mixed-node-0-pod-1",
              "atomic-2-drain-node-0-pod-0", "atomic-2-drain-node-1-pod-0", "atomic-2-drain-node-1-pod-1");
        })
        .tainted("atomic-2-mixed-node-0", true).tainted("atomic-2-mixed-node-1", true)
        .tainted("atomic-2-drain-node-0", true).tainted("atomic-2-drain-node-1", true)
        .result("atomic-2-mixed-node-0", OK).result("atomic-2-mixed-node-1", OK)
        .result("atomic-2-drain-node-0", OK).result("atomic-2-drain-node-1", OK));
    c.add(new Case("atomic empty and drain deletion work correctly together").empty("atomic-4", 0, 2, true)
        .drain("atomic-4", 2, 4, true)
        .pods("atomic-4-node-2", removablePods(2, "atomic-4-node-2"))
        .pods("atomic-4-node-3", removablePods(2, "atomic-4-node-3"))
        .scaledDown("atomic-4-node-0", "atomic-4", 0).scaledDown("atomic-4-node-1", "atomic-4", 0)
        .scaledDown("atomic-4-node-2", "atomic-4", 2, "default/atomic-4-node-2-pod-0", "default/atomic-4-node-2-pod-1")
        .scaledDown("atomic-4-node-3", "atomic-4", 2, "default/atomic-4-node-3-pod-0", "default/atomic-4-node-3-pod-1")
        .then(k -> {
          k.wantDeletedNodes = List.of("atomic-4-node-0", "atomic-4-node-1", "atomic-4-node-2", "atomic-4-node-3");
          k.wantDeletedPods = List.of("atomic-4-node-2-pod-0", "atomic-4-node-2-pod-1", "atomic-4-node-3-pod-0",
              "atomic-4-node-3-pod-1");
        })
        .tainted("atomic-4-node-0", true).tainted("atomic-4-node-1", true).tainted("atomic-4-node-2", true)
        .tainted("atomic-4-node-3", true)
        .result("atomic-4-node-0", OK).result("atomic-4-node-1", OK).result("atomic-4-node-2", OK)
        .result("atomic-4-node-3", OK));
    c.add(new Case("failure to taint empty node stops deletion and cleans already applied taints")
        .empty("test", 0, 4, false).drain("test", 4, 5, false).pods("test-node-4", removablePods(2, "test-node-4"))
        .then(k -> {
          k.failedNodeTaint = Set.of("test-node-2");
          k.wantResult = ScaleDownStatus.Result.ERROR;
          k.wantErr = true;
        })
        .tainted("test-node-0", true, false).tainted("test-node-1", true, false));
    c.add(new Case("failure to taint empty atomic node stops deletion and cleans already applied taints")
        .empty("atomic-4-taints", 0, 4, true).drain("test", 4, 5, false)
        .pods("test-node-4", removablePods(2, "test-node-4"))
        .then(k -> {
          k.failedNodeTaint = Set.of("atomic-4-taints-node-2");
          k.wantResult = ScaleDownStatus.Result.ERROR;
          k.wantErr = true;
        })
        .tainted("atomic-4-taints-node-0", true, false).tainted("atomic-4-taints-node-1", true, false));
    c.add(new Case("failure to taint drain node stops further deletion and cleans already applied taints")
        .empty("test", 0, 2, false).drain("test", 2, 6, false)
        .pods("test-node-2", removablePods(2, "test-node-2")).pods("test-node-3", removablePods(2, "test-node-3"))
        .pods("test-node-4", removablePods(2, "test-node-4")).pods("test-node-5", removablePods(2, "test-node-5"))
        .then(k -> {
          k.failedNodeTaint = Set.of("test-node-2");
          k.wantResult = ScaleDownStatus.Result.ERROR;
          k.wantErr = true;
          k.wantDeletedNodes = List.of("test-node-0", "test-node-1");
        })
        .scaledDown("test-node-0", "test", 0).scaledDown("test-node-1", "test", 0)
        .tainted("test-node-0", true).tainted("test-node-1", true)
        .result("test-node-0", OK).result("test-node-1", OK));
    Case failedDrain = new Case("nodes that failed drain are correctly reported in results").drain("test", 0, 4, false);
    for (int i = 0; i < 4; i++) {
      String n = "test-node-" + i;
      failedDrain.pods(n, removablePods(3, n)).scaledDown(n, "test", 3, "default/" + n + "-pod-0",
          "default/" + n + "-pod-1", "default/" + n + "-pod-2");
    }
    c.add(failedDrain.then(k -> {
      k.failedPodDrain = Set.of("test-node-0-pod-0", "test-node-0-pod-1", "test-node-2-pod-1");
      k.wantDeletedNodes = List.of("test-node-1", "test-node-3");
      k.wantDeletedPods = List.of("test-node-0-pod-2", "test-node-1-pod-0", "test-node-1-pod-1", "test-node-1-pod-2",
          "test-node-2-pod-0", "test-node-2-pod-2", "test-node-3-pod-0", "test-node-3-pod-1", "test-node-3-pod-2");
    }).tainted("test-node-0", true, false).tainted("test-node-1", true).tainted("test-node-2", true, false)
        .tainted("test-node-3", true)
        .result("test-node-0", NodeDeleteResult.Type.FAILED_TO_EVICT_PODS).result("test-node-1", OK)
        .result("test-node-2", NodeDeleteResult.Type.FAILED_TO_EVICT_PODS).result("test-node-3", OK)
        .podResult("test-node-0", "test-node-0-pod-0", true, true, 0)
        .podResult("test-node-0", "test-node-0-pod-1", true, true, 0)
        .podResult("test-node-0", "test-node-0-pod-2", false, false, 30)
        .podResult("test-node-2", "test-node-2-pod-0", false, false, 30)
        .podResult("test-node-2", "test-node-2-pod-1", true, true, 0)
        .podResult("test-node-2", "test-node-2-pod-2", false, false, 30));
    c.add(new Case("node drain limits termination grace period to MaxGracefulTerminationSec")
        .drain("test", 0, 1, false)
        .pods("test-node-0", List.of(removablePod("test-node-0-pod-0", "test-node-0", MAX_GRACEFUL_TERMINATION - 10),
            removablePod("test-node-0-pod-1", "test-node-0", MAX_GRACEFUL_TERMINATION),
            removablePod("test-node-0-pod-2", "test-node-0", MAX_GRACEFUL_TERMINATION + 10),
            removablePod("test-node-0-pod-3", "test-node-0"), removablePod("test-node-0-pod-4", "test-node-0")))
        .scaledDown("test-node-0", "test", 5, "default/test-node-0-pod-0", "default/test-node-0-pod-1",
            "default/test-node-0-pod-2", "default/test-node-0-pod-3", "default/test-node-0-pod-4")
        .then(k -> {
          k.failedPodDrain = Set.of("test-node-0-pod-4");
          k.wantDeletedPods = List.of("test-node-0-pod-0", "test-node-0-pod-1", "test-node-0-pod-2",
              "test-node-0-pod-3");
        })
        .tainted("test-node-0", true, false).result("test-node-0", NodeDeleteResult.Type.FAILED_TO_EVICT_PODS)
        .podResult("test-node-0", "test-node-0-pod-0", false, false, MAX_GRACEFUL_TERMINATION - 10)
        .podResult("test-node-0", "test-node-0-pod-1", false, false, MAX_GRACEFUL_TERMINATION)
        .podResult("test-node-0", "test-node-0-pod-2", false, false, MAX_GRACEFUL_TERMINATION)
        .podResult("test-node-0", "test-node-0-pod-3", false, false, 30)
        .podResult("test-node-0", "test-node-0-pod-4", true, true, 0));
    c.add(new Case("nodes that failed deletion are correctly reported in results").empty("test", 0, 2, false)
        .drain("test", 2, 4, false)
        .pods("test-node-2", removablePods(2, "test-node-2")).pods("test-node-3", removablePods(2, "test-node-3"))
        .scaledDown("test-node-0", "test", 0).scaledDown("test-node-1", "test", 0)
        .scaledDown("test-node-2", "test", 2, "default/test-node-2-pod-0", "default/test-node-2-pod-1")
        .scaledDown("test-node-3", "test", 2, "default/test-node-3-pod-0", "default/test-node-3-pod-1")
        .then(k -> {
          k.failedNodeDeletion = Set.of("test-node-1", "test-node-3");
          k.wantDeletedNodes = List.of("test-node-0", "test-node-2");
          k.wantDeletedPods = List.of("test-node-2-pod-0", "test-node-2-pod-1", "test-node-3-pod-0",
              "test-node-3-pod-1");
        })
        .tainted("test-node-0", true).tainted("test-node-1", true, false).tainted("test-node-2", true)
        .tainted("test-node-3", true, false)
        .result("test-node-0", OK).result("test-node-1", NodeDeleteResult.Type.FAILED_TO_DELETE)
        .result("test-node-2", OK).result("test-node-3", NodeDeleteResult.Type.FAILED_TO_DELETE));
    c.add(new Case("DS pods are evicted from empty nodes, but don't block deletion on error")
        .empty("test", 0, 2, false).pods("test-node-0", dsPods(2, "test-node-0"))
        .pods("test-node-1", dsPods(2, "test-node-1"))
        .scaledDown("test-node-0", "test", dsUtil).scaledDown("test-node-1", "test", dsUtil)
        .then(k -> {
          k.failedPodDrain = Set.of("test-node-1-ds-pod-0");
          k.wantDeletedNodes = List.of("test-node-0", "test-node-1");
          k.wantDeletedPods = List.of("test-node-0-ds-pod-0", "test-node-0-ds-pod-1", "test-node-1-ds-pod-1");
        })
        .tainted("test-node-0", true).tainted("test-node-1", true)
        .result("test-node-0", OK).result("test-node-1", OK));
    c.add(new Case("DS pods and deletion with drain").drain("test", 0, 2, false)
        .pods("test-node-0", dsPods(2, "test-node-0")).pods("test-node-1", dsPods(2, "test-node-1"))
        // no evicted pods: DaemonSetEvictionForOccupiedNodes is off in upstream's suite
        .scaledDown("test-node-0", "test", dsUtil).scaledDown("test-node-1", "test", dsUtil)
        .then(k -> k.wantDeletedNodes = List.of("test-node-0", "test-node-1"))
        .tainted("test-node-0", true).tainted("test-node-1", true)
        .result("test-node-0", OK).result("test-node-1", OK));
    c.add(new Case("DS pods and empty and drain deletion work correctly together").empty("test", 0, 2, false)
        .drain("test", 2, 4, false)
        .pods("test-node-2", removablePods(2, "test-node-2")).pods("test-node-3", dsPods(2, "test-node-3"))
        .scaledDown("test-node-0", "test", 0).scaledDown("test-node-1", "test", 0)
        .scaledDown("test-node-2", "test", 2, "default/test-node-2-pod-0", "default/test-node-2-pod-1")
        .scaledDown("test-node-3", "test", dsUtil)
        .then(k -> {
          k.wantDeletedNodes = List.of("test-node-0", "test-node-1", "test-node-2", "test-node-3");
          // upstream lists no deleted pods here ("same as evicted pods") and reads at most that many from its channel;
          // test-node-2's evictions happen all the same
          k.wantDeletedPods = List.of("test-node-2-pod-0", "test-node-2-pod-1");
        })
        .tainted("test-node-0", true).tainted("test-node-1", true).tainted("test-node-2", true)
        .tainted("test-node-3", true)
        .result("test-node-0", OK).result("test-node-1", OK).result("test-node-2", OK).result("test-node-3", OK));
    c.add(new Case("nodes with pods are not deleted if the node is passed as empty").empty("test", 0, 2, false)
        .pods("test-node-0", removablePods(2, "test-node-0")).pods("test-node-1", removablePods(2, "test-node-1"))
        .scaledDown("test-node-0", "test", 2).scaledDown("test-node-1", "test", 2)
        .tainted("test-node-0", true, false).tainted("test-node-1", true, false)
        .result("test-node-0", NodeDeleteResult.Type.INTERNAL).result("test-node-1", NodeDeleteResult.Type.INTERNAL));
    c.add(new Case("atomic nodes with pods are not deleted if the node is passed as empty").empty("test", 0, 2, false)
        .empty("atomic-2-pods", 0, 2, true)
        .pods("test-node-1", removablePods(2, "test-node-1"))
        .pods("atomic-2-pods-node-1", removablePods(2, "atomic-2-pods-node-1"))
        .scaledDown("test-node-0", "test", 0).scaledDown("test-node-1", "test", 2)
        .scaledDown("atomic-2-pods-node-0", "atomic-2-pods", 0).scaledDown("atomic-2-pods-node-1", "atomic-2-pods", 2)
        .then(k -> k.wantDeletedNodes = List.of("test-node-0"))
        .tainted("test-node-0", true).tainted("test-node-1", true, false).tainted("atomic-2-pods-node-0", true, false)
        .tainted("atomic-2-pods-node-1", true, false)
        .result("test-node-0", OK).result("test-node-1", NodeDeleteResult.Type.INTERNAL)
        .result("atomic-2-pods-node-0", NodeDeleteResult.Type.FAILED_TO_DELETE)
        .result("atomic-2-pods-node-1", NodeDeleteResult.Type.INTERNAL));
    for (Case k : c) {
      k.name = k.name + " " + suffix;
      k.ignoreDaemonSetsUtilization = ignoreDaemonSetsUtilization;
    }
    return c.stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void startDeletion_upstreamCase_matchesUpstream(Case tc) {
    ActuationFixtures f = new ActuationFixtures();
    List<Node> empty = new ArrayList<>();
    List<Node> drain = new ArrayList<>();
    for (String[] e : tc.empty) {
      empty.addAll(f.nodes(ActuationFixtures.pool(e[0], Boolean.parseBoolean(e[4])), e[1], Integer.parseInt(e[2]),
          Integer.parseInt(e[3])));
    }
    for (String[] d : tc.drain) {
      drain.addAll(f.nodes(ActuationFixtures.pool(d[0], Boolean.parseBoolean(d[4])), d[1], Integer.parseInt(d[2]),
          Integer.parseInt(d[3])));
    }
    for (List<Pod> p : tc.pods.values()) {
      f.create(p);
    }
    f.failedPodDrain.addAll(tc.failedPodDrain);
    f.failedNodeDeletion.addAll(tc.failedNodeDeletion);
    f.failedNodeTaint.addAll(tc.failedNodeTaint);
    AutoscalerOptions opts = AutoscalerOptions.defaults().withMaxEmptyBulkDelete(10).withMaxDrainParallelism(5)
        .withMaxPodEvictionTime(Duration.ZERO).withDaemonSetEvictionForEmptyNodes(true)
        .withDaemonSetEvictionForOccupiedNodes(false).withMaxGracefulTerminationSec(MAX_GRACEFUL_TERMINATION)
        .withIgnoreDaemonSetsUtilization(tc.ignoreDaemonSetsUtilization)
        // upstream's test leaves NodeDeleteDelayAfterTaint and CordonNodeBeforeTerminate at their zero values
        .withNodeDeleteDelayAfterTaint(Duration.ZERO).withCordonNodeBeforeTerminating(false);
    ScaleDownActuator a = ScaleDownActuator.overStore(f.store, opts,
        new ScaleDownEvictor.Timing(MAX_GRACEFUL_TERMINATION, Duration.ZERO, Duration.ZERO,
            ScaleDownEvictor.POD_EVICTION_HEADROOM));

    ScaleDownStatus got = a.startDeletion(empty, drain, f.clock.instant());
    f.runUntilIdle(a);

    assertThat(got.result()).isEqualTo(tc.wantResult);
    assertThat(got.error() != null).as("error %s", got.error()).isEqualTo(tc.wantErr);
    Map<String, String[]> scaledDown = new TreeMap<>();
    for (ScaleDownStatus.ScaleDownNode n : got.scaledDownNodes()) {
      assertThat(n.utilization().memory()).isEqualTo(n.utilization().cpu());
      scaledDown.put(n.node(), new String[] {n.pool(), String.join(",", n.evictedPods()),
          "" + Math.round(n.utilization().cpu() * 8)});
    }
    assertThat(scaledDown).usingRecursiveComparison().isEqualTo(tc.wantScaledDown);
    assertThat(f.deletedNodes).containsExactlyInAnyOrderElementsOf(tc.wantDeletedNodes);
    for (String n : tc.wantDeletedNodes) {
      assertThat(f.store.get(Node.class, "", n)).as(n).isEmpty();
    }
    assertThat(f.evictedPods).containsExactlyInAnyOrderElementsOf(tc.wantDeletedPods);
    Map<String, List<Boolean>> taints = new TreeMap<>();
    f.taintUpdates.forEach((node, updates) -> {
      List<Boolean> u = new ArrayList<>();
      for (List<String> keys : updates) {
        assertThat(keys).isSubsetOf(ClusterAutoscaler.TO_BE_DELETED_TAINT + ":NoSchedule");
        u.add(!keys.isEmpty());
      }
      taints.put(node, u);
    });
    assertThat(taints).isEqualTo(tc.wantTaintUpdates);

    // as upstream: a second StartDeletion with nothing returns the results of the deletions started by the first
    Map<String, NodeDeleteResult> results = a.startDeletion(List.of(), List.of(), f.clock.instant())
        .nodeDeleteResults();
    Map<String, NodeDeleteResult.Type> types = new TreeMap<>();
    results.forEach((n, r) -> types.put(n, r.type()));
    assertThat(types).isEqualTo(tc.wantResults);
    for (Map.Entry<String, NodeDeleteResult> e : results.entrySet()) {
      NodeDeleteResult r = e.getValue();
      assertThat(r.error() == null).isEqualTo(r.type() == OK);
      Map<String, Object[]> wantPods = tc.wantPodResults.getOrDefault(e.getKey(), Map.of());
      Map<String, Object[]> gotPods = new TreeMap<>();
      r.podEvictionResults().forEach((p, pr) -> gotPods.put(p,
          new Object[] {pr.timedOut(), pr.error() != null, pr.gracePeriodSeconds()}));
      assertThat(gotPods).as("pod results of %s", e.getKey()).usingRecursiveComparison().isEqualTo(wantPods);
    }
  }
}
