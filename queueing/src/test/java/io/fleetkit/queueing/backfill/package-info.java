@NullMarked
package io.fleetkit.queueing.backfill;

import org.jspecify.annotations.NullMarked;
