@NullMarked
package io.fleetkit.scheduler.queueing.internal;

import org.jspecify.annotations.NullMarked;
