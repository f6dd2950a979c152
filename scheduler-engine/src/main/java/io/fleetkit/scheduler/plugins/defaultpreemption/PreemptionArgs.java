package io.fleetkit.scheduler.plugins.defaultpreemption;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * DefaultPreemption's arguments, as kube's {@code DefaultPreemptionArgs}: the dry run evaluates candidate nodes until it
 * has {@code max(numNodes * minCandidateNodesPercentage / 100, minCandidateNodesAbsolute)} candidates (capped at the
 * number of nodes), starting at a random offset.
 *
 * @param minCandidateNodesPercentage in [0, 100]; kube's default 10
 * @param minCandidateNodesAbsolute at least 0; kube's default 100; not both zero
 * @param randomSeed seed of the offset source (a FleetKit addition: kube uses an unseeded source), so that runs are
 *     reproducible
 */
public record PreemptionArgs(int minCandidateNodesPercentage, int minCandidateNodesAbsolute, long randomSeed) {
  public static final String MIN_CANDIDATE_NODES_PERCENTAGE = "minCandidateNodesPercentage";
  public static final String MIN_CANDIDATE_NODES_ABSOLUTE = "minCandidateNodesAbsolute";
  public static final String RANDOM_SEED = "randomSeed";
  public static final int DEFAULT_MIN_CANDIDATE_NODES_PERCENTAGE = 10;
  public static final int DEFAULT_MIN_CANDIDATE_NODES_ABSOLUTE = 100;
  public static final long DEFAULT_RANDOM_SEED = 0;

  /** kube's defaults (10%, 100) with seed 0. */
  public static final PreemptionArgs DEFAULTS = new PreemptionArgs(DEFAULT_MIN_CANDIDATE_NODES_PERCENTAGE,
      DEFAULT_MIN_CANDIDATE_NODES_ABSOLUTE, DEFAULT_RANDOM_SEED);

  /**
   * Checks upstream's {@code ValidateDefaultPreemptionArgs}.
   *
   * @throws IllegalArgumentException naming every broken rule
   */
  public PreemptionArgs {
    List<String> errors = new ArrayList<>(0);
    if (minCandidateNodesPercentage < 0 || minCandidateNodesPercentage > 100) {
      errors.add(MIN_CANDIDATE_NODES_PERCENTAGE + " " + minCandidateNodesPercentage
          + " is not in valid range [0, 100]");
    }
    if (minCandidateNodesAbsolute < 0) {
      errors.add(MIN_CANDIDATE_NODES_ABSOLUTE + " " + minCandidateNodesAbsolute + " is not in valid range [0, inf)");
    }
    if (minCandidateNodesPercentage == 0 && minCandidateNodesAbsolute == 0) {
      errors.add(MIN_CANDIDATE_NODES_PERCENTAGE + " and " + MIN_CANDIDATE_NODES_ABSOLUTE
          + " cannot be zero at the same time");
    }
    if (!errors.isEmpty()) {
      throw new IllegalArgumentException("plugin DefaultPreemption args: " + String.join("; ", errors));
    }
  }

  /**
   * Reads the profile's arguments; absent keys take the defaults.
   *
   * @throws IllegalArgumentException when a value is not an integral number or breaks a rule
   */
  public static PreemptionArgs fromMap(Map<String, Object> args) {
    return new PreemptionArgs(
        (int) number(args, MIN_CANDIDATE_NODES_PERCENTAGE, DEFAULT_MIN_CANDIDATE_NODES_PERCENTAGE),
        (int) number(args, MIN_CANDIDATE_NODES_ABSOLUTE, DEFAULT_MIN_CANDIDATE_NODES_ABSOLUTE),
        number(args, RANDOM_SEED, DEFAULT_RANDOM_SEED));
  }

  private static long number(Map<String, Object> args, String key, long defaultValue) {
    Object v = args.get(key);
    if (v == null) {
      return defaultValue;
    }
    if (v instanceof Integer || v instanceof Long || v instanceof Short || v instanceof Byte) {
      long n = ((Number) v).longValue();
      if (!key.equals(RANDOM_SEED) && (n < Integer.MIN_VALUE || n > Integer.MAX_VALUE)) {
        throw new IllegalArgumentException("plugin DefaultPreemption args: " + key + " " + n + " is out of int range");
      }
      return n;
    }
    throw new IllegalArgumentException("plugin DefaultPreemption args: " + key + " \"" + v
        + "\" must be an integer, not " + v.getClass().getSimpleName());
  }

  /**
   * How many candidates the dry run must produce among {@code numNodes} potential nodes (upstream
   * {@code calculateNumCandidates}): the percentage of the nodes, at least the absolute minimum, at most all nodes.
   */
  public int numCandidates(int numNodes) {
    long n = (long) numNodes * minCandidateNodesPercentage / 100;
    if (n < minCandidateNodesAbsolute) {
      n = minCandidateNodesAbsolute;
    }
    return (int) Math.min(n, numNodes);
  }
}
