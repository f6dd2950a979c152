package io.fleetkit.queueing.internal;

import io.fleetkit.queueing.PreemptionReason;

/** A workload the preemptor chose to evict, and why. */
public record Target(AdmittedWorkload victim, PreemptionReason reason) {}
