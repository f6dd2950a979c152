/**
 * Workload kinds of apps/v1: Deployment, ReplicaSet, StatefulSet, and the ControllerRevision a StatefulSet keeps its
 * templates in. Immutable records; thread-safe.
 */
@NullMarked
package io.fleetkit.api.apps;

import org.jspecify.annotations.NullMarked;
