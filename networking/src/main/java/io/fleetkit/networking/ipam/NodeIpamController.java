package io.fleetkit.networking.ipam;

import io.fleetkit.api.ConflictException;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.reconcile.Controller;
import io.fleetkit.reconcile.ControllerBuilder;
import io.fleetkit.reconcile.ReconcileContext;
import io.fleetkit.reconcile.Result;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * kube-controller-manager's range allocator ({@code --allocate-node-cidrs}): every Node without
 * {@code spec.podCIDRs} gets one block per cluster CIDR (one per family); blocks already on Nodes are occupied
 * first; blocks overlapping the service CIDR are never handed out; a deleted Node's blocks are released. When a
 * cluster CIDR is full the Node is left without a CIDR and retried later.
 */
public final class NodeIpamController implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(NodeIpamController.class);

  private final List<CidrSet> sets;
  private final Map<String, List<IpPrefix>> byNode = new HashMap<>();
  private final Controller<Node> controller;

  /**
   * @param clusterCidrs one or two (dual-stack) CIDR sets
   * @param serviceCidr the service range, occupied where it overlaps a cluster CIDR; {@code null} when none
   */
  public NodeIpamController(ObjectStore store, List<CidrSet> clusterCidrs, @Nullable IpPrefix serviceCidr,
      boolean stepping) {
    if (clusterCidrs.isEmpty() || clusterCidrs.size() > 2) {
      throw new IllegalArgumentException("node IPAM needs one or two cluster CIDRs, got " + clusterCidrs.size());
    }
    this.sets = List.copyOf(clusterCidrs);
    if (serviceCidr != null) {
      for (CidrSet s : sets) {
        if (s.clusterCidr().overlaps(serviceCidr)) {
          s.occupy(serviceCidr);
        }
      }
    }
    for (Node n : store.list(Node.class).items()) {
      occupyExisting(n);
    }
    ControllerBuilder<Node> b = Controller.builder(Objects.requireNonNull(store, "store"), Node.class)
        .name("node-ipam").reconciler(this::reconcile);
    this.controller = stepping ? b.stepping().build() : b.build();
  }

  private synchronized void occupyExisting(Node n) {
    List<IpPrefix> mine = new ArrayList<>();
    for (String c : n.spec().podCIDRs()) {
      IpPrefix p = IpPrefix.parseSloppy(c); // a legacy field: ParseCIDRSloppy
      for (CidrSet s : sets) {
        if (s.clusterCidr().contains(p)) {
          s.occupy(p);
          mine.add(p);
        }
      }
    }
    if (!mine.isEmpty()) {
      byNode.put(n.metadata().name(), mine);
    }
  }

  public CompletableFuture<Void> start() {
    return controller.start();
  }

  public int runUntilIdle() {
    return controller.runUntilIdle();
  }

  private synchronized Result reconcile(ReconcileContext<Node> ctx) {
    String name = ctx.key().name();
    Node n = ctx.object().orElse(null);
    if (n == null) {
      List<IpPrefix> freed = byNode.remove(name);
      if (freed != null) {
        for (IpPrefix p : freed) {
          sets.stream().filter(s -> s.clusterCidr().contains(p)).forEach(s -> s.release(p));
        }
      }
      return Result.done();
    }
    if (!n.spec().podCIDRs().isEmpty()) {
      if (!byNode.containsKey(name)) {
        occupyExisting(n);
      }
      return Result.done();
    }
    List<IpPrefix> got = new ArrayList<>();
    try {
      for (CidrSet s : sets) {
        got.add(s.allocateNext());
      }
    } catch (AllocationException e) {
      for (IpPrefix p : got) {
        sets.stream().filter(s -> s.clusterCidr().contains(p)).forEach(s -> s.release(p));
      }
      LOG.debug("node-ipam: Node {}: {}", name, e.getMessage());
      return Result.requeueAfter(java.time.Duration.ofSeconds(30));
    }
    List<String> cidrs = got.stream().map(IpPrefix::toString).toList();
    try {
      ctx.store().update(n.withSpec(n.spec().withPodCIDRs(cidrs)));
    } catch (ConflictException e) {
      for (IpPrefix p : got) {
        sets.stream().filter(s -> s.clusterCidr().contains(p)).forEach(s -> s.release(p));
      }
      return Result.requeue();
    }
    byNode.put(name, got);
    return Result.done();
  }

  @Override
  public void close() {
    controller.close();
  }
}
