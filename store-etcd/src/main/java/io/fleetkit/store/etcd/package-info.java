/**
 * The {@link io.fleetkit.api.store.ObjectStore} contract on etcd v3, for when one process is not enough: several
 * FleetKit processes (replicas of a scheduler, controllers) share one consistent, durable state, as Kubernetes API
 * servers share etcd. Entry types: {@link io.fleetkit.store.etcd.EtcdStore} (start here) and
 * {@link io.fleetkit.store.etcd.EtcdStoreBuilder}; {@link io.fleetkit.store.etcd.EtcdLeaderElector} elects one leader
 * among those processes on an etcd lease and fences its writes. The implementation lives in {@code io.fleetkit.store.etcd.internal}
 * and is not part of the contract. Thread-safe as documented on each type.
 */
@NullMarked
package io.fleetkit.store.etcd;

import org.jspecify.annotations.NullMarked;
