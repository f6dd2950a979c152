package io.fleetkit.api.store.spi;

import io.fleetkit.api.core.Namespace;
import io.fleetkit.api.core.NamespacePhase;
import io.fleetkit.api.core.NamespaceSpec;
import io.fleetkit.api.core.NamespaceStatus;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.store.DeleteOptions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * What the writes do to a Namespace beyond the generic rules, as Kubernetes' namespace registry
 * ({@code pkg/registry/core/namespace/strategy.go} and {@code storage/storage.go}):
 *
 * <ul>
 *   <li>create ({@code PrepareForCreate}): the phase is Active, without conditions, and {@code spec.finalizers}
 *       gets {@value Namespace#KUBERNETES_FINALIZER} if it lacks it;</li>
 *   <li>update ({@code PrepareForUpdate}): {@code spec.finalizers} are kept from the stored namespace (only
 *       {@code namespaces/finalize} changes them);</li>
 *   <li>finalize ({@code namespaceFinalizeStrategy}): the update's rules with {@code spec.finalizers} taken from the
 *       request;</li>
 *   <li>delete ({@code REST.Delete}): the first deletion only marks the namespace (deletion timestamp, phase
 *       Terminating), whatever its finalizers, and sets the {@code orphan} and {@code foregroundDeletion} finalizers
 *       its options ask for; a later one changes nothing while {@code spec.finalizers} hold it, and is then the
 *       generic deletion (removed when it leaves {@code metadata.finalizers} empty);</li>
 *   <li>an update or finalize of a namespace being deleted removes it when it leaves both lists empty
 *       ({@code ShouldDeleteNamespaceDuringUpdate}).</li>
 * </ul>
 *
 * Stateless.
 */
final class NamespaceWrites {
  private NamespaceWrites() {}

  static Namespace prepareForCreate(Namespace ns) {
    List<String> finalizers = ns.spec().finalizers();
    Namespace prepared = ns.status().equals(NamespaceStatus.ACTIVE) ? ns : ns.withStatus(NamespaceStatus.ACTIVE);
    if (finalizers.contains(Namespace.KUBERNETES_FINALIZER)) {
      return prepared;
    }
    List<String> with = new ArrayList<>(finalizers);
    with.add(Namespace.KUBERNETES_FINALIZER);
    return prepared.withSpec(new NamespaceSpec(with));
  }

  static Namespace prepareForUpdate(Namespace stored, Namespace updated) {
    return updated.spec().equals(stored.spec()) ? updated : updated.withSpec(stored.spec());
  }

  /** Whether a namespace being deleted may go: neither list holds it any longer. */
  static boolean removable(Namespace candidate) {
    return candidate.metadata().finalizers().isEmpty() && candidate.spec().finalizers().isEmpty();
  }

  /**
   * The registry's {@code REST.Delete} after its preconditions: the first deletion marks (deletion timestamp, phase
   * Terminating) with the GC finalizers the options ask for ({@link DeletionFinalizers#forNamespaceDeletion}); a
   * later one changes nothing while {@code spec.finalizers} hold the namespace, and is then the generic store's
   * deletion ({@code r.store.Delete}).
   */
  static WriteRules.Change<Namespace> delete(Namespace stored, DeleteOptions options, Instant now,
      GarbageCollectionPolicy policy) {
    ObjectMeta old = stored.metadata();
    if (old.deletionTimestamp() == null) {
      // Upstream's first deletion is a GuaranteedUpdate that sets the timestamp, the phase and the GC finalizers and
      // returns; FleetKit also bumps generation when it marks an object, as its store contract says for every kind.
      List<String> gc = DeletionFinalizers.forNamespaceDeletion(old.finalizers(), options);
      ObjectMeta meta = new ObjectMeta(old.name(), old.namespace(), old.uid(), old.resourceVersion(),
          old.generation() + 1, old.labels(), old.annotations(), old.ownerReferences(),
          gc == null ? old.finalizers() : gc, old.creationTimestamp(), now);
      Namespace marked = stored.withMetadata(meta);
      if (marked.status().phase() != NamespacePhase.Terminating) {
        marked = marked.withStatus(marked.status().withPhase(NamespacePhase.Terminating));
      }
      return new WriteRules.Change<>(WriteRules.Effect.PUT, marked);
    }
    if (!stored.spec().finalizers().isEmpty()) {
      return new WriteRules.Change<>(WriteRules.Effect.NONE, stored);
    }
    return WriteRules.deleteGeneric(stored, options, now, policy);
  }
}
