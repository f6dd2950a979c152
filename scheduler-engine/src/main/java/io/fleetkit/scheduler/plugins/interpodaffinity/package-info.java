/**
 * The InterPodAffinity plugin ({@link io.fleetkit.scheduler.plugins.interpodaffinity.InterPodAffinityPlugin}), after
 * kube-scheduler's {@code pkg/scheduler/framework/plugins/interpodaffinity}: required pod affinity and anti-affinity
 * (with the existing pods' anti-affinity checked symmetrically) in PreFilter/Filter, preferred terms and the
 * symmetric contributions of existing pods in PreScore/Score. Configured by
 * {@link io.fleetkit.scheduler.plugins.interpodaffinity.InterPodAffinityArgs}.
 *
 * <p>Threading: the plugin is stateless apart from a shared cache of compiled terms; Filter and Score only read the
 * per-cycle state written by PreFilter and PreScore and may run on many threads at once.
 */
@NullMarked
package io.fleetkit.scheduler.plugins.interpodaffinity;

import org.jspecify.annotations.NullMarked;
