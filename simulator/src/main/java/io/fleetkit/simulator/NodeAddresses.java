package io.fleetkit.simulator;

import io.fleetkit.api.core.IPFamily;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.NodeAddress;
import io.fleetkit.api.core.NodeStatus;
import io.fleetkit.networking.ipam.AllocationException;
import io.fleetkit.networking.ipam.CidrSet;
import io.fleetkit.networking.ipam.IpAddress;
import io.fleetkit.networking.ipam.IpPrefix;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The simulated machines' addresses, as a kubelet reports its node's ({@code setNodeAddress}: the node IP as
 * {@code InternalIP}, the host name as {@code Hostname}) and as KWOK gives its fake nodes: a Node without an
 * {@code InternalIP} gets the next free address of each node CIDR (one per IP family, in the CIDRs' order) before its
 * other addresses, and a {@code Hostname} address with its name after them when it has none. Addresses come from
 * {@link CidrSet}s of single-address blocks, sequential from a rotating next candidate, so a deleted node's address
 * is handed out again only once the ones after it have been; the network address, and for IPv4 the broadcast address,
 * are never handed out. IPs a node already has ({@code InternalIP} or {@code ExternalIP}) inside a node CIDR are
 * {@linkplain #reserve reserved} for it, so that no other node gets them. Same registrations in the same order, same
 * addresses. Not thread-safe: the simulation calls it from its one thread.
 */
final class NodeAddresses {
  /** The node CIDR when none is given: apart from the pod (10.244.0.0/16) and service (10.96.0.0/16) ranges. */
  static final String DEFAULT_CIDR = "10.0.0.0/16";
  /** Single-address blocks: at most 2^16 of them per CIDR ({@link CidrSet}'s IPv6 limit, kept for both families). */
  private static final int MAX_HOST_BITS = 16;

  private final List<CidrSet> sets;
  /** The addresses of each node inside the node CIDRs, reserved or handed out. */
  private final Map<String, List<IpAddress>> byNode = new HashMap<>();
  /** The addresses handed out to each node, given back to it when its status is rewritten without them. */
  private final Map<String, List<IpAddress>> assigned = new HashMap<>();

  /**
   * @param cidrs one node CIDR, or two of different IP families (dual stack)
   * @throws IllegalArgumentException naming the CIDR when one does not parse, is too large or too small, or when two
   *     share a family
   */
  NodeAddresses(List<String> cidrs) {
    if (cidrs.isEmpty() || cidrs.size() > 2) {
      throw new IllegalArgumentException("simulation: node CIDRs " + cidrs + ": one, or two of different IP families,"
          + " expected");
    }
    List<CidrSet> out = new ArrayList<>(cidrs.size());
    for (String c : cidrs) {
      IpPrefix p;
      try {
        p = IpPrefix.parse(c);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("simulation: node CIDR: " + e.getMessage(), e);
      }
      if (p.hostBits() > MAX_HOST_BITS || p.hostBits() < 2) {
        throw new IllegalArgumentException("simulation: node CIDR \"" + c + "\" must hold 4 to 65536 addresses ("
            + (p.family() == IPFamily.IPv4 ? "/16 to /30" : "/112 to /126") + ")");
      }
      if (!out.isEmpty() && out.get(0).clusterCidr().family() == p.family()) {
        throw new IllegalArgumentException("simulation: node CIDRs " + cidrs + " must be of different IP families");
      }
      CidrSet set = new CidrSet(p, p.network().bits());
      set.occupy(single(p.network()));
      if (p.family() == IPFamily.IPv4) {
        set.occupy(single(p.last()));
      }
      out.add(set);
    }
    this.sets = List.copyOf(out);
  }

  private static IpPrefix single(IpAddress a) {
    return new IpPrefix(a, a.bits());
  }

  /** Reserves for node {@code name} the IPs among {@code addresses} that lie in a node CIDR. */
  void reserve(String name, List<NodeAddress> addresses) {
    for (NodeAddress a : addresses) {
      IpAddress ip = a.type().equals(NodeAddress.INTERNAL_IP) || a.type().equals(NodeAddress.EXTERNAL_IP)
          ? IpAddress.tryParse(a.address()) : null;
      CidrSet set = ip == null ? null : setOf(ip);
      if (set != null) {
        set.occupy(single(ip));
        List<IpAddress> mine = byNode.computeIfAbsent(name, k -> new ArrayList<>(2));
        if (!mine.contains(ip)) {
          mine.add(ip);
        }
      }
    }
  }

  private @Nullable CidrSet setOf(IpAddress ip) {
    for (CidrSet s : sets) {
      if (s.clusterCidr().contains(ip)) {
        return s;
      }
    }
    return null;
  }

  /** Whether {@code node} has an {@code InternalIP} address. */
  static boolean hasInternalIp(Node node) {
    List<NodeAddress> addresses = node.status().addresses();
    for (int i = 0; i < addresses.size(); i++) { // by index: read on every node event
      if (addresses.get(i).type().equals(NodeAddress.INTERNAL_IP)) {
        return true;
      }
    }
    return false;
  }

  /**
   * {@code node}'s status with its addresses, or {@code null} when it has an {@code InternalIP} already (then
   * reserved). A node that held addresses under its name before (its status rewritten without them) gets those back.
   *
   * @throws AllocationException {@code FULL} when a node CIDR has no address left
   */
  @Nullable NodeStatus assign(Node node) {
    String name = node.metadata().name();
    List<NodeAddress> current = node.status().addresses();
    reserve(name, current);
    if (hasInternalIp(node)) {
      return null;
    }
    List<IpAddress> given = assigned.get(name);
    if (given == null) {
      given = new ArrayList<>(sets.size());
      for (CidrSet s : sets) {
        try {
          given.add(s.allocateNext().network());
        } catch (AllocationException e) {
          given.forEach(this::release);
          throw new AllocationException(e.reason(), "simulation: node " + name + ": node CIDR " + s.clusterCidr()
              + " has no address left");
        }
      }
      assigned.put(name, given);
      byNode.computeIfAbsent(name, k -> new ArrayList<>(2)).addAll(given);
    }
    List<IpAddress> mine = given;
    List<NodeAddress> addresses = new ArrayList<>(current.size() + mine.size() + 1);
    for (IpAddress ip : mine) {
      addresses.add(new NodeAddress(NodeAddress.INTERNAL_IP, ip.toString()));
    }
    addresses.addAll(current);
    if (current.stream().noneMatch(a -> a.type().equals(NodeAddress.HOSTNAME))) {
      addresses.add(new NodeAddress(NodeAddress.HOSTNAME, name));
    }
    NodeStatus s = node.status();
    return new NodeStatus(s.capacity(), s.allocatable(), s.conditions(), s.gpus(), addresses, s.images());
  }

  /** Frees the addresses of node {@code name} (deleted): later nodes may get them. */
  void release(String name) {
    assigned.remove(name);
    List<IpAddress> mine = byNode.remove(name);
    if (mine != null) {
      mine.forEach(this::release);
    }
  }

  private void release(IpAddress ip) {
    CidrSet s = setOf(ip);
    if (s != null) {
      s.release(single(ip));
    }
  }
}
