package io.fleetkit.api.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.ConflictException;
import io.fleetkit.api.ValidationException;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodPhase;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.time.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The graceful deletion of pods through a store. Ported from kubernetes/apiserver at commit
 * 24a394e516bfda066d7e2221d7d92c052de27c54, {@code pkg/registry/generic/registry/store_test.go}:
 * TestStoreGracefulDeleteWithResourceVersion and TestGracefulStoreHandleFinalizers (upstream runs the latter with
 * garbage collection on and off; FleetKit's store always runs it on, and the pod's GC finalizers are none either
 * way). Upstream's last update of that test also moves the pod to another node, which FleetKit's pod update rules
 * refuse (as the real pod registry's would); it keeps the node here. The other tests are FleetKit's.
 */
public abstract class ObjectStoreGracefulDeletionContract extends StoreContract {
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  private final ManualClock clock = new ManualClock(T0);
  private final ObjectStore store = builder().clock(clock).directDelivery().build();
  private final Recorder<Pod> events = new Recorder<>();

  protected ObjectStoreGracefulDeletionContract() {
    store.watch(Pod.class, "", events);
  }

  private static Pod pod(String name, String node, String... finalizers) {
    Pod pod = Pod.builder().namespace("test").name(name).nodeName(node)
        .container("c", "img", ResourceList.EMPTY).build();
    return pod.withMetadata(pod.metadata().toBuilder().finalizers(List.of(finalizers)).build());
  }

  // ---------------------------------------------------------------------------------------------- upstream

  @Test
  void storeGracefulDeleteWithResourceVersion_gracePeriodZero_deletedAtOnce() {
    Pod created = store.create(pod("foo", "machine"));
    DeleteOptions options = DeleteOptions.gracePeriod(0)
        .withPreconditions(DeletePreconditions.resourceVersion(created.metadata().resourceVersion()));

    store.delete(Pod.class, "test", "foo", options);

    assertThat(store.get(Pod.class, "test", "foo")).as("pod foo should have been deleted immediately").isEmpty();
  }

  @Test
  void gracefulStoreHandleFinalizers_gracePeriodZeroWithFinalizer_removedWhenTheFinalizerGoes() {
    Pod created = store.create(pod("foo", "machine", "foo.com/x"));

    // delete the pod with grace period=0, the pod should still exist because it has a finalizer
    Pod marked = store.delete(Pod.class, "test", "foo", DeleteOptions.gracePeriod(0));
    assertThat(store.get(Pod.class, "test", "foo")).isPresent();
    assertThat(marked.metadata().deletionGracePeriodSeconds()).isEqualTo(0L);

    // upstream's update carries the resourceVersion of the object it created from, which Go's Create left empty
    Pod same = store.update(pod("foo", "machine", "foo.com/x"));
    assertThat(same.metadata().uid()).isEqualTo(created.metadata().uid());
    // the object should still exist, because it still has a finalizer
    assertThat(store.get(Pod.class, "test", "foo")).isPresent();
    assertThat(same.metadata().deletionTimestamp()).isEqualTo(marked.metadata().deletionTimestamp());

    store.update(pod("foo", "machine"));
    // the pod should be removed, because its finalizer is removed
    assertThat(store.get(Pod.class, "test", "foo")).isEmpty();
  }

  // ---------------------------------------------------------------------------------------------- FleetKit

  @Test
  void delete_boundPod_markedWithItsGracePeriod_modifiedEvent() {
    store.create(pod("web", "node-1"));

    Pod marked = store.delete(Pod.class, "test", "web");

    ObjectMeta m = marked.metadata();
    assertThat(m.deletionTimestamp()).isEqualTo(T0.plusSeconds(30));
    assertThat(m.deletionGracePeriodSeconds()).isEqualTo(30L);
    assertThat(m.generation()).isEqualTo(2);
    assertThat(store.get(Pod.class, "test", "web")).contains(marked);
    assertThat(events.summary()).containsExactly("ADDED web@2", "MODIFIED web@3");
  }

  @Test
  void delete_gracePeriodZeroAfterGracefulMark_removedWithDeletedEvent() {
    Pod created = store.create(pod("web", "node-1"));
    store.delete(Pod.class, "test", "web", DeleteOptions.gracePeriod(10));
    clock.advance(Duration.ofSeconds(4));

    store.delete(Pod.class, "test", "web", DeleteOptions.gracePeriod(0)
        .withPreconditions(DeletePreconditions.uid(created.metadata().uid())));

    assertThat(store.get(Pod.class, "test", "web")).isEmpty();
    assertThat(events.summary()).containsExactly("ADDED web@2", "MODIFIED web@3", "DELETED web@4");
  }

  @Test
  void delete_unboundOrTerminalPod_removedAtOnce() {
    store.create(pod("pending", ""));
    Pod done = store.create(pod("done", "node-1"));
    store.updateStatus(done.withStatus(done.status().withPhase(PodPhase.Succeeded)));

    store.delete(Pod.class, "test", "pending");
    store.delete(Pod.class, "test", "done");

    assertThat(store.list(Pod.class, "test").items()).isEmpty();
  }

  @Test
  void delete_again_mayOnlyShortenTheGracePeriod() {
    store.create(pod("web", "node-1"));
    store.delete(Pod.class, "test", "web", DeleteOptions.gracePeriod(60));
    clock.advance(Duration.ofSeconds(10));

    Pod longer = store.delete(Pod.class, "test", "web", DeleteOptions.gracePeriod(120));
    assertThat(longer.metadata().deletionTimestamp()).isEqualTo(T0.plusSeconds(60));
    Pod unasked = store.delete(Pod.class, "test", "web");
    assertThat(unasked).isEqualTo(longer);
    Pod shorter = store.delete(Pod.class, "test", "web", DeleteOptions.gracePeriod(20));

    assertThat(shorter.metadata().deletionTimestamp()).isEqualTo(T0.plusSeconds(20));
    assertThat(shorter.metadata().deletionGracePeriodSeconds()).isEqualTo(20L);
    assertThat(shorter.metadata().generation()).isEqualTo(2); // bumped by the first mark only
    assertThat(events.summary()).containsExactly("ADDED web@2", "MODIFIED web@3", "MODIFIED web@4");
  }

  @Test
  void delete_pendingGracefulDeletion_keepsItsFinalizersWhateverThePolicy() {
    store.create(pod("web", "node-1"));
    Pod marked = store.delete(Pod.class, "test", "web");

    Pod again = store.delete(Pod.class, "test", "web", DeleteOptions.orphan());

    assertThat(again).isEqualTo(marked);
    assertThat(again.metadata().finalizers()).isEmpty();
  }

  @Test
  void update_gracefullyDeletedPodLosingItsFinalizers_staysUntilTheFinalDeletion() {
    store.create(pod("web", "node-1", "example.com/hold"));
    Pod marked = store.delete(Pod.class, "test", "web");

    Pod released = store.update(pod("web", "node-1"));

    assertThat(released.metadata().finalizers()).isEmpty();
    assertThat(released.metadata().deletionGracePeriodSeconds()).isEqualTo(30L);
    assertThat(store.get(Pod.class, "test", "web")).isPresent();
    store.delete(Pod.class, "test", "web", DeleteOptions.gracePeriod(0));
    assertThat(store.get(Pod.class, "test", "web")).isEmpty();
    assertThat(marked.metadata().finalizers()).containsExactly("example.com/hold");
  }

  @Test
  void update_keepsTheStoredGracePeriod_refusesAnother() {
    store.create(pod("web", "node-1"));
    Pod marked = store.delete(Pod.class, "test", "web");

    Pod relabelled = store.update(pod("web", "node-1").withMetadata(pod("web", "node-1").metadata()
        .withLabels(java.util.Map.of("a", "b"))));
    assertThat(relabelled.metadata().deletionGracePeriodSeconds()).isEqualTo(30L);
    assertThat(relabelled.metadata().deletionTimestamp()).isEqualTo(marked.metadata().deletionTimestamp());

    Pod changed = relabelled.withMetadata(relabelled.metadata().toBuilder().deletionGracePeriodSeconds(5L).build());
    assertThatThrownBy(() -> store.update(changed))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("metadata.deletionGracePeriodSeconds")
        .hasMessageContaining("field is immutable");
  }

  @Test
  void create_ignoresADeletionGracePeriod() {
    Pod pod = pod("web", "node-1");
    Pod created = store.create(pod.withMetadata(pod.metadata().toBuilder().deletionGracePeriodSeconds(3L).build()));

    assertThat(created.metadata().deletionGracePeriodSeconds()).isNull();
  }

  @Test
  void delete_uidPreconditionOfAnotherPod_conflict() {
    store.create(pod("web", "node-1"));
    store.delete(Pod.class, "test", "web");

    assertThatThrownBy(() -> store.delete(Pod.class, "test", "web", DeleteOptions.gracePeriod(0)
        .withPreconditions(DeletePreconditions.uid("other"))))
        .isInstanceOf(ConflictException.class);
    assertThat(store.get(Pod.class, "test", "web")).isPresent();
  }
}
