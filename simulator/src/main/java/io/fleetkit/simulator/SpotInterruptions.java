package io.fleetkit.simulator;

import io.fleetkit.api.autoscaling.NodePool;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.simulation.ScenarioFault;
import io.fleetkit.reconcile.node.CloudInstances;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;
import org.jspecify.annotations.Nullable;

/**
 * The simulated cloud's spot capacity: the scenario's {@code spotInterruption} faults, and the answers of the cloud
 * the {@link io.fleetkit.reconcile.node.CloudNodeLifecycleController} asks. At a fault's time the cloud picks that
 * many Ready nodes of the NodePool (by the run's seed and the fault's place in the scenario, so a run repeats; fewer
 * when the pool has fewer) and records {@value #WARNING} on each, as a cloud's interruption notice; {@code notice}
 * later their machines are gone: the kubelet stops ({@value #INTERRUPTED}) and the cloud answers that the machine no
 * longer exists, so the cloud node lifecycle controller deletes the node once it is not Ready. With the provisioner,
 * the warning begins the node's termination ({@value #DRAINING}: tainted and drained, as Karpenter's interruption
 * controller does; {@link #onNotice}), so its pods move before the machine goes. A fault that finds no
 * Ready node of its pool records {@link ClusterSimulation#FAULT_SKIPPED}. Not thread-safe: the simulation's thread
 * only.
 */
final class SpotInterruptions implements CloudInstances {
  /** The timeline kind of an interruption notice, on the node. */
  static final String WARNING = "SpotInterruptionWarning";
  /** The timeline kind of a warned node the provisioner starts terminating, on the node. */
  static final String DRAINING = "InterruptionDrain";
  /** The timeline kind of a spot machine taken back, on the node. */
  static final String INTERRUPTED = "SpotInterrupted";

  /** The nodes whose machines are gone: name to uid (a later node of the same name is another machine). */
  private final Map<String, String> gone = new HashMap<>();
  private @Nullable Simulation sim;
  /** The nodes warned and not gone yet: another interruption does not pick them again. */
  private final Set<String> warned = new HashSet<>();
  /** Told of each node warned, at its notice. */
  private final List<java.util.function.BiConsumer<Simulation, String>> noticeHooks = new ArrayList<>();

  /** Runs {@code hook} for each node warned, at the warning (the provisioner's interruption handling). */
  void onNotice(java.util.function.BiConsumer<Simulation, String> hook) {
    noticeHooks.add(Objects.requireNonNull(hook, "hook"));
  }

  /** Schedules {@code f} (a spot interruption, the {@code index}-th fault of the scenario) in {@code sim}. */
  void schedule(Simulation sim, ScenarioFault f, int index) {
    Duration notice = Objects.requireNonNull(f.notice(), "notice");
    this.sim = sim;
    sim.clock().schedule(f.at(), () -> {
      List<String> ready = new ArrayList<>();
      for (Node n : sim.store().list(Node.class).items()) {
        if (f.target().equals(n.metadata().labels().get(NodePool.POOL_LABEL)) && n.isReady()
            && sim.agents().containsKey(n.name()) && !warned.contains(n.name())) {
          ready.add(n.name());
        }
      }
      if (ready.isEmpty()) {
        sim.record(ClusterSimulation.FAULT_SKIPPED, "NodePool/" + f.target(), "SpotInterruption: NodePool "
            + f.target() + " has no Ready node; nothing interrupted");
        return;
      }
      ready.sort(null);
      List<String> picked = pick(ready, f.nodes(), new SplittableRandom(sim.seed() * 31 + index));
      String goes = HtmlReport.clock(sim.elapsed().plus(notice));
      for (String name : picked) {
        warned.add(name);
        sim.record(WARNING, "Node/" + name, "the cloud takes the spot machine of NodePool " + f.target()
            + " back at " + goes + " (notice " + io.fleetkit.api.Violations.durationText(notice) + ")");
        for (java.util.function.BiConsumer<Simulation, String> h : noticeHooks) {
          h.accept(sim, name);
        }
      }
      sim.clock().schedule(notice, () -> {
        for (String name : picked) {
          warned.remove(name);
          Optional<Node> node = sim.store().get(Node.class, "", name);
          node.ifPresent(n -> gone.put(name, n.metadata().uid()));
          if (node.isPresent() && sim.agents().containsKey(name)) {
            sim.failNode(name, INTERRUPTED, "the cloud took the spot machine back: the kubelet stops; the cloud node"
                + " lifecycle controller deletes the node once it is not Ready");
          } else {
            sim.record(INTERRUPTED, "Node/" + name, "the cloud took the spot machine back; its node was already"
                + " deleted");
          }
        }
      });
    });
  }

  /** {@code count} of {@code names} (all when fewer), drawn without replacement, in the order drawn. */
  static List<String> pick(List<String> names, int count, SplittableRandom random) {
    List<String> left = new ArrayList<>(names);
    List<String> out = new ArrayList<>();
    while (out.size() < count && !left.isEmpty()) {
      out.add(left.remove(random.nextInt(left.size())));
    }
    return out;
  }

  @Override
  public Optional<Boolean> exists(String nodeName, String providerId) {
    String uid = gone.get(nodeName);
    if (uid == null) {
      return Optional.of(true);
    }
    Node node = Objects.requireNonNull(sim, "sim").store().get(Node.class, "", nodeName).orElse(null);
    if (node != null && !node.metadata().uid().equals(uid)) {
      gone.remove(nodeName); // a new machine under the old name
      return Optional.of(true);
    }
    return Optional.of(false);
  }

  @Override
  public Optional<Boolean> shutdown(String nodeName, String providerId) {
    return Optional.of(false);
  }
}
