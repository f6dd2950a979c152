@NullMarked
package io.fleetkit.scheduler.batch;

import org.jspecify.annotations.NullMarked;
