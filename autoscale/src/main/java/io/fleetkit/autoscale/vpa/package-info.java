/**
 * The VerticalPodAutoscaler in kubernetes/autoscaler's model ({@code vertical-pod-autoscaler/pkg}).
 *
 * <p>Entry types: {@link io.fleetkit.autoscale.vpa.DecayingHistogram} / {@link io.fleetkit.autoscale.vpa.HistogramOptions}
 * (exponential buckets, first bucket 0.01 cores or 1e7 bytes, ratio 1.05, with 24 h half-life decay),
 * {@link io.fleetkit.autoscale.vpa.ContainerUsageState} (cpu usage histogram and daily memory peaks with the OOM
 * bump), {@link io.fleetkit.autoscale.vpa.VpaRecommender} (target P90, bounds P50/P95 with confidence scaling, 15%
 * margin, per-pod minimums), {@link io.fleetkit.autoscale.vpa.VpaRecommenderLoop} (the recommender over an
 * {@link io.fleetkit.api.store.ObjectStore}, with its VerticalPodAutoscalerCheckpoints),
 * {@link io.fleetkit.autoscale.vpa.UpdatePriorityCalculator} (the updater's eviction
 * rules), {@link io.fleetkit.autoscale.vpa.PodsEvictionRestriction} (how many pods of a target one pass may
 * disrupt), {@link io.fleetkit.autoscale.vpa.VpaUpdater} (evictions through the eviction API, or in-place resizes,
 * over an {@link io.fleetkit.api.store.ObjectStore}) and {@link io.fleetkit.autoscale.vpa.VpaAdmission} (requests
 * for new pods).
 *
 * <p>Thread safety: histograms, usage states and the recommender loop are mutable and not thread-safe (one caller
 * runs the loop); a {@link io.fleetkit.autoscale.vpa.PodsEvictionRestriction} counts one pass and is not thread-safe;
 * {@link io.fleetkit.autoscale.vpa.VpaRecommender}, {@link io.fleetkit.autoscale.vpa.VpaAdmission} and the options
 * are immutable.
 */
@NullMarked
package io.fleetkit.autoscale.vpa;

import org.jspecify.annotations.NullMarked;
