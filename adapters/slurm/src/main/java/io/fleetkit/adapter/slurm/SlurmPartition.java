package io.fleetkit.adapter.slurm;

import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A partition from {@code GET /partitions}.
 *
 * @param name the partition name
 * @param nodes the node list in Slurm's host-list notation, e.g. {@code "n[1-4]"}
 * @param state {@code "UP"}, {@code "DOWN"}, {@code "DRAIN"} or {@code "INACTIVE"}
 * @param flags e.g. {@code ["default"]}
 * @param totalCpus CPUs in the partition
 * @param totalNodes nodes in the partition
 * @param maxTimeLimitMinutes the longest time limit a job may ask for, null for unlimited (Slurm's -1)
 */
public record SlurmPartition(String name, String nodes, String state, List<String> flags, int totalCpus,
    int totalNodes, @Nullable Long maxTimeLimitMinutes) {
  public SlurmPartition {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(nodes, "nodes");
    Objects.requireNonNull(state, "state");
    flags = List.copyOf(flags);
  }

  public boolean isDefault() {
    return flags.stream().anyMatch("default"::equalsIgnoreCase);
  }

  public boolean isUp() {
    return "UP".equalsIgnoreCase(state);
  }
}
