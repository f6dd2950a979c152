/**
 * The scheduler's compact per-node layout: {@link io.fleetkit.scheduler.nodetable.NodeTable} keeps the per-node
 * state Filter and Score read for every node (allocatable and requested amounts, pod count, unschedulable and taint
 * bits) in primitive arrays indexed by the node's position in the snapshot, and
 * {@link io.fleetkit.scheduler.nodetable.TableFilter} and {@link io.fleetkit.scheduler.nodetable.TableScore} are the
 * fast paths a plugin may offer beside its {@code NodeInfo} methods. The engine's Filter and Score loops walk node
 * positions and read the arrays; a node's object view is fetched only for the plugins (or the cases) that need it.
 * The table also numbers node label values per key ({@link io.fleetkit.scheduler.nodetable.NodeTable.Domains}, read by
 * InterPodAffinity and PodTopologySpread) and logs the positions it changes, so that a plugin's cross-cycle state is
 * brought up to date in O(changed nodes); a snapshot that has a table says so through
 * {@link io.fleetkit.scheduler.nodetable.NodeTable.Source}.
 */
@NullMarked
package io.fleetkit.scheduler.nodetable;

import org.jspecify.annotations.NullMarked;
