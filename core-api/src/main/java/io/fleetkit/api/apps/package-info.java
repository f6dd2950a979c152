/**
 * Workload kinds of apps/v1: Deployment, ReplicaSet, StatefulSet. Immutable records; thread-safe.
 */
@NullMarked
package io.fleetkit.api.apps;

import org.jspecify.annotations.NullMarked;
