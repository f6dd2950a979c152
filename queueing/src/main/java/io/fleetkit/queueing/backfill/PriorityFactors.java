package io.fleetkit.queueing.backfill;

/**
 * A job's priority and its unweighted factors, each in [0, 1], as {@code sprio} shows them.
 *
 * @param age the age factor
 * @param fairShare the fair-share factor
 * @param jobSize the job size factor
 * @param partition the partition factor
 * @param qos the QOS factor
 * @param nice the job's nice value (subtracted)
 * @param priority {@code Σ weight × factor − nice}, truncated, at least 1 and at most 2<sup>32</sup>−1
 */
public record PriorityFactors(
    double age, double fairShare, double jobSize, double partition, double qos, int nice, long priority) {}
