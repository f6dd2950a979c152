package io.fleetkit.benchmarks.impl;

import com.netflix.fenzo.SchedulingResult;
import com.netflix.fenzo.TaskAssignmentResult;
import com.netflix.fenzo.TaskRequest;
import com.netflix.fenzo.TaskScheduler;
import com.netflix.fenzo.VMAssignmentResult;
import com.netflix.fenzo.VirtualMachineLease;
import com.netflix.fenzo.plugins.BinPackingFitnessCalculators;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.apache.mesos.Protos;

/**
 * Netflix Fenzo 0.13.8 as a peer: places {@code tasks} identical tasks on {@code hosts} identical hosts with its
 * CPU+memory bin-packing fitness, the way a Mesos framework would (one {@code scheduleOnce} over all tasks and
 * fresh leases; every assignment confirmed through the task assigner).
 */
public final class FenzoPeer {
  private FenzoPeer() {}

  /** Returns how many tasks Fenzo placed. */
  public static int placeAll(int hosts, double hostCpus, double hostMemMb, int tasks, double taskCpus,
      double taskMemMb) {
    TaskScheduler scheduler = new TaskScheduler.Builder()
        .withLeaseOfferExpirySecs(1_000_000)
        .withLeaseRejectAction(l -> { })
        .withFitnessCalculator(BinPackingFitnessCalculators.cpuMemBinPacker)
        .withFitnessGoodEnoughFunction(f -> f > 0.9)
        .build();
    try {
      List<VirtualMachineLease> leases = new ArrayList<>(hosts);
      for (int i = 0; i < hosts; i++) {
        leases.add(new Lease("lease-" + i, "host-" + i, hostCpus, hostMemMb));
      }
      List<TaskRequest> requests = new ArrayList<>(tasks);
      for (int i = 0; i < tasks; i++) {
        requests.add(new Task("task-" + i, taskCpus, taskMemMb));
      }
      SchedulingResult result = scheduler.scheduleOnce(requests, leases);
      int placed = 0;
      for (VMAssignmentResult vm : result.getResultMap().values()) {
        for (TaskAssignmentResult t : vm.getTasksAssigned()) {
          scheduler.getTaskAssigner().call(t.getRequest(), vm.getHostname());
          placed++;
        }
      }
      return placed;
    } finally {
      scheduler.shutdown();
    }
  }

  private record Lease(String id, String host, double cpus, double memMb) implements VirtualMachineLease {
    @Override public String getId() { return id; }
    @Override public long getOfferedTime() { return 0; }
    @Override public String hostname() { return host; }
    @Override public String getVMID() { return host; }
    @Override public double cpuCores() { return cpus; }
    @Override public double memoryMB() { return memMb; }
    @Override public double networkMbps() { return 10_000; }
    @Override public double diskMB() { return 1_000_000; }
    @Override public List<Range> portRanges() { return List.of(new Range(30000, 32000)); }
    @SuppressWarnings("NullAway")
    @Override public Protos.Offer getOffer() { return null; }
    // Fenzo calls get(null) on this map: it must allow null keys.
    @Override public Map<String, Protos.Attribute> getAttributeMap() { return Collections.emptyMap(); }
    @SuppressWarnings("NullAway")
    @Override public Double getScalarValue(String name) { return null; }
    @Override public Map<String, Double> getScalarValues() { return Collections.emptyMap(); }
  }

  private static final class Task implements TaskRequest {
    private final String id;
    private final double cpus;
    private final double memMb;
    private AssignedResources assigned;

    Task(String id, double cpus, double memMb) {
      this.id = id;
      this.cpus = cpus;
      this.memMb = memMb;
      this.assigned = new AssignedResources();
    }

    @Override public String getId() { return id; }
    @Override public String taskGroupName() { return "bench"; }
    @Override public double getCPUs() { return cpus; }
    @Override public double getMemory() { return memMb; }
    @Override public double getNetworkMbps() { return 0; }
    @Override public double getDisk() { return 0; }
    @Override public int getPorts() { return 0; }
    @Override public Map<String, Double> getScalarRequests() { return Collections.emptyMap(); }
    @Override public Map<String, NamedResourceSetRequest> getCustomNamedResources() { return Collections.emptyMap(); }
    @Override public List<? extends com.netflix.fenzo.ConstraintEvaluator> getHardConstraints() { return List.of(); }
    @Override public List<? extends com.netflix.fenzo.VMTaskFitnessCalculator> getSoftConstraints() { return List.of(); }
    @Override public void setAssignedResources(AssignedResources a) { assigned = a; }
    @Override public AssignedResources getAssignedResources() { return assigned; }
  }
}
