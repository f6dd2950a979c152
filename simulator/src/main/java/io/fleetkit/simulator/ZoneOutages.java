package io.fleetkit.simulator;

import io.fleetkit.api.Violations;
import io.fleetkit.api.core.Node;
import io.fleetkit.autoscale.cluster.simulator.SimulatedNodes;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The zones a scenario's {@code zoneFailure} has taken down, and the machines that start in them. A machine an
 * autoscaler launches in a zone that is down, or that is still starting there when the zone fails, does not start
 * while the zone is down: its ready time is put off ({@link #HELD}, {@code NodeStartStalled} on the timeline). When the
 * zone is back it starts over, ready its start-up time after the recovery ({@code NodeStartResumed}). Meanwhile the
 * autoscaler sees a node that is late: {@code maxNodeProvisionTime} after the request it deletes it and backs the pool
 * off, as cluster-autoscaler does with an instance that never registers, and the next scale-up goes to another pool.
 * Not thread-safe: the simulation's thread only.
 */
final class ZoneOutages {
  /** The ready time of a machine held by a zone outage: after any run's end. */
  static final Instant HELD = Instant.parse("9999-12-31T23:59:59Z");

  private final StartupPhases startup;
  private final Set<String> down = new HashSet<>();
  /** The held nodes and their start-up time (ready time minus request time when they were held), in hold order. */
  private final Map<String, Duration> held = new LinkedHashMap<>();

  ZoneOutages(StartupPhases startup) {
    this.startup = startup;
  }

  /** Zone {@code zone} is down from now: the machines starting in it stop starting. */
  void failed(Simulation sim, String zone) {
    down.add(zone);
    for (Node n : sim.store().list(Node.class).items()) {
      if (zone.equals(zoneOf(n))) {
        hold(sim, n);
      }
    }
  }

  /** Zone {@code zone} is back: its held machines that still exist start now. */
  void recovered(Simulation sim, String zone) {
    down.remove(zone);
    List<String> resumed = new ArrayList<>();
    Instant now = sim.clock().now();
    for (var it = held.entrySet().iterator(); it.hasNext(); ) {
      Map.Entry<String, Duration> e = it.next();
      Node n = sim.store().get(Node.class, "", e.getKey()).orElse(null);
      if (n == null || !SimulatedNodes.isStarting(n)) {
        it.remove(); // deleted meanwhile (the autoscaler gave up on it)
        continue;
      }
      if (!zone.equals(zoneOf(n))) {
        continue;
      }
      it.remove();
      Instant readyAt = now.plus(e.getValue());
      sim.store().update(n.toBuilder().annotation(SimulatedNodes.READY_AT, readyAt.toString()).build());
      sim.record("NodeStartResumed", "Node/" + n.name(), "zone " + zone + " is back: the machine starts, ready in "
          + Violations.durationText(e.getValue()));
      resumed.add(n.name());
    }
    startup.launched(sim, resumed);
  }

  /** The nodes just launched: those in a zone that is down do not start. */
  void launched(Simulation sim, List<String> nodes) {
    if (down.isEmpty()) {
      return;
    }
    for (String name : nodes) {
      Node n = sim.store().get(Node.class, "", name).orElse(null);
      if (n != null && down.contains(zoneOf(n))) {
        hold(sim, n);
      }
    }
  }

  private void hold(Simulation sim, Node n) {
    Instant readyAt = SimulatedNodes.readyAt(n);
    Instant requested = SimulatedNodes.requestedAt(n);
    if (!SimulatedNodes.isStarting(n) || readyAt == null || held.containsKey(n.name())) {
      return;
    }
    Duration startupTime = requested == null || readyAt.isBefore(requested) ? Duration.ZERO
        : Duration.between(requested, readyAt);
    held.put(n.name(), startupTime);
    sim.store().update(n.toBuilder().annotation(SimulatedNodes.READY_AT, HELD.toString()).build());
    sim.record("NodeStartStalled", "Node/" + n.name(), "zone " + zoneOf(n)
        + " is down: the machine does not start until the zone is back");
  }

  private static String zoneOf(Node n) {
    return n.metadata().labels().get(ClusterSimulation.ZONE_LABEL);
  }
}
