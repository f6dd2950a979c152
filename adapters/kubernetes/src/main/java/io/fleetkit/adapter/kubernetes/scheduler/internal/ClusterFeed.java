package io.fleetkit.adapter.kubernetes.scheduler.internal;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.PersistentVolume;
import io.fleetkit.api.core.PersistentVolumeClaim;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.policy.PodDisruptionBudget;
import io.fleetkit.api.scheduling.PodGroup;
import io.fleetkit.api.scheduling.PriorityClass;
import io.fleetkit.api.storage.StorageClass;
import io.fleetkit.scheduler.Scheduler;
import java.net.HttpURLConnection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Feeds a {@link Scheduler} from the API server through fabric8 shared informers, like kube-scheduler's informer
 * factory: PriorityClasses, PodDisruptionBudgets, PersistentVolumes, PersistentVolumeClaims, StorageClasses and
 * PodGroups (scheduling.x-k8s.io/v1alpha1, optional: skipped with a warning when the CRD is not installed) and
 * Nodes first, then every Pod (bound pods account node usage; pending pods of our profiles enter the queue).
 *
 * <p>Dropped watches are fabric8's to repair: its reflector re-watches from the last resource version, and relists
 * when the server answers 410 Gone ("resource version too old"), delivering the difference as add/update/delete
 * events. The exception handler installed here keeps an informer retrying after any failure once it has synced,
 * instead of stopping.
 *
 * <p>Preemption victims being deleted ({@link EvictedPods}) are kept out of the engine until the informer shows them
 * terminating or gone; a victim whose eviction failed is fed again ({@link #refeed}, {@link #refeedFromScheduling}).
 *
 * <p>Thread-safe: handlers run on fabric8's per-informer threads; the scheduler serializes its own state, and pod
 * events are serialized with {@link #forget} by this feed's lock.
 */
public final class ClusterFeed implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ClusterFeed.class);

  /** The coscheduling PodGroup resource. */
  public static final ResourceDefinitionContext POD_GROUPS = new ResourceDefinitionContext.Builder()
      .withGroup("scheduling.x-k8s.io").withVersion("v1alpha1").withKind(PodGroup.KIND).withPlural("podgroups")
      .withNamespaced(true).build();

  private final KubernetesClient client;
  private final Scheduler scheduler;
  private final ForgottenPods forgotten;
  private final EvictedPods evicted;
  private final Runnable wake;
  private final Consumer<String> podDeleted;
  private final List<SharedIndexInformer<?>> informers = new ArrayList<>();
  private volatile @Nullable SharedIndexInformer<io.fabric8.kubernetes.api.model.Pod> pods;

  /**
   * @param wake called after every change that may let a pod be scheduled
   * @param podDeleted called with {@code namespace/name} when a pod is deleted
   */
  public ClusterFeed(KubernetesClient client, Scheduler scheduler, ForgottenPods forgotten, EvictedPods evicted,
      Runnable wake, Consumer<String> podDeleted) {
    this.client = Objects.requireNonNull(client, "client");
    this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
    this.forgotten = Objects.requireNonNull(forgotten, "forgotten");
    this.evicted = Objects.requireNonNull(evicted, "evicted");
    this.wake = Objects.requireNonNull(wake, "wake");
    this.podDeleted = Objects.requireNonNull(podDeleted, "podDeleted");
  }

  /**
   * Starts the informers and waits until each has listed: cluster objects and nodes first, pods last.
   *
   * @throws IllegalStateException if an informer fails to list or does not sync within {@code timeout}
   */
  public void start(Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    List<CompletableFuture<Void>> first = new ArrayList<>();
    first.add(start(PriorityClass.KIND, client.scheduling().v1().priorityClasses().runnableInformer(0)));
    first.add(start(PodDisruptionBudget.KIND,
        client.policy().v1().podDisruptionBudget().inAnyNamespace().runnableInformer(0)));
    first.add(start(PersistentVolume.KIND, client.persistentVolumes().runnableInformer(0)));
    first.add(start(PersistentVolumeClaim.KIND, client.persistentVolumeClaims().inAnyNamespace().runnableInformer(0)));
    first.add(start(StorageClass.KIND, client.storage().v1().storageClasses().runnableInformer(0)));
    SharedIndexInformer<GenericKubernetesResource> pg =
        client.genericKubernetesResources(POD_GROUPS).inAnyNamespace().runnableInformer(0);
    CompletableFuture<Void> groups = start(PodGroup.KIND, pg);
    SharedIndexInformer<io.fabric8.kubernetes.api.model.Node> nodes = client.nodes().runnableInformer(0);
    nodes.exceptionHandler(ClusterFeed::retry);
    nodes.addEventHandler(new ResourceEventHandler<io.fabric8.kubernetes.api.model.Node>() {
      @Override
      public void onAdd(io.fabric8.kubernetes.api.model.Node n) {
        upsertNode(n);
      }

      @Override
      public void onUpdate(io.fabric8.kubernetes.api.model.Node old, io.fabric8.kubernetes.api.model.Node n) {
        upsertNode(n);
      }

      @Override
      public void onDelete(io.fabric8.kubernetes.api.model.Node n, boolean finalStateUnknown) {
        scheduler.removeNode(n.getMetadata().getName());
        wake.run();
      }
    });
    informers.add(nodes);
    first.add(nodes.start().toCompletableFuture());
    for (CompletableFuture<Void> f : first) {
      await(f, deadline, "cluster objects and nodes");
    }
    try {
      await(groups, deadline, "pod groups");
    } catch (IllegalStateException e) {
      LOG.warn("PodGroups (scheduling.x-k8s.io/v1alpha1) are not available ({}); gangs are scheduled without their"
          + " PodGroup; install the coscheduling CRD to enable them", e.getMessage());
    }
    SharedIndexInformer<io.fabric8.kubernetes.api.model.Pod> p = client.pods().inAnyNamespace().runnableInformer(0);
    p.exceptionHandler(ClusterFeed::retry);
    p.addEventHandler(new ResourceEventHandler<io.fabric8.kubernetes.api.model.Pod>() {
      @Override
      public void onAdd(io.fabric8.kubernetes.api.model.Pod pod) {
        upsertPod(pod); // a new gang member wakes its parked siblings in the engine (UNSCHEDULED_POD_ADD)
      }

      @Override
      public void onUpdate(io.fabric8.kubernetes.api.model.Pod old, io.fabric8.kubernetes.api.model.Pod pod) {
        upsertPod(pod);
      }

      @Override
      public void onDelete(io.fabric8.kubernetes.api.model.Pod pod, boolean finalStateUnknown) {
        deletePod(pod);
      }
    });
    informers.add(p);
    pods = p;
    await(p.start().toCompletableFuture(), deadline, "pods");
    LOG.info("cluster feed synced: {} informers", informers.size());
  }

  private <F extends HasMetadata> CompletableFuture<Void> start(String kind, SharedIndexInformer<F> informer) {
    informer.exceptionHandler(kind.equals(PodGroup.KIND) ? ClusterFeed::retryUnlessMissing : ClusterFeed::retry);
    informer.addEventHandler(new ResourceEventHandler<F>() {
      @Override
      public void onAdd(F obj) {
        upsertObject(kind, obj);
      }

      @Override
      public void onUpdate(F old, F obj) {
        upsertObject(kind, obj);
      }

      @Override
      public void onDelete(F obj, boolean finalStateUnknown) {
        ApiObject<?> core = LiveConverter.toCore(kind, obj);
        if (core != null) {
          scheduler.removeObject(core);
          wake.run();
        }
      }
    });
    informers.add(informer);
    return informer.start().toCompletableFuture();
  }

  /** Retries every failure: before the first list (the API server may be starting) and after (watch drops). */
  private static boolean retry(boolean started, Throwable t) {
    LOG.debug("informer failure (started={}), retrying: {}", started, t.toString());
    return true;
  }

  /** Like {@link #retry}, but an absent resource (404: the CRD is not installed) before the first list is final. */
  private static boolean retryUnlessMissing(boolean started, Throwable t) {
    if (!started && t instanceof KubernetesClientException k && k.getCode() == HttpURLConnection.HTTP_NOT_FOUND) {
      return false;
    }
    return retry(started, t);
  }

  private static void await(CompletableFuture<Void> f, long deadlineNanos, String what) {
    try {
      f.get(Math.max(0, deadlineNanos - System.nanoTime()), TimeUnit.NANOSECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("cluster feed: interrupted while listing " + what, e);
    } catch (ExecutionException e) {
      throw new IllegalStateException("cluster feed: listing " + what + " failed: " + e.getCause(), e.getCause());
    } catch (TimeoutException e) {
      throw new IllegalStateException("cluster feed: " + what + " did not sync in time", e);
    }
  }

  private void upsertObject(String kind, HasMetadata obj) {
    ApiObject<?> core = LiveConverter.toCore(kind, obj);
    if (core != null) {
      scheduler.addObject(core);
      wake.run();
    }
  }

  private void upsertNode(io.fabric8.kubernetes.api.model.Node n) {
    Node core = LiveConverter.toCore(Node.KIND, n);
    if (core != null) {
      scheduler.updateNode(core);
      wake.run();
    }
  }

  private synchronized void upsertPod(io.fabric8.kubernetes.api.model.Pod pod) {
    String key = LiveConverter.key(pod);
    String nodeName = pod.getSpec() == null ? null : pod.getSpec().getNodeName();
    if (nodeName != null && !nodeName.isEmpty()) {
      forgotten.clear(key);
    } else if (forgotten.isForgotten(key, uidOf(pod))) {
      return;
    }
    if (evicted.isEvicting(key, uidOf(pod))) {
      if (pod.getMetadata().getDeletionTimestamp() == null) {
        return; // a preemption victim the engine has dropped: its versions from before the delete stay out
      }
      evicted.clear(key); // terminating: the engine counts it again, and the preemptor waits for it to go
    }
    Pod core = LiveConverter.toCore(Pod.KIND, pod);
    if (core != null) {
      scheduler.updatePod(core);
      wake.run();
    }
  }

  private synchronized void deletePod(io.fabric8.kubernetes.api.model.Pod pod) {
    String key = LiveConverter.key(pod);
    forgotten.clear(key);
    evicted.clear(key);
    scheduler.removePod(key);
    podDeleted.accept(key);
    wake.run();
  }

  /**
   * Forgets a pod the API server refused to bind for good: removes it from the scheduler unless the informer has
   * already seen it bound (then the cache has it) or replaced by a new pod of the same name.
   */
  public synchronized void forget(ForgottenPods.Entry e) {
    io.fabric8.kubernetes.api.model.Pod current = pods == null ? null : pods.getStore().getByKey(e.key());
    if (current == null) {
      forgotten.clear(e.key());
      scheduler.removePod(e.key());
      return;
    }
    if (!uidOf(current).equals(e.uid())) {
      forgotten.clear(e.key());
      return;
    }
    String nodeName = current.getSpec() == null ? null : current.getSpec().getNodeName();
    if (nodeName != null && !nodeName.isEmpty()) {
      forgotten.clear(e.key());
      return;
    }
    scheduler.removePod(e.key());
  }

  /**
   * Feeds the informer's copy of a pod to the scheduler again (a preemption victim whose eviction did not happen),
   * from the scheduling thread while it holds the scheduler's lock (the engine's result listener). Takes no feed lock, so that the scheduling thread may call it while it holds the scheduler's: a delete the
   * informer has stored but not yet delivered is applied after this (its handler waits for the scheduler's lock), and
   * a delete it has delivered left nothing in the store to re-feed.
   */
  public void refeedFromScheduling(String key) {
    io.fabric8.kubernetes.api.model.Pod current = current(key);
    if (current == null) {
      return;
    }
    Pod core = LiveConverter.toCore(Pod.KIND, current);
    if (core != null) {
      scheduler.updatePod(core);
      wake.run();
    }
  }

  /** Like {@link #refeedFromScheduling}, from any thread that holds no scheduler lock: serialized with pod events. */
  public synchronized void refeed(String key) {
    io.fabric8.kubernetes.api.model.Pod current = current(key);
    if (current != null) {
      upsertPod(current);
    }
  }

  /** The informer's copy of a pod ({@code namespace/name}), or {@code null}. Takes no lock. */
  public io.fabric8.kubernetes.api.model.@Nullable Pod current(String podKey) {
    return pods == null ? null : pods.getStore().getByKey(podKey);
  }

  /** The pod's uid as the informer has it now, or empty. */
  public String uidOf(String podKey) {
    io.fabric8.kubernetes.api.model.Pod current = pods == null ? null : pods.getStore().getByKey(podKey);
    return current == null ? "" : uidOf(current);
  }

  private static String uidOf(io.fabric8.kubernetes.api.model.Pod pod) {
    String uid = pod.getMetadata() == null ? null : pod.getMetadata().getUid();
    return uid == null ? "" : uid;
  }

  /** Stops every informer. Idempotent. */
  @Override
  public void close() {
    for (SharedIndexInformer<?> i : informers) {
      try {
        i.close();
      } catch (RuntimeException e) {
        LOG.debug("closing informer: {}", e.toString());
      }
    }
    informers.clear();
  }
}
