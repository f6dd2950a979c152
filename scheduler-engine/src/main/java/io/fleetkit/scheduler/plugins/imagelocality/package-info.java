/**
 * The ImageLocality plugin ({@link io.fleetkit.scheduler.plugins.imagelocality.ImageLocalityPlugin}): nodes that
 * already hold the pod's container images rank higher (PreScore, Score), each image weighed by its size and by the
 * share of nodes that hold it.
 *
 * <p>The plugin is thread-safe: it keeps no state of its own; how many nodes hold each image is kept by the engine's
 * node table.
 */
@NullMarked
package io.fleetkit.scheduler.plugins.imagelocality;

import org.jspecify.annotations.NullMarked;
