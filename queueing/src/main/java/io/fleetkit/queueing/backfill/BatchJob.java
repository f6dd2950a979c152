package io.fleetkit.queueing.backfill;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A pending batch job.
 *
 * @param id the job id, unique
 * @param user the submitting user
 * @param account the account it charges
 * @param partition the partition name
 * @param qos the QOS name, or {@code null} for none
 * @param nodes how many (whole, identical) nodes it needs; at least 1
 * @param cpus how many CPUs it needs, or 0 when only nodes count (used by the job size factor)
 * @param timeLimit its {@code --time}, or {@code null} for the partition's default
 * @param eligibleTime when it became eligible to run (its age counts from here)
 * @param nice its nice value; subtracted from the priority
 */
public record BatchJob(
    String id,
    String user,
    String account,
    String partition,
    @Nullable String qos,
    int nodes,
    int cpus,
    @Nullable Duration timeLimit,
    Instant eligibleTime,
    int nice) {
  public BatchJob {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(user, "user");
    Objects.requireNonNull(account, "account");
    Objects.requireNonNull(partition, "partition");
    Objects.requireNonNull(eligibleTime, "eligibleTime");
    if (nodes < 1) {
      throw new IllegalArgumentException("job " + id + ": nodes " + nodes + " must be at least 1");
    }
    if (cpus < 0) {
      throw new IllegalArgumentException("job " + id + ": cpus " + cpus + " must not be negative");
    }
    if (timeLimit != null && (timeLimit.isNegative() || timeLimit.isZero())) {
      throw new IllegalArgumentException("job " + id + ": timeLimit " + timeLimit + " must be positive");
    }
  }

  /** A job of user {@code u}, account {@code a}, partition {@code batch}, no QOS, no CPU count, nice 0. */
  public static BatchJob of(String id, int nodes, @Nullable Duration timeLimit, Instant eligibleTime) {
    return new BatchJob(id, "u", "a", "batch", null, nodes, 0, timeLimit, eligibleTime, 0);
  }

  public BatchJob withAccount(String user, String account) {
    return new BatchJob(id, user, account, partition, qos, nodes, cpus, timeLimit, eligibleTime, nice);
  }

  public BatchJob withPartition(String partition) {
    return new BatchJob(id, user, account, partition, qos, nodes, cpus, timeLimit, eligibleTime, nice);
  }

  public BatchJob withQos(@Nullable String qos) {
    return new BatchJob(id, user, account, partition, qos, nodes, cpus, timeLimit, eligibleTime, nice);
  }

  public BatchJob withCpus(int cpus) {
    return new BatchJob(id, user, account, partition, qos, nodes, cpus, timeLimit, eligibleTime, nice);
  }

  public BatchJob withNice(int nice) {
    return new BatchJob(id, user, account, partition, qos, nodes, cpus, timeLimit, eligibleTime, nice);
  }
}
