package io.fleetkit.simulator;

import io.fleetkit.api.simulation.FaultType;
import io.fleetkit.api.simulation.ScenarioFault;
import io.fleetkit.api.core.GpuDevice;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.resource.ResourceNames;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Schedules a scenario's GPU device faults ({@link GpuDeviceFaults} for a node's {@code nvidia.com/gpu}, or
 * {@link DraDeviceFaults} when the node has none and its GPUs are Dynamic Resource Allocation devices) and API slowness ({@link Simulation#apiLatency})
 * on the simulation's clock, with their recoveries, and puts them on the timeline: {@code GpuDeviceFailed} /
 * {@code GpuDeviceRecovered} on the node, {@code ApiSlow} / {@code ApiRecovered} on {@code API}, kubelet restarts
 * ({@link Simulation#restartKubelet}) as {@code KubeletRestarted} on the node; a device fault or restart whose node was
 * deleted before its time records {@link ClusterSimulation#FAULT_SKIPPED} instead and has no recovery.
 * Stateless.
 */
final class FaultInjection {
  private FaultInjection() {}

  static void schedule(Simulation sim, ScenarioFault f) {
    Duration rec = f.recoverAfter();
    if (f.type() == FaultType.GpuDeviceFault) {
      List<List<GpuDevice>> listed = new ArrayList<>(); // the node's devices before the fault
      List<String> taintRules = new ArrayList<>(); // for DRA devices: the rules tainting them
      sim.clock().schedule(f.at(), () -> {
        Node node = sim.store().get(Node.class, "", f.target()).orElse(null);
        if (node == null) {
          sim.record(ClusterSimulation.FAULT_SKIPPED, "Node/" + f.target(), "GpuDeviceFault: the node no longer"
              + " exists (deleted since the start, for example scaled down); nothing failed");
          return;
        }
        listed.add(node.status().gpus());
        if (node.allocatable().value(ResourceNames.NVIDIA_GPU) == 0) {
          // the node's GPUs are Dynamic Resource Allocation devices: DeviceTaintRules take them out of service
          taintRules.addAll(DraDeviceFaults.fail(sim.store(), f.target(), f.devices(), sim.clock().now()));
          sim.record("GpuDeviceFailed", "Node/" + f.target(), taintRules.size() + " DRA device(s) tainted NoExecute"
              + (taintRules.isEmpty() ? "" : " by DeviceTaintRule " + String.join(", ", taintRules)));
          return;
        }
        List<String> evicted = GpuDeviceFaults.fail(sim.store(), f.target(), f.devices(), sim.clock().now());
        sim.record("GpuDeviceFailed", "Node/" + f.target(), f.devices() + " nvidia.com/gpu device(s) unhealthy"
            + (evicted.isEmpty() ? "" : "; evicted " + String.join(", ", evicted)));
      });
      if (rec != null) {
        sim.clock().schedule(f.at().plus(rec), () -> {
          if (listed.isEmpty()) {
            return; // the fault was skipped
          }
          if (!taintRules.isEmpty()) {
            DraDeviceFaults.heal(sim.store(), taintRules);
            sim.record("GpuDeviceRecovered", "Node/" + f.target(), taintRules.size() + " DRA device(s) untainted");
            return;
          }
          GpuDeviceFaults.heal(sim.store(), f.target(), f.devices(), listed.get(0));
          sim.record("GpuDeviceRecovered", "Node/" + f.target(), f.devices() + " nvidia.com/gpu device(s) healthy");
        });
      }
    } else if (f.type() == FaultType.ApiSlowness) {
      Duration latency = Objects.requireNonNull(f.latency(), "latency");
      sim.clock().schedule(f.at(), () -> {
        sim.apiLatency(latency);
        sim.record("ApiSlow", "API", "every API round trip takes " + latency.toMillis() + " ms");
      });
      if (rec != null) {
        sim.clock().schedule(f.at().plus(rec), () -> {
          sim.apiLatency(Duration.ZERO);
          sim.record("ApiRecovered", "API", "the API answers promptly again");
        });
      }
    } else if (f.type() == FaultType.KubeletRestart) {
      sim.clock().schedule(f.at(), () -> {
        if (sim.agents().containsKey(f.target())) {
          sim.restartKubelet(f.target());
        } else {
          sim.record(ClusterSimulation.FAULT_SKIPPED, "Node/" + f.target(), "KubeletRestart: the node no longer"
              + " exists (deleted since the start, for example scaled down); nothing restarted");
        }
      });
    } else {
      throw new IllegalArgumentException("fault injection: " + f.type() + " is scheduled by the simulation itself");
    }
  }
}
