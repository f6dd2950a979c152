/**
 * FleetKit's core API: the exception hierarchy shared by every module. Sub-packages hold the desired-state model
 * ({@code meta}, {@code resource}, {@code labels}, {@code scheduling}, kinds) and the plugin SPIs. Everything here is
 * immutable and thread-safe unless a type says otherwise; this module depends on nothing but the JDK, JSpecify and
 * the SLF4J API.
 */
@NullMarked
package io.fleetkit.api;

import org.jspecify.annotations.NullMarked;
