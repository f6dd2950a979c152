/**
 * GPU packing arithmetic shared by the engine's GPU score plugins ({@code io.fleetkit.scheduler.plugins.gpu}) and
 * the trace replay of {@code fleetkit-lab}: {@link io.fleetkit.scheduler.gpu.GapWaste}, the
 * expected GPU a shared device's free gap never gives out. Values are immutable and thread-safe.
 */
@NullMarked
package io.fleetkit.scheduler.gpu;

import org.jspecify.annotations.NullMarked;
