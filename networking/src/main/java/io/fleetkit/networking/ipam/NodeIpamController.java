package io.fleetkit.networking.ipam;

import io.fleetkit.api.ConflictException;
import io.fleetkit.api.FleetKitException;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.events.Event;
import io.fleetkit.api.events.EventRecorder;
import io.fleetkit.api.events.ObjectReference;
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
 *
 * <p>Events, on the Node, as upstream's {@code RecordNodeStatusChange} records them (Warning, action
 * {@value #ACTION}, note {@code Node <name> status is now: <reason>}): {@value #CIDR_NOT_AVAILABLE} each time a
 * cluster CIDR has no free block for the Node, {@value #CIDR_ASSIGNMENT_FAILED} when writing the blocks to the Node
 * failed for another reason than a conflict (a conflict is retried at once, as upstream retries its patch); the
 * blocks are released then and the Node retried with backoff.
 */
public final class NodeIpamController implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(NodeIpamController.class);
  /** The reason of the event recorded when a cluster CIDR has no free block for a Node. */
  public static final String CIDR_NOT_AVAILABLE = "CIDRNotAvailable";
  /** The reason of the event recorded when the Node could not be updated with its blocks. */
  public static final String CIDR_ASSIGNMENT_FAILED = "CIDRAssignmentFailed";
  /** The action of the status-change events (kube's legacy events have none; the node lifecycle's spelling). */
  static final String ACTION = "StatusChange";

  private final List<CidrSet> sets;
  private final Map<String, List<IpPrefix>> byNode = new HashMap<>();
  private final Controller<Node> controller;

  /**
   * @param clusterCidrs one or two (dual-stack) CIDR sets
   * @param serviceCidr the service range, occupied where it overlaps a cluster CIDR; {@code null} when none
   */
  public NodeIpamController(ObjectStore store, List<CidrSet> clusterCidrs, @Nullable IpPrefix serviceCidr,
      boolean stepping) {
    this(store, clusterCidrs, serviceCidr, stepping, EventRecorder.NOOP);
  }

  /**
   * As {@link #NodeIpamController(ObjectStore, List, IpPrefix, boolean)}, recording the {@value #CIDR_NOT_AVAILABLE}
   * and {@value #CIDR_ASSIGNMENT_FAILED} events to {@code events} (made best effort by the reconcile runtime).
   */
  public NodeIpamController(ObjectStore store, List<CidrSet> clusterCidrs, @Nullable IpPrefix serviceCidr,
      boolean stepping, EventRecorder events) {
    Objects.requireNonNull(events, "events");
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
    b.events(events);
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
      release(got);
      LOG.debug("node-ipam: Node {}: {}", name, e.getMessage());
      statusChange(ctx, n, CIDR_NOT_AVAILABLE);
      return Result.requeueAfter(java.time.Duration.ofSeconds(30));
    }
    List<String> cidrs = got.stream().map(IpPrefix::toString).toList();
    try {
      ctx.store().update(n.withSpec(n.spec().withPodCIDRs(cidrs)));
    } catch (ConflictException e) {
      release(got);
      return Result.requeue();
    } catch (FleetKitException e) {
      LOG.debug("node-ipam: Node {}: setting podCIDRs {} failed: {}", name, cidrs, e.getMessage());
      statusChange(ctx, n, CIDR_ASSIGNMENT_FAILED);
      release(got);
      return Result.requeue();
    }
    byNode.put(name, got);
    return Result.done();
  }

  private void release(List<IpPrefix> blocks) {
    for (IpPrefix p : blocks) {
      sets.stream().filter(s -> s.clusterCidr().contains(p)).forEach(s -> s.release(p));
    }
  }

  /** Upstream's {@code RecordNodeStatusChange}, with the event type its range allocator passes (Warning). */
  private static void statusChange(ReconcileContext<Node> ctx, Node n, String status) {
    ctx.events().event(new ObjectReference("v1", "Node", "", n.name(), n.metadata().uid(), ""), null, Event.WARNING,
        status, ACTION, "Node " + n.name() + " status is now: " + status);
  }

  @Override
  public void close() {
    controller.close();
  }
}
