package io.fleetkit.simulator;

import io.fleetkit.api.autoscaling.NodePool;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.simulation.ScenarioFault;
import io.fleetkit.autoscale.cluster.InstanceCreation;
import io.fleetkit.autoscale.cluster.InstanceErrorClass;
import io.fleetkit.autoscale.cluster.InstanceErrorInfo;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The simulated cloud's capacity: the scenario's {@code capacityStockout} faults, on the simulation's clock. While a
 * stockout of a NodePool (in one zone, or in every zone) lasts, the cloud refuses every machine of that pool there
 * that an autoscaler asks for, at once, with an out-of-capacity error ({@value #ERROR_CODE}, class
 * {@link InstanceErrorClass#OUT_OF_RESOURCES}); the autoscalers react as theirs do ({@link InstanceCreation}). The
 * timeline gets {@code CapacityStockout} and {@code CapacityRestored} on {@link #object} and a
 * {@code NodeCreateFailed} on the node for every refused machine. Overlapping stockouts of the same pool and zone end
 * with the last. Not thread-safe: the simulation's thread only.
 */
final class CapacityStockouts implements InstanceCreation {
  /** The cloud's error code of a refused machine (a cloud's "resource pool exhausted"). */
  static final String ERROR_CODE = "RESOURCE_POOL_EXHAUSTED";
  private static final String EVERY_ZONE = "";

  /** How many stockouts are on, by {@code pool/zone} ({@code pool/} for every zone). */
  private final Map<String, Integer> active = new HashMap<>();
  private @Nullable Simulation sim;

  /** Starts {@code f} (a capacity stockout) at its time in {@code sim}, and ends it after its recovery. */
  void schedule(Simulation simulation, ScenarioFault f) {
    this.sim = simulation;
    String key = f.target() + "/" + (f.zone() == null ? EVERY_ZONE : f.zone());
    String where = f.zone() == null ? "in every zone" : "in zone " + f.zone();
    simulation.clock().schedule(f.at(), () -> {
      active.merge(key, 1, Integer::sum);
      simulation.record("CapacityStockout", object(f), "the cloud is out of NodePool " + f.target() + "'s machines "
          + where + ": every new one is refused");
    });
    Duration rec = f.recoverAfter();
    if (rec != null) {
      simulation.clock().schedule(f.at().plus(rec), () -> {
        active.computeIfPresent(key, (k, n) -> n == 1 ? null : n - 1);
        simulation.record("CapacityRestored", object(f), "NodePool " + f.target() + "'s machines can be created "
            + where + " again");
      });
    }
  }

  /** The timeline object of a stockout: {@code NodePool/POOL}, or {@code NodePool/POOL/ZONE} for one zone. */
  static String object(ScenarioFault f) {
    return "NodePool/" + f.target() + (f.zone() == null ? "" : "/" + f.zone());
  }

  @Override
  public @Nullable InstanceErrorInfo create(Node node, Instant now) {
    if (active.isEmpty()) {
      return null;
    }
    String pool = node.metadata().labels().getOrDefault(NodePool.POOL_LABEL, "");
    String zone = node.metadata().labels().get(ClusterSimulation.ZONE_LABEL);
    boolean out = active.containsKey(pool + "/" + EVERY_ZONE) || zone != null && active.containsKey(pool + "/" + zone);
    if (!out) {
      return null;
    }
    String message = "no machine of NodePool " + pool + " available" + (zone == null ? "" : " in zone " + zone);
    Objects.requireNonNull(sim, "sim").record("NodeCreateFailed", "Node/" + node.name(), "the cloud refused the "
        + "machine: " + ERROR_CODE + ", " + message);
    return new InstanceErrorInfo(InstanceErrorClass.OUT_OF_RESOURCES, ERROR_CODE, message);
  }
}
