package io.fleetkit.api.framework;

/**
 * A pod waiting in the scheduling queue, with its queue bookkeeping.
 *
 * @param podInfo the pod
 * @param timestampNanos when it (re-)entered the queue, by the scheduler's clock
 * @param initialAttemptNanos when it was first enqueued
 * @param attempts how many scheduling cycles it has had
 */
public record QueuedPodInfo(PodInfo podInfo, long timestampNanos, long initialAttemptNanos, int attempts) {}
