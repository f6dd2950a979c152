/**
 * Core (v1) kinds: Node, Pod and their parts, Service, PersistentVolume, PersistentVolumeClaim. Immutable
 * records validated in their constructors; thread-safe.
 */
@NullMarked
package io.fleetkit.api.core;

import org.jspecify.annotations.NullMarked;
