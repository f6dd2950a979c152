@NullMarked
package io.fleetkit.scheduler.queueing;

import org.jspecify.annotations.NullMarked;
