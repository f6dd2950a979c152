/**
 * The etcd store's mechanics: {@link io.fleetkit.store.etcd.internal.EtcdObjectStore} (keys, compare-and-swap
 * transactions, watches from a revision), {@link io.fleetkit.store.etcd.internal.ObjectCodec} (objects as JSON, read by record readers that give a property
 * missing from an object stored by an older version its unset value and refuse one they do not know).
 * Not part of the public contract: build stores with {@code EtcdStore.builder(..)}.
 */
@NullMarked
package io.fleetkit.store.etcd.internal;

import org.jspecify.annotations.NullMarked;
