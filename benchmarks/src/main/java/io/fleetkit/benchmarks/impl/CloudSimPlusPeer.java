package io.fleetkit.benchmarks.impl;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.cloudsimplus.allocationpolicies.VmAllocationPolicy;
import org.cloudsimplus.allocationpolicies.VmAllocationPolicyFirstFit;
import org.cloudsimplus.allocationpolicies.VmAllocationPolicySimple;
import org.cloudsimplus.brokers.DatacenterBroker;
import org.cloudsimplus.brokers.DatacenterBrokerSimple;
import org.cloudsimplus.cloudlets.Cloudlet;
import org.cloudsimplus.cloudlets.CloudletSimple;
import org.cloudsimplus.core.CloudSimPlus;
import org.cloudsimplus.core.CloudSimTag;
import org.cloudsimplus.datacenters.Datacenter;
import org.cloudsimplus.datacenters.DatacenterSimple;
import org.cloudsimplus.hosts.Host;
import org.cloudsimplus.hosts.HostSimple;
import org.cloudsimplus.resources.Pe;
import org.cloudsimplus.resources.PeSimple;
import org.cloudsimplus.schedulers.cloudlet.CloudletSchedulerTimeShared;
import org.cloudsimplus.schedulers.vm.VmSchedulerTimeShared;
import org.cloudsimplus.utilizationmodels.UtilizationModelDynamic;
import org.cloudsimplus.vms.Vm;
import org.cloudsimplus.vms.VmSimple;

/**
 * CloudSim Plus 8.5.5 as a peer of the whole-cluster simulator: the day of
 * {@code ClusterSimulationBenchmark} without autoscalers, in CloudSim Plus's model. A node is a host of 16 PEs of
 * 1,000 MIPS (16 CPUs) and 64 GiB; a pod is a VM of one 100-MIPS PE (100m) running one cloudlet that keeps it 60 %
 * busy until the end of the day (the load that holds each pod at its HPA target); the datacenter updates its
 * cloudlets every 5 simulated minutes (the day's sampling interval). Hosts 1 and 2 fail at a quarter and at half of
 * the day: their VMs are destroyed, and 5 minutes later (the taint eviction's default toleration) a replacement VM with
 * a cloudlet for the rest of the day is submitted for each (the ReplicaSet's new pod), which the broker places like the
 * others.
 *
 * <p>What CloudSim Plus does not model and the FleetKit side does: an API store with watches, controllers
 * reconciling through it, the kube-scheduler's filter and score plugins, kubelets writing pod status, node
 * heartbeats and the node lifecycle's taints.
 */
public final class CloudSimPlusPeer {
  private CloudSimPlusPeer() {}

  /** How VMs are placed: CloudSim Plus's allocation policies. */
  public enum Placement {
    /** {@code VmAllocationPolicySimple}: the host with the most free PEs, the spreading nearest kube's default. */
    WORST_FIT,
    /** {@code VmAllocationPolicyFirstFit}: the first host with room, from where the last placement ended. */
    FIRST_FIT;

    VmAllocationPolicy policy() {
      return this == WORST_FIT ? new VmAllocationPolicySimple() : new VmAllocationPolicyFirstFit();
    }
  }

  /**
   * What one day did: VMs submitted (the replacements included), cloudlets finished, VMs lost with a failed host, and
   * the simulation clock at the end (seconds).
   */
  public record Day(int vms, int finished, int lost, double clock) {}

  private static final int HOST_PES = 16;
  private static final long PE_MIPS = 1_000;
  private static final long HOST_RAM_MB = 64 * 1024;
  private static final long VM_MIPS = 100;
  private static final double BUSY = 0.6;
  private static final double UPDATE_SECONDS = 300;
  private static final double REPLACE_AFTER_SECONDS = 300;

  /** Runs the day: {@code vms} VMs on {@code hosts} hosts for {@code length}. */
  public static Day run(int hosts, int vms, Duration length, Placement placement) {
    if (hosts < 3) {
      throw new IllegalArgumentException("CloudSimPlusPeer: hosts must be at least 3 (hosts 1 and 2 fail), got "
          + hosts);
    }
    double end = length.toSeconds();
    CloudSimPlus sim = new CloudSimPlus();
    List<Host> hostList = new ArrayList<>(hosts);
    for (int i = 0; i < hosts; i++) {
      List<Pe> pes = new ArrayList<>(HOST_PES);
      for (int p = 0; p < HOST_PES; p++) {
        pes.add(new PeSimple(PE_MIPS));
      }
      Host host = new HostSimple(HOST_RAM_MB, 10_000_000, 1_000_000, pes);
      host.setVmScheduler(new VmSchedulerTimeShared());
      hostList.add(host);
    }
    Datacenter datacenter = new DatacenterSimple(sim, hostList, placement.policy());
    datacenter.setSchedulingInterval(UPDATE_SECONDS);
    DatacenterBroker broker = new DatacenterBrokerSimple(sim);
    List<Vm> vmList = new ArrayList<>(vms);
    List<Cloudlet> cloudlets = new ArrayList<>(vms);
    for (int i = 0; i < vms; i++) {
      addVm(vmList, cloudlets, end);
    }
    broker.submitVmList(vmList);
    broker.submitCloudletList(cloudlets);

    double[] failAt = {end / 4, end / 2};
    boolean[] failed = new boolean[failAt.length];
    boolean[] replaced = new boolean[failAt.length];
    List<List<Vm>> lost = List.of(new ArrayList<>(), new ArrayList<>());
    List<Cloudlet> all = new ArrayList<>(cloudlets);
    int[] submitted = {vms};
    sim.addOnClockTickListener(tick -> {
      double now = tick.getTime();
      for (int f = 0; f < failAt.length; f++) {
        if (!failed[f] && now >= failAt[f]) {
          failed[f] = true;
          Host host = hostList.get(f + 1);
          for (Vm vm : new ArrayList<Vm>(host.getVmList())) {
            lost.get(f).add(vm);
            vm.setFailed(true);
            sim.send(broker, datacenter, 0, CloudSimTag.VM_DESTROY, vm);
          }
          host.setFailed(true);
        }
        if (failed[f] && !replaced[f] && now >= failAt[f] + REPLACE_AFTER_SECONDS) {
          replaced[f] = true;
          List<Vm> newVms = new ArrayList<>();
          List<Cloudlet> newCloudlets = new ArrayList<>();
          for (int i = 0; i < lost.get(f).size(); i++) {
            addVm(newVms, newCloudlets, end - now - UPDATE_SECONDS);
          }
          submitted[0] += newVms.size();
          all.addAll(newCloudlets);
          broker.submitVmList(newVms);
          broker.submitCloudletList(newCloudlets);
        }
      }
    });
    sim.terminateAt(end);
    sim.start();
    int finished = (int) all.stream().filter(Cloudlet::isFinished).count();
    return new Day(submitted[0], finished, lost.get(0).size() + lost.get(1).size(), sim.clock());
  }

  /** A VM of one 100-MIPS PE and its cloudlet, 60 % busy for {@code seconds}. */
  private static void addVm(List<Vm> vms, List<Cloudlet> cloudlets, double seconds) {
    Vm vm = new VmSimple(VM_MIPS, 1);
    vm.setRam(64).setBw(10).setSize(100);
    vm.setCloudletScheduler(new CloudletSchedulerTimeShared());
    Cloudlet cloudlet = new CloudletSimple(Math.max(1, (long) (VM_MIPS * seconds * BUSY)), 1,
        new UtilizationModelDynamic(BUSY));
    cloudlet.setUtilizationModelRam(new UtilizationModelDynamic(0.1));
    cloudlet.setUtilizationModelBw(new UtilizationModelDynamic(0));
    cloudlet.setVm(vm);
    vms.add(vm);
    cloudlets.add(cloudlet);
  }
}
