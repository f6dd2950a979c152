/**
 * Karpenter-style provisioning: {@link io.fleetkit.autoscale.provisioner.Provisioner} batches pending pods, launches
 * the cheapest compatible {@link io.fleetkit.autoscale.provisioner.InstanceType}s for them (DRA devices included: a type's
 * device templates satisfy the pods' ResourceClaims), and consolidates (deletes or replaces with strictly cheaper
 * nodes, several at once) within Karpenter's disruption budgets
 * ({@link io.fleetkit.autoscale.provisioner.DisruptionBudget}, each always active or active on a cron schedule) once a
 * node's {@code consolidateAfter} has passed, and expires nodes older than their {@code expireAfter}. A removed or
 * expired node is terminated as Karpenter's termination controller does it: tainted {@code karpenter.sh/disrupted},
 * drained through the eviction API within PodDisruptionBudgets, its remaining pods deleted by the
 * {@code terminationGracePeriod} when one is set ({@link io.fleetkit.autoscale.provisioner.DrainEvent}), then deleted.
 * Given a recorder, the provisioner records Karpenter's provisioning and disruption events, deduplicated as Karpenter's
 * recorder does.
 *
 * <p>Thread-safety: {@code Provisioner.runOnce} is synchronized; the records are immutable.
 */
@NullMarked
package io.fleetkit.autoscale.provisioner;

import org.jspecify.annotations.NullMarked;
