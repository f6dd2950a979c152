package io.fleetkit.admission;

import io.fleetkit.api.admission.AdmissionOperation;
import io.fleetkit.api.admission.AdmissionRequest;
import io.fleetkit.api.admission.AdmissionVerdict;
import io.fleetkit.api.admission.ValidatingAdmissionPlugin;
import io.fleetkit.api.core.Namespace;
import io.fleetkit.api.store.ObjectStore;
import java.util.Optional;
import java.util.Set;

/**
 * Kubernetes' NamespaceLifecycle ({@code k8s.io/apiserver/pkg/admission/plugin/namespace/lifecycle/admission.go}):
 * no object may be created in a namespace that does not exist or is being terminated, and the immortal namespaces
 * ({@code default}, {@code kube-system}, {@code kube-public}) may not be deleted. Updates and deletions of namespaced
 * objects, cluster-scoped objects and operations on Namespace objects are always allowed, as upstream.
 *
 * <p>The plugin only admits. What keeps a namespace being deleted is the store's (the namespace registry's rules:
 * {@code spec.finalizers} holds {@value Namespace#KUBERNETES_FINALIZER} from creation, and deleting marks the
 * namespace Terminating), and {@link NamespaceController} deletes its content and then takes that finalizer away. The
 * store is read directly, so there is no informer lag and no live-lookup cache.
 */
public final class NamespaceLifecyclePlugin implements ValidatingAdmissionPlugin {
  public static final String NAME = "NamespaceLifecycle";
  /** Namespaces that may never be deleted. */
  public static final Set<String> IMMORTAL = Set.of("default", "kube-system", "kube-public");
  /** Upstream's message for a create into a terminating namespace (after the namespace name). */
  static final String TERMINATING = "because it is being terminated";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public AdmissionVerdict validate(AdmissionRequest request, ObjectStore store) {
    if (request.object() instanceof Namespace ns) {
      if (request.operation() == AdmissionOperation.DELETE && IMMORTAL.contains(ns.metadata().name())) {
        return AdmissionVerdict.deny("metadata.name", "this namespace may not be deleted");
      }
      return AdmissionVerdict.allow();
    }
    if (request.operation() != AdmissionOperation.CREATE || !request.object().namespaced()) {
      return AdmissionVerdict.allow();
    }
    String name = request.namespace();
    Optional<Namespace> ns = store.get(Namespace.class, "", name);
    if (ns.isEmpty()) {
      return AdmissionVerdict.deny("metadata.namespace", "namespaces \"" + name + "\" not found");
    }
    if (ns.get().terminating()) {
      return AdmissionVerdict.deny("metadata.namespace", "unable to create new content in namespace " + name + " "
          + TERMINATING);
    }
    return AdmissionVerdict.allow();
  }
}
