/**
 * Address allocation with Kubernetes' rules: {@link io.fleetkit.networking.ipam.IpAddress} and
 * {@link io.fleetkit.networking.ipam.IpPrefix} values; {@link io.fleetkit.networking.ipam.ServiceIpRange} (cluster
 * IPs, the apiserver's bitmap allocator with its static/dynamic bands), {@link io.fleetkit.networking.ipam.PortRange}
 * (node ports), {@link io.fleetkit.networking.ipam.CidrSet} (pod CIDRs per node, kube-controller-manager's node
 * IPAM); {@link io.fleetkit.networking.ipam.ServiceAddressAllocator} and
 * {@link io.fleetkit.networking.ipam.NodeIpamController} apply them to Services and Nodes.
 *
 * <p>Values are immutable; allocators are thread-safe (every method synchronized on the allocator).
 */
@NullMarked
package io.fleetkit.networking.ipam;

import org.jspecify.annotations.NullMarked;
