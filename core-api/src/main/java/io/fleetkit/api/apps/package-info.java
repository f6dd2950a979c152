/**
 * Workload kinds of apps/v1: Deployment, ReplicaSet, StatefulSet (with its start ordinal, {@link
 * io.fleetkit.api.apps.StatefulSetOrdinals}, and claim retention policy, {@link
 * io.fleetkit.api.apps.StatefulSetPersistentVolumeClaimRetentionPolicy}), DaemonSet, and the ControllerRevision a
 * StatefulSet or a DaemonSet keeps its templates in. Immutable records; thread-safe.
 */
@NullMarked
package io.fleetkit.api.apps;

import org.jspecify.annotations.NullMarked;
