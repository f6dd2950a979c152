package io.fleetkit.reconcile.node;

import io.fleetkit.api.ConflictException;
import io.fleetkit.api.NotFoundException;
import io.fleetkit.api.autoscaling.NodePool;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.meta.OwnerReference;
import io.fleetkit.api.resource.dra.ResourceSlice;
import io.fleetkit.api.store.ObjectStore;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The DRA drivers of the nodes of {@link NodePool}s with device templates, as their kubelet plugins publish devices:
 * once a node's drivers run ({@code driversRunning}, by default when the node is Ready) it gets the ResourceSlices of
 * its pool's templates ({@link io.fleetkit.api.autoscaling.NodeTemplate#resourceSlicesFor}), or those a given
 * function says the node has (such as the provisioner's {@code resourceSlicesFor}, from a node's instance type), each
 * controlled by the node (an owner reference, as a kubelet plugin sets it); a slice controlled by a node that is
 * gone, replaced (another uid) or being deleted is deleted. Slices are never updated: a node's slices are those it
 * had when they were published.
 *
 * <p>{@link #sync()} is idempotent: call it whenever nodes may have changed (a simulation calls it every simulated
 * second while a pool has device templates). Not thread-safe.
 */
public final class ResourceSlicePublisher {
  private static final Logger LOG = LoggerFactory.getLogger(ResourceSlicePublisher.class);

  private final ObjectStore store;
  private final Predicate<Node> driversRunning;
  /** The slices of a node, or {@code null}: those of its pool's templates. */
  private final @Nullable Function<Node, List<ResourceSlice>> slicesFor;

  private ResourceSlicePublisher(ObjectStore store, Predicate<Node> driversRunning,
      @Nullable Function<Node, List<ResourceSlice>> slicesFor) {
    this.store = store;
    this.driversRunning = driversRunning;
    this.slicesFor = slicesFor;
  }

  /** A publisher whose drivers run on a node once it is Ready. */
  public static ResourceSlicePublisher of(ObjectStore store) {
    return of(store, Node::isReady);
  }

  /**
   * A publisher whose drivers run on the nodes {@code driversRunning} accepts (a simulation with node start-up phases:
   * once a node's driver phase is over).
   */
  public static ResourceSlicePublisher of(ObjectStore store, Predicate<Node> driversRunning) {
    return new ResourceSlicePublisher(Objects.requireNonNull(store, "store"),
        Objects.requireNonNull(driversRunning, "driversRunning"), null);
  }

  /**
   * A publisher whose drivers run on the nodes {@code driversRunning} accepts and publish the slices
   * {@code slicesFor} gives for a node (empty: none), instead of its pool's templates.
   */
  public static ResourceSlicePublisher of(ObjectStore store, Predicate<Node> driversRunning,
      Function<Node, List<ResourceSlice>> slicesFor) {
    return new ResourceSlicePublisher(Objects.requireNonNull(store, "store"),
        Objects.requireNonNull(driversRunning, "driversRunning"), Objects.requireNonNull(slicesFor, "slicesFor"));
  }

  /**
   * Publishes the slices missing for the nodes whose drivers run and deletes those of nodes gone, replaced or being
   * deleted.
   *
   * @return how many slices were created or deleted
   */
  public int sync() {
    Function<Node, List<ResourceSlice>> of = slicesFor;
    if (of == null) {
      Map<String, NodePool> pools = new HashMap<>();
      for (NodePool p : store.list(NodePool.class).items()) {
        if (!p.spec().template().resourceSlices().isEmpty()) {
          pools.put(p.metadata().name(), p);
        }
      }
      of = n -> {
        NodePool pool = pools.get(n.metadata().labels().get(NodePool.POOL_LABEL));
        return pool == null ? List.of() : pool.spec().template().resourceSlicesFor(n.name());
      };
    }
    List<ResourceSlice> slices = store.list(ResourceSlice.class).items();
    Set<String> present = new HashSet<>();
    for (ResourceSlice s : slices) {
      present.add(s.metadata().name());
    }
    Map<String, Node> nodes = new HashMap<>();
    int changed = 0;
    for (Node n : store.list(Node.class).items()) {
      nodes.put(n.name(), n);
      if (n.metadata().deletionTimestamp() != null || !driversRunning.test(n)) {
        continue;
      }
      for (ResourceSlice s : of.apply(n)) {
        if (present.contains(s.metadata().name())) {
          continue;
        }
        OwnerReference owner = new OwnerReference("v1", Node.KIND, n.name(), n.metadata().uid(), true, false);
        try {
          store.create(s.withMetadata(s.metadata().toBuilder().ownerReference(owner).build()));
          changed++;
        } catch (ConflictException e) {
          LOG.debug("ResourceSlice {} for node {} already exists", s.metadata().name(), n.name());
        }
      }
    }
    for (ResourceSlice s : slices) {
      OwnerReference c = s.metadata().controllerRef();
      if (c == null || !c.kind().equals(Node.KIND) || s.metadata().deletionTimestamp() != null) {
        continue;
      }
      Node n = nodes.get(c.name());
      if (n == null || !n.metadata().uid().equals(c.uid()) || n.metadata().deletionTimestamp() != null) {
        try {
          store.delete(ResourceSlice.class, "", s.metadata().name());
          changed++;
        } catch (NotFoundException e) {
          // deleted meanwhile (the garbage collector follows the same owner reference)
        }
      }
    }
    return changed;
  }
}
