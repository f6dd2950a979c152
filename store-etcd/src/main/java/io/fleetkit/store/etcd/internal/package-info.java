/**
 * The etcd store's mechanics: {@link io.fleetkit.store.etcd.internal.EtcdObjectStore} (keys, compare-and-swap
 * transactions, watches from a revision), {@link io.fleetkit.store.etcd.internal.ObjectCodec} (objects as JSON).
 * Not part of the public contract: build stores with {@code EtcdStore.builder(..)}.
 */
@NullMarked
package io.fleetkit.store.etcd.internal;

import org.jspecify.annotations.NullMarked;
