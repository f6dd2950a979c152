package io.fleetkit.reconcile.controllers.internal;

import io.fleetkit.api.ConflictException;
import io.fleetkit.api.NotFoundException;
import io.fleetkit.api.admission.AdmissionDeniedException;
import io.fleetkit.api.core.ConfigMap;
import io.fleetkit.api.core.Namespace;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.reconcile.ReconcileContext;
import io.fleetkit.reconcile.Reconciler;
import io.fleetkit.reconcile.Result;
import io.fleetkit.reconcile.controllers.RootCACertPublisher;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The root CA publisher's sync of one namespace, after upstream's {@code syncNamespace}: the namespace's
 * {@value RootCACertPublisher#CONFIG_MAP_NAME} ConfigMap, read from the cache, is created when missing (with the
 * description annotation and {@code ca.crt}); when present, it is left alone if its {@code data} is exactly
 * {@code ca.crt} with the bundle and it has a non-empty description annotation (whatever its text), else its
 * {@code data} is replaced and the annotation set, its other metadata and its {@code binaryData} kept. A create the
 * API refuses because the namespace is gone or terminating is not retried; other failures (a write conflict, a quota)
 * are retried with the queue's backoff.
 *
 * <p>A namespace that is gone or terminating is left alone as a whole (upstream queues no terminating namespace, but
 * would still restore a changed ConfigMap in one when the ConfigMap's own event queues it).
 *
 * <p>Thread-safe: stateless.
 */
public final class RootCACertReconciler implements Reconciler<Namespace> {
  private static final Logger LOG = LoggerFactory.getLogger(RootCACertReconciler.class);

  private final Map<String, String> data;

  public RootCACertReconciler(String rootCA) {
    this.data = Map.of(RootCACertPublisher.CA_KEY, rootCA);
  }

  @Override
  public Result reconcile(ReconcileContext<Namespace> ctx) {
    Namespace ns = ctx.object().orElse(null);
    if (ns == null || ns.terminating()) {
      return Result.done();
    }
    String name = ns.metadata().name();
    ConfigMap cm = ctx.lister(ConfigMap.class).get(name, RootCACertPublisher.CONFIG_MAP_NAME).orElse(null);
    if (cm == null) {
      ObjectMeta meta = ObjectMeta.builder().namespace(name).name(RootCACertPublisher.CONFIG_MAP_NAME)
          .annotation(RootCACertPublisher.DESCRIPTION_ANNOTATION, RootCACertPublisher.DESCRIPTION).build();
      try {
        ctx.store().create(new ConfigMap(meta, data, Map.of(), false));
      } catch (AdmissionDeniedException e) {
        Namespace now = ctx.store().get(Namespace.class, "", name).orElse(null);
        if (now != null && !now.terminating()) {
          throw e; // refused for another reason (a quota): retried with backoff, as upstream
        }
        LOG.debug("root CA ConfigMap not created in namespace {}: {}", name, e.getMessage());
      }
      return Result.done();
    }
    String description = cm.metadata().annotations().get(RootCACertPublisher.DESCRIPTION_ANNOTATION);
    if (cm.data().equals(data) && description != null && !description.isEmpty()) {
      return Result.done();
    }
    ObjectMeta meta = cm.metadata().toBuilder()
        .annotation(RootCACertPublisher.DESCRIPTION_ANNOTATION, RootCACertPublisher.DESCRIPTION).build();
    try {
      ctx.store().update(new ConfigMap(meta, data, cm.binaryData(), cm.immutable()));
    } catch (ConflictException | NotFoundException e) {
      LOG.debug("root CA ConfigMap in namespace {} not updated, retrying: {}", name, e.getMessage());
      return Result.requeue();
    }
    return Result.done();
  }
}
