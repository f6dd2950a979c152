package io.fleetkit.scheduler.queueing.internal;

import io.fleetkit.scheduler.queueing.PreemptionReason;

/** A workload the preemptor chose to evict, and why. */
public record Target(AdmittedWorkload victim, PreemptionReason reason) {}
