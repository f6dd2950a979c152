package io.fleetkit.networking.ipam;

import io.fleetkit.api.ConflictException;
import io.fleetkit.api.NotFoundException;
import io.fleetkit.api.core.IPFamily;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.NodeAddress;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodPhase;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.reconcile.Controller;
import io.fleetkit.reconcile.ControllerBuilder;
import io.fleetkit.reconcile.ObjectKey;
import io.fleetkit.reconcile.ReconcileContext;
import io.fleetkit.reconcile.Result;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * Gives running pods their IPs from their node's {@code spec.podCIDRs}, as the simulated kubelet's network plugin
 * (CNI host-local style): one address per pod CIDR, sequential, skipping the network address, the first address
 * (the node's bridge gateway) and, for IPv4, the broadcast address; an address returns to the pool when its pod is
 * deleted or finishes. Pods on nodes without pod CIDRs wait (requeued when the node gets them). A pod with
 * {@code spec.hostNetwork} takes no address from the pool: its IPs are its node's ({@link NodeAddress#hostIPs}, the
 * kubelet's {@code GetNodeHostIPs}), and it waits while its node has none.
 */
public final class PodAddressController implements AutoCloseable {
  private final Controller<Pod> controller;
  private final Map<String, Set<IpAddress>> usedByNode = new HashMap<>();
  private final Map<ObjectKey, List<IpAddress>> byPod = new HashMap<>();

  public PodAddressController(ObjectStore store, boolean stepping) {
    for (Pod p : store.list(Pod.class).items()) {
      if (p.spec().hostNetwork()) {
        continue; // its node's addresses, not the pool's
      }
      List<IpAddress> ips = new ArrayList<>();
      p.status().podIPs().forEach(ip -> {
        IpAddress a = IpAddress.tryParse(ip);
        if (a != null) {
          ips.add(a);
          usedByNode.computeIfAbsent(p.spec().nodeName(), k -> new HashSet<>()).add(a);
        }
      });
      if (!ips.isEmpty()) {
        byPod.put(ObjectKey.of(p), ips);
      }
    }
    ControllerBuilder<Pod> b = Controller.builder(store, Pod.class).name("pod-addresses").reconciler(this::reconcile)
        .watches(Node.class, n -> podsOn(store, n.metadata().name()));
    this.controller = stepping ? b.stepping().build() : b.build();
  }

  private static List<ObjectKey> podsOn(ObjectStore store, String node) {
    return store.list(Pod.class, "", (Pod p) -> p.spec().nodeName().equals(node) && p.status().podIPs().isEmpty())
        .items().stream().map(ObjectKey::of).toList();
  }

  public CompletableFuture<Void> start() {
    return controller.start();
  }

  public int runUntilIdle() {
    return controller.runUntilIdle();
  }

  private synchronized void release(ObjectKey key) {
    List<IpAddress> ips = byPod.remove(key);
    if (ips != null) {
      usedByNode.values().forEach(s -> s.removeAll(ips));
    }
  }

  private synchronized Result reconcile(ReconcileContext<Pod> ctx) {
    ObjectKey key = ctx.key();
    Pod pod = ctx.object().orElse(null);
    if (pod == null || pod.status().phase() == PodPhase.Succeeded || pod.status().phase() == PodPhase.Failed) {
      release(key);
      return Result.done();
    }
    if (pod.spec().nodeName().isEmpty() || !pod.status().podIPs().isEmpty() || byPod.containsKey(key)) {
      return Result.done();
    }
    Node node = ctx.lister(Node.class).get("", pod.spec().nodeName()).orElse(null);
    if (node != null && pod.spec().hostNetwork()) {
      List<String> hostIps = NodeAddress.hostIPs(node.status().addresses());
      if (hostIps.isEmpty()) {
        return Result.done(); // the node watch requeues the pod when the node gets addresses
      }
      try {
        ctx.store().updateStatus(new Pod(pod.metadata(), pod.spec(), pod.status().withPodIPs(hostIps)));
      } catch (ConflictException | NotFoundException e) {
        return Result.requeue();
      }
      return Result.done();
    }
    if (node == null || node.spec().podCIDRs().isEmpty()) {
      return Result.done(); // the node watch requeues the pod when the node gets its CIDRs
    }
    Set<IpAddress> used = usedByNode.computeIfAbsent(node.metadata().name(), k -> new HashSet<>());
    List<IpAddress> ips = new ArrayList<>();
    for (String c : node.spec().podCIDRs()) {
      IpAddress ip = next(IpPrefix.parseSloppy(c), used); // a legacy field
      if (ip == null) {
        used.removeAll(ips);
        return Result.requeueAfter(java.time.Duration.ofSeconds(10)); // pod CIDR exhausted
      }
      used.add(ip);
      ips.add(ip);
    }
    try {
      ctx.store().updateStatus(new Pod(pod.metadata(), pod.spec(), pod.status().withPodIPs(
          ips.stream().map(IpAddress::toString).toList())));
    } catch (ConflictException | NotFoundException e) {
      used.removeAll(ips);
      return Result.requeue();
    }
    byPod.put(key, ips);
    return Result.done();
  }

  private static @org.jspecify.annotations.Nullable IpAddress next(IpPrefix cidr, Set<IpAddress> used) {
    BigInteger size = cidr.size();
    BigInteger last = cidr.family() == IPFamily.IPv4 ? size.subtract(BigInteger.ONE) : size;
    BigInteger limit = last.min(BigInteger.valueOf(1 << 20));
    for (BigInteger i = BigInteger.TWO; i.compareTo(limit) < 0; i = i.add(BigInteger.ONE)) {
      IpAddress a = cidr.address(i);
      if (!used.contains(a)) {
        return a;
      }
    }
    return null;
  }

  @Override
  public void close() {
    controller.close();
  }
}
