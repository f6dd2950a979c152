@NullMarked
package io.fleetkit.queueing.internal;

import org.jspecify.annotations.NullMarked;
