/**
 * The Coscheduling plugin: gang (all-or-nothing) scheduling of pods that join a
 * {@link io.fleetkit.api.scheduling.PodGroup} through the label {@code scheduling.x-k8s.io/pod-group}, after
 * kubernetes-sigs/scheduler-plugins {@code pkg/coscheduling}. Entry type: {@link
 * io.fleetkit.scheduler.plugins.coscheduling.CoschedulingPlugin}. Its bookkeeping is guarded by the plugin; every
 * extension point may be called from any thread.
 */
@NullMarked
package io.fleetkit.scheduler.plugins.coscheduling;

import org.jspecify.annotations.NullMarked;
