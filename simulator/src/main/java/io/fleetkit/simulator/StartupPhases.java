package io.fleetkit.simulator;

import io.fleetkit.api.Violations;
import io.fleetkit.api.autoscaling.NodePool;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.simulation.NodeStartup;
import io.fleetkit.api.simulation.StartupPhase;
import io.fleetkit.autoscale.cluster.simulator.SimulatedNodes;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The scenario's node start-up phases: each listed pool's {@code startupDelay} becomes its phases' total (so the
 * autoscaler that launches the node makes it Ready then), a launched node's phase changes go on the timeline
 * ({@code NodeProvisioning}, {@code NodeBooting}, {@code NodeDriver}, {@code NodeImagePull}; {@code NodeStarted}
 * follows when its kubelet runs), and a starting node's phase is read from the time since it was requested. Not
 * thread-safe.
 */
final class StartupPhases {
  private final Map<String, NodeStartup> byPool = new LinkedHashMap<>();

  StartupPhases(List<NodeStartup> phases) {
    for (NodeStartup ns : phases) {
      byPool.put(ns.pool(), ns);
    }
  }

  /** {@code objects} with each listed pool's start-up delay set to its phases' total. */
  List<ApiObject<?>> apply(List<ApiObject<?>> objects) {
    if (byPool.isEmpty()) {
      return objects;
    }
    List<ApiObject<?>> out = new ArrayList<>(objects.size());
    for (ApiObject<?> o : objects) {
      NodeStartup ns = o instanceof NodePool p ? byPool.get(p.metadata().name()) : null;
      if (ns != null) {
        NodePool p = (NodePool) o;
        o = p.withSpec(new io.fleetkit.api.autoscaling.NodePoolSpec(p.spec().template(), p.spec().minSize(),
            p.spec().maxSize(), ns.total(), p.spec().pricePerHour(), p.spec().zeroOrMaxNodeScaling()));
      }
      out.add(o);
    }
    return out;
  }

  /** The phases of pool {@code pool}, or {@code null} when the scenario gives none. */
  @Nullable NodeStartup of(@Nullable String pool) {
    return pool == null ? null : byPool.get(pool);
  }

  /**
   * The phase of a starting node of a listed pool at {@code now}; {@code null} for other nodes. Its phases run up to
   * its ready time, so a machine whose start a zone outage holds ({@link ZoneOutages}) is provisioning until the zone
   * is back, and then goes through its phases again.
   */
  @Nullable StartupPhase phase(Node n, Instant now) {
    if (byPool.isEmpty() || !SimulatedNodes.isStarting(n)) {
      return null;
    }
    NodeStartup ns = byPool.get(n.metadata().labels().get(NodePool.POOL_LABEL));
    Instant readyAt = SimulatedNodes.readyAt(n);
    if (ns == null || readyAt == null || SimulatedNodes.requestedAt(n) == null) {
      return null;
    }
    Instant started = readyAt.minus(ns.total());
    StartupPhase p = now.isBefore(started) ? StartupPhase.Provisioning : ns.phaseAt(Duration.between(started, now));
    // past its phases but not yet flipped Ready by the autoscaler's next loop: still pulling
    return p == StartupPhase.Ready ? StartupPhase.ImagePull : p;
  }

  /**
   * Whether the DRA drivers of node {@code n} run at {@code now}: it is Ready, or it is a starting node of a listed pool
   * past its driver phase (pulling images).
   */
  boolean driversRunning(Node n, Instant now) {
    return n.isReady() || phase(n, now) == StartupPhase.ImagePull;
  }

  /**
   * Puts the phases of the just launched (or just resumed) {@code nodes} on the timeline, each at the time it starts,
   * while the node keeps the ready time it has now (a zone outage that holds it stops its phases).
   */
  void launched(Simulation sim, List<String> nodes) {
    if (byPool.isEmpty()) {
      return;
    }
    for (String name : nodes) {
      Node n = sim.store().get(Node.class, "", name).orElse(null);
      NodeStartup ns = n == null ? null : byPool.get(n.metadata().labels().get(NodePool.POOL_LABEL));
      Instant readyAt = n == null ? null : SimulatedNodes.readyAt(n);
      if (ns == null || readyAt == null || readyAt.equals(ZoneOutages.HELD)) {
        continue;
      }
      for (StartupPhase phase : List.of(StartupPhase.Provisioning, StartupPhase.Booting, StartupPhase.Driver,
          StartupPhase.ImagePull)) {
        Duration from = ns.start(phase);
        Duration length = ns.start(next(phase)).minus(from);
        if (length.isZero()) {
          continue;
        }
        String kind = "Node" + phase.name();
        String text = phase.label() + " for " + Violations.durationText(length);
        if (from.isZero()) {
          sim.record(kind, "Node/" + name, text);
        } else {
          sim.clock().schedule(from, () -> {
            if (sim.store().get(Node.class, "", name).filter(SimulatedNodes::isStarting)
                .map(x -> readyAt.equals(SimulatedNodes.readyAt(x))).orElse(false)) {
              sim.record(kind, "Node/" + name, text);
            }
          });
        }
      }
    }
  }

  private static StartupPhase next(StartupPhase p) {
    return StartupPhase.values()[p.ordinal() + 1];
  }
}
