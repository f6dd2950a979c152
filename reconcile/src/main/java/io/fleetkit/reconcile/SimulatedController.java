package io.fleetkit.reconcile;

import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import java.util.Objects;
import java.util.function.IntSupplier;

/**
 * A controller as a deterministic whole-cluster simulation (the simulator module's {@code Simulation}) drives it:
 * started once, then stepped on the simulation thread until it has nothing left to do at the current instant. Adapt
 * a stepping-mode controller with {@link #of}.
 */
public interface SimulatedController extends AutoCloseable {

  /** The controller's name (timeline, errors). */
  String name();

  /** Starts informers and the like; returns when they are synced. */
  void start();

  /**
   * Processes everything ready now.
   *
   * @return how many items it processed (0 when idle)
   */
  int runUntilIdle();

  /** Releases the controller's resources. */
  @Override
  void close();

  /** Creates a controller for one simulation run. */
  @FunctionalInterface
  interface Factory {
    /**
     * @param store the simulation's store (direct delivery)
     * @param clock the simulation's clock
     * @param seed the simulation's seed, for controllers that pick random names
     */
    SimulatedController create(ObjectStore store, ManualClock clock, long seed);
  }

  /** A controller from its three operations. */
  static SimulatedController of(String name, Runnable start, IntSupplier runUntilIdle, AutoCloseable close) {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(start, "start");
    Objects.requireNonNull(runUntilIdle, "runUntilIdle");
    Objects.requireNonNull(close, "close");
    return new SimulatedController() {
      @Override
      public String name() {
        return name;
      }

      @Override
      public void start() {
        start.run();
      }

      @Override
      public int runUntilIdle() {
        return runUntilIdle.getAsInt();
      }

      @Override
      public void close() {
        try {
          close.close();
        } catch (Exception e) {
          throw new IllegalStateException("simulated controller " + name + ": close failed: " + e.getMessage(), e);
        }
      }

      @Override
      public String toString() {
        return name;
      }
    };
  }
}
