@NullMarked
package io.fleetkit.queueing;

import org.jspecify.annotations.NullMarked;
