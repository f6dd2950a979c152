/**
 * Cluster DNS with CoreDNS's {@code kubernetes} plugin semantics: {@link io.fleetkit.networking.dns.ClusterDns}
 * answers a question from a {@link io.fleetkit.networking.dns.DnsSnapshot} of Services and EndpointSlices (pure,
 * thread-safe), pod names as its {@link io.fleetkit.networking.dns.PodsMode} says;
 * {@link io.fleetkit.networking.dns.ExternalDns} answers the Services' external and load balancer addresses in zones
 * outside the cluster (CoreDNS's {@code k8s_external} plugin);
 * {@link io.fleetkit.networking.dns.DnsServer} serves those answers over UDP and TCP with dnsjava, keeping its snapshot
 * current through store watches ({@link io.fleetkit.networking.dns.StoreDnsSource}), and sends names outside its zones
 * to upstream resolvers through a {@link io.fleetkit.networking.dns.Forwarder} (CoreDNS's {@code forward} plugin),
 * which health-checks them as its {@link io.fleetkit.networking.dns.ForwardHealthCheck} says. Thread-safety: the
 * records and enums are immutable; the server and the forwarder are thread-safe and own threads until closed.
 */
@NullMarked
package io.fleetkit.networking.dns;

import org.jspecify.annotations.NullMarked;
