/**
 * The NodeAffinity plugin ({@link io.fleetkit.scheduler.plugins.nodeaffinity.NodeAffinityPlugin}): a pod's
 * {@code nodeSelector} and required node affinity filter nodes (PreFilter narrows the candidates to the node names
 * pinned by {@code matchFields metadata.name}), and its preferred node affinity ranks them. A profile may add a
 * scheduler-enforced affinity ({@code addedAffinity}).
 *
 * <p>The plugin is immutable and thread-safe.
 */
@NullMarked
package io.fleetkit.scheduler.plugins.nodeaffinity;

import org.jspecify.annotations.NullMarked;
