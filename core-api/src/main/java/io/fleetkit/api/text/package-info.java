/**
 * Text read with the exact rules of the upstream programs whose input FleetKit takes: {@link
 * io.fleetkit.api.text.GoIntegers} reads decimal integers as Go's {@code strconv.Atoi} and {@code strconv.ParseInt}
 * do (an optional sign, ASCII digits only, overflow an error), where Java's {@code Integer.parseInt} would also take
 * the digits of other scripts ({@code "٣"} and {@code "３"} are 3 to Java); {@link io.fleetkit.api.text.GoFloats} reads
 * floating-point text as Go's {@code strconv.ParseFloat} does (Go's {@code inf} and {@code nan} spellings and
 * underscores; no spaces and no {@code d}/{@code f} suffix, which {@code Double.parseDouble} takes; a finite text
 * beyond the {@code double} range an error). Errors carry Go's own messages. Stateless and thread-safe.
 */
@NullMarked
package io.fleetkit.api.text;

import org.jspecify.annotations.NullMarked;
