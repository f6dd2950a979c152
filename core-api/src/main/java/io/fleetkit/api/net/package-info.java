/**
 * Network address text as Kubernetes accepts it: {@link io.fleetkit.api.net.IpText} checks and parses IP addresses
 * and CIDRs (literals only, never resolved) and names the special ranges external addresses may not use. The one
 * grammar of "is this text an IP" for core-api's rules and for the engines (the networking module's address type
 * parses through it), in its strict form and in the sloppy form of Kubernetes' legacy IP and CIDR fields, with the
 * API server's warnings for those. Stateless and thread-safe.
 */
@NullMarked
package io.fleetkit.api.net;

import org.jspecify.annotations.NullMarked;
