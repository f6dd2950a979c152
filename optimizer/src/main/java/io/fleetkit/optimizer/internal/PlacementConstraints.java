package io.fleetkit.optimizer.internal;

import static org.optaplanner.core.api.score.stream.ConstraintCollectors.count;
import static org.optaplanner.core.api.score.stream.ConstraintCollectors.countDistinct;
import static org.optaplanner.core.api.score.stream.ConstraintCollectors.sumLong;
import static org.optaplanner.core.api.score.stream.ConstraintCollectors.toList;

import java.util.Objects;
import org.optaplanner.core.api.score.buildin.hardmediumsoftlong.HardMediumSoftLongScore;
import org.optaplanner.core.api.score.stream.Constraint;
import org.optaplanner.core.api.score.stream.ConstraintFactory;
import org.optaplanner.core.api.score.stream.ConstraintProvider;

/**
 * The constraints, one named method each. Hard: CPU, memory and device-level GPU capacity, allowed nodes (taints,
 * required node affinity, GPU models), gang atomicity, required gang topology, the move budget and (when
 * defragmenting) that every pod keeps a node. Medium: placed GPU demand (then placed pods). Soft: GPU fragmentation
 * and node/device use (defragmentation), preferred gang topology. Moves cost nothing in the score (so the search
 * may walk through them freely); {@link Planner} undoes the moves that gain nothing afterwards.
 */
public final class PlacementConstraints implements ConstraintProvider {
  /** Medium reward per placed GPU milli; one more per placed pod breaks ties towards more pods. */
  static final long GPU_MILLI_WEIGHT = 1024;

  @Override
  public Constraint[] defineConstraints(ConstraintFactory f) {
    return new Constraint[] {
      cpuCapacity(f), memoryCapacity(f), gpuDevices(f), allowedNode(f), gangAtomicity(f), gangTopologyRequired(f),
      moveBudget(f), keepEveryPod(f), placedGpuDemand(f), gpuFragmentation(f), gangTopologyPreferred(f),
    };
  }

  Constraint cpuCapacity(ConstraintFactory f) {
    return f.forEach(PodSlot.class)
        .groupBy(p -> Objects.requireNonNull(p.getNode()), sumLong(p -> p.cpu))
        .filter((n, sum) -> sum > n.cpuFree)
        .penalizeLong(HardMediumSoftLongScore.ONE_HARD, (n, sum) -> 1 + (sum - n.cpuFree) / 1000)
        .asConstraint("CPU capacity");
  }

  Constraint memoryCapacity(ConstraintFactory f) {
    return f.forEach(PodSlot.class)
        .groupBy(p -> Objects.requireNonNull(p.getNode()), sumLong(p -> p.mem))
        .filter((n, sum) -> sum > n.memFree)
        .penalizeLong(HardMediumSoftLongScore.ONE_HARD, (n, sum) -> 1 + (sum - n.memFree) / (1L << 30))
        .asConstraint("Memory capacity");
  }

  Constraint gpuDevices(ConstraintFactory f) {
    return f.forEach(PodSlot.class)
        .filter(p -> p.gpuMilli() > 0)
        .groupBy(p -> Objects.requireNonNull(p.getNode()), toList())
        .filter((n, pods) -> DevicePacker.pack(n, pods).overflow() > 0)
        .penalizeLong(HardMediumSoftLongScore.ONE_HARD, (n, pods) -> 1 + DevicePacker.pack(n, pods).overflow() / 100)
        .asConstraint("GPU devices");
  }

  Constraint allowedNode(ConstraintFactory f) {
    return f.forEach(PodSlot.class)
        .filter(p -> !p.allowedOn(Objects.requireNonNull(p.getNode())))
        .penalize(HardMediumSoftLongScore.ONE_HARD)
        .asConstraint("Taints, node affinity and GPU models");
  }

  Constraint gangAtomicity(ConstraintFactory f) {
    return f.forEach(PodSlot.class)
        .filter(p -> p.gang != null)
        .groupBy(p -> Objects.requireNonNull(p.gang), count())
        .filter((g, c) -> c < g.needed())
        .penalize(HardMediumSoftLongScore.ONE_HARD, (g, c) -> 10 * (g.needed() - c))
        .asConstraint("Gang atomicity");
  }

  Constraint gangTopologyRequired(ConstraintFactory f) {
    return f.forEach(PodSlot.class)
        .filter(p -> p.gang != null && p.gang.topologyKey != null && p.gang.topologyRequired)
        .groupBy(p -> Objects.requireNonNull(p.gang),
            countDistinct(p -> Objects.requireNonNull(p.gang).domainOf(Objects.requireNonNull(p.getNode()))))
        .filter((g, domains) -> domains > 1)
        .penalize(HardMediumSoftLongScore.ONE_HARD, (g, domains) -> domains - 1)
        .asConstraint("Gang topology (required)");
  }

  Constraint moveBudget(ConstraintFactory f) {
    return f.forEachIncludingNullVars(PodSlot.class)
        .filter(PodSlot::moved)
        .groupBy(p -> p.moveBudget, count())
        .filter((budget, moves) -> moves > budget)
        .penalize(HardMediumSoftLongScore.ONE_HARD, (budget, moves) -> moves - budget)
        .asConstraint("Move budget");
  }

  Constraint keepEveryPod(ConstraintFactory f) {
    return f.forEachIncludingNullVars(PodSlot.class)
        .filter(p -> p.mustPlace && p.getNode() == null)
        .penalize(HardMediumSoftLongScore.ofHard(10))
        .asConstraint("Running pods keep a node");
  }

  Constraint placedGpuDemand(ConstraintFactory f) {
    return f.forEach(PodSlot.class)
        .rewardLong(HardMediumSoftLongScore.ONE_MEDIUM, p -> p.gpuMilli() * GPU_MILLI_WEIGHT + 1)
        .asConstraint("Placed GPU demand");
  }

  Constraint gpuFragmentation(ConstraintFactory f) {
    return f.forEach(PodSlot.class)
        .groupBy(p -> Objects.requireNonNull(p.getNode()), toList())
        .penalizeLong(HardMediumSoftLongScore.ONE_SOFT, (n, pods) -> {
          DevicePacker.Pack pack = DevicePacker.pack(n, pods);
          return pack.stranded() + n.useCost + n.deviceUseCost * pack.touched();
        })
        .asConstraint("GPU fragmentation and node use");
  }

  Constraint gangTopologyPreferred(ConstraintFactory f) {
    return f.forEach(PodSlot.class)
        .filter(p -> p.gang != null && p.gang.topologyKey != null && !p.gang.topologyRequired)
        .groupBy(p -> Objects.requireNonNull(p.gang),
            countDistinct(p -> Objects.requireNonNull(p.gang).domainOf(Objects.requireNonNull(p.getNode()))))
        .filter((g, domains) -> domains > 1)
        .penalizeLong(HardMediumSoftLongScore.ONE_SOFT, (g, domains) -> 10_000L * (domains - 1))
        .asConstraint("Gang topology (preferred)");
  }
}
