/**
 * Workload kinds of apps/v1: Deployment, ReplicaSet, StatefulSet, DaemonSet, and the ControllerRevision a StatefulSet
 * or a DaemonSet keeps its templates in. Immutable records; thread-safe.
 */
@NullMarked
package io.fleetkit.api.apps;

import org.jspecify.annotations.NullMarked;
