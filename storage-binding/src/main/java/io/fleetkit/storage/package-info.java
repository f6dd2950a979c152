/**
 * Storage binding (issue 6, not yet built): PV/PVC matching, Immediate and WaitForFirstConsumer binding, dynamic provisioning, and the VolumeBinding scheduler plugin.
 */
@NullMarked
package io.fleetkit.storage;

import org.jspecify.annotations.NullMarked;
