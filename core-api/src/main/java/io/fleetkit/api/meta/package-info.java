/**
 * Object metadata shared by every kind: {@link io.fleetkit.api.meta.ObjectMeta}, owner references, and the
 * {@link io.fleetkit.api.meta.ApiObject} contract that the object store relies on. All types are immutable records.
 */
@NullMarked
package io.fleetkit.api.meta;

import org.jspecify.annotations.NullMarked;
