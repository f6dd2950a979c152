package io.fleetkit.reconcile.controllers.internal;

import io.fleetkit.api.apps.ReplicaSet;
import io.fleetkit.api.apps.ReplicaSetCondition;
import io.fleetkit.api.apps.ReplicaSetSpec;
import io.fleetkit.api.apps.ReplicaSetStatus;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.ReplicationController;
import io.fleetkit.api.core.ReplicationControllerCondition;
import io.fleetkit.api.core.ReplicationControllerSpec;
import io.fleetkit.api.core.ReplicationControllerStatus;
import io.fleetkit.api.events.EventRecorder;
import io.fleetkit.api.events.ObjectReference;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.meta.OwnerReference;
import io.fleetkit.api.store.ForwardingObjectStore;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.reconcile.Lister;
import io.fleetkit.reconcile.ObjectKey;
import io.fleetkit.reconcile.ReconcileContext;
import io.fleetkit.reconcile.Reconciler;
import io.fleetkit.reconcile.Result;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The ReplicationController reconciler: Kubernetes' replication manager ({@code pkg/controller/replication}) is the
 * ReplicaSet controller run over ReplicationControllers through a conversion layer ({@code conversion.go}), and so
 * is this one: it hands a {@link ReplicaSetReconciler} a context in which each ReplicationController reads as the
 * ReplicaSet with the same metadata, the equality selector as {@code matchLabels} and the same template, status
 * and conditions. What that reconciler writes goes back as the ReplicationController's: its status writes become the
 * ReplicationController's, the controller reference of the pods it creates or adopts names the ReplicationController
 * (kind {@code ReplicationController}, apiVersion {@code v1}), and so do its events. Not thread-safe beyond what the
 * wrapped reconciler is (one instance per controller, as that one).
 */
public final class ReplicationControllerReconciler implements Reconciler<ReplicationController> {
  private final ReplicaSetReconciler replicaSets;

  public ReplicationControllerReconciler(ReplicaSetReconciler replicaSets) {
    this.replicaSets = replicaSets;
  }

  @Override
  public Result reconcile(ReconcileContext<ReplicationController> ctx) {
    return replicaSets.reconcile(new AsReplicaSets(ctx));
  }

  /** Upstream's {@code convertRCtoRS}: the same metadata, the selector as matchLabels, the same status. */
  public static ReplicaSet toReplicaSet(ReplicationController rc) {
    ReplicationControllerSpec s = rc.spec();
    ReplicationControllerStatus st = rc.status();
    List<ReplicaSetCondition> conditions = new ArrayList<>(st.conditions().size());
    for (ReplicationControllerCondition c : st.conditions()) {
      conditions.add(new ReplicaSetCondition(c.type(), c.status(), c.reason(), c.message(), c.lastTransitionTime()));
    }
    return new ReplicaSet(rc.metadata(), new ReplicaSetSpec(s.replicas(), LabelSelector.of(s.selector()),
        rc.template(), s.minReadySeconds()), new ReplicaSetStatus(st.replicas(), st.fullyLabeledReplicas(),
        st.readyReplicas(), st.availableReplicas(), st.observedGeneration(), conditions));
  }

  /** Upstream's {@code convertRStoRC}, for a replica set made by {@link #toReplicaSet} (its matchLabels only). */
  public static ReplicationController toReplicationController(ReplicaSet rs) {
    ReplicaSetSpec s = rs.spec();
    ReplicaSetStatus st = rs.status();
    List<ReplicationControllerCondition> conditions = new ArrayList<>(st.conditions().size());
    for (ReplicaSetCondition c : st.conditions()) {
      conditions.add(new ReplicationControllerCondition(c.type(), c.status(), c.reason(), c.message(),
          c.lastTransitionTime()));
    }
    return new ReplicationController(rs.metadata(), new ReplicationControllerSpec(s.replicas(),
        s.minReadySeconds(), s.selector().matchLabels(), s.template()), new ReplicationControllerStatus(
        st.replicas(), st.fullyLabeledReplicas(), st.readyReplicas(), st.availableReplicas(),
        st.observedGeneration(), conditions));
  }

  /** Whether {@code ref} is what the ReplicaSet reconciler writes for the replication controller of uid {@code uid}. */
  private static boolean viewRef(String apiVersion, String kind, String refUid, String uid) {
    return kind.equals(ReplicaSet.KIND) && apiVersion.equals(ReplicaSet.API_VERSION) && refUid.equals(uid);
  }

  /** The reconcile context of one ReplicationController, as the ReplicaSet reconciler reads it. */
  private static final class AsReplicaSets implements ReconcileContext<ReplicaSet> {
    private final ReconcileContext<ReplicationController> ctx;
    private final Lister<ReplicaSet> lister;
    private final ObjectStore store;
    private final EventRecorder events;

    AsReplicaSets(ReconcileContext<ReplicationController> ctx) {
      this.ctx = ctx;
      this.lister = new ConvertingLister(ctx.lister());
      String uid = ctx.object().map(rc -> rc.metadata().uid()).orElse("");
      this.store = new ConvertingStore(ctx.store(), uid);
      EventRecorder target = ctx.events();
      this.events = (regarding, related, type, reason, action, note) -> target.event(
          viewRef(regarding.apiVersion(), regarding.kind(), regarding.uid(), uid)
              ? new ObjectReference(ReplicationController.API_VERSION, ReplicationController.KIND,
                  regarding.namespace(), regarding.name(), regarding.uid(), regarding.fieldPath())
              : regarding, related, type, reason, action, note);
    }

    @Override public ObjectKey key() { return ctx.key(); }
    @Override public Optional<ReplicaSet> object() { return ctx.object().map(ReplicationControllerReconciler::toReplicaSet); }
    @Override public Lister<ReplicaSet> lister() { return lister; }

    @Override
    @SuppressWarnings("unchecked")
    public <O extends ApiObject<O>> Lister<O> lister(Class<O> kind) {
      return kind == ReplicaSet.class ? (Lister<O>) lister : ctx.lister(kind);
    }

    @Override public ObjectStore store() { return store; }
    @Override public Clock clock() { return ctx.clock(); }
    @Override public EventRecorder events() { return events; }
    @Override public int retries() { return ctx.retries(); }
  }

  /**
   * The store as the ReplicaSet reconciler uses it: ReplicaSets read are the ReplicationControllers, a ReplicaSet
   * status written is the ReplicationController's, and the controller reference of a pod created or updated names
   * the ReplicationController of uid {@code uid}.
   */
  private static final class ConvertingStore extends ForwardingObjectStore {
    private final String uid;

    ConvertingStore(ObjectStore delegate, String uid) {
      super(delegate);
      this.uid = uid;
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T extends ApiObject<T>> Optional<T> get(Class<T> kind, String namespace, String name) {
      if (kind == ReplicaSet.class) {
        return (Optional<T>) delegate().get(ReplicationController.class, namespace, name)
            .map(ReplicationControllerReconciler::toReplicaSet);
      }
      return super.get(kind, namespace, name);
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T extends ApiObject<T>> T require(Class<T> kind, String namespace, String name) {
      if (kind == ReplicaSet.class) {
        return (T) toReplicaSet(delegate().require(ReplicationController.class, namespace, name));
      }
      return super.require(kind, namespace, name);
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T extends ApiObject<T>> T updateStatus(T object) {
      if (object instanceof ReplicaSet rs) {
        return (T) toReplicaSet(delegate().updateStatus(toReplicationController(rs)));
      }
      return super.updateStatus(object);
    }

    @Override
    public <T extends ApiObject<T>> T create(T object) {
      return super.create(owned(object));
    }

    @Override
    public <T extends ApiObject<T>> T update(T object) {
      return super.update(owned(object));
    }

    /** A pod whose references to the ReplicaSet view name the ReplicationController instead. */
    @SuppressWarnings("unchecked")
    private <T extends ApiObject<T>> T owned(T object) {
      if (!(object instanceof Pod pod)) {
        return object;
      }
      List<OwnerReference> refs = pod.metadata().ownerReferences();
      List<OwnerReference> out = new ArrayList<>(refs.size());
      boolean changed = false;
      for (OwnerReference r : refs) {
        if (viewRef(r.apiVersion(), r.kind(), r.uid(), uid)) {
          out.add(new OwnerReference(ReplicationController.API_VERSION, ReplicationController.KIND, r.name(),
              r.uid(), r.controller(), r.blockOwnerDeletion()));
          changed = true;
        } else {
          out.add(r);
        }
      }
      return changed ? (T) pod.withMetadata(pod.metadata().toBuilder().ownerReferences(out).build()) : object;
    }
  }

  /** The ReplicationController cache read as ReplicaSets. */
  private record ConvertingLister(Lister<ReplicationController> rcs) implements Lister<ReplicaSet> {
    @Override
    public Optional<ReplicaSet> get(String namespace, String name) {
      return rcs.get(namespace, name).map(ReplicationControllerReconciler::toReplicaSet);
    }

    @Override public List<ReplicaSet> list() { return convert(rcs.list()); }
    @Override public List<ReplicaSet> list(String namespace) { return convert(rcs.list(namespace)); }

    @Override
    public List<ReplicaSet> list(String namespace, LabelSelector selector) {
      return convert(rcs.list(namespace, selector));
    }

    @Override
    public List<ReplicaSet> byIndex(String indexName, String value) {
      return convert(rcs.byIndex(indexName, value));
    }

    @Override public Set<String> indexNames() { return rcs.indexNames(); }
    @Override public int size() { return rcs.size(); }

    private static List<ReplicaSet> convert(List<ReplicationController> in) {
      List<ReplicaSet> out = new ArrayList<>(in.size());
      for (ReplicationController rc : in) {
        out.add(toReplicaSet(rc));
      }
      return out;
    }
  }
}
