package io.fleetkit.api.store;

import io.fleetkit.api.time.ManualClock;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.ConflictException;
import io.fleetkit.api.NotFoundException;
import io.fleetkit.api.ValidationException;
import io.fleetkit.api.meta.ObjectMeta;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

public abstract class ObjectStoreFinalizerContract extends StoreContract {
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  private final ManualClock clock = new ManualClock(T0);
  private final ObjectStore store = builder().clock(clock).directDelivery().build();
  private final Recorder<Widget> events = new Recorder<>();

  protected ObjectStoreFinalizerContract() {
    store.watch(Widget.class, "", events);
  }

  private Widget createWithFinalizers(String name, String... finalizers) {
    return store.create(new Widget(ObjectMeta.of("ns", name).toBuilder().finalizers(List.of(finalizers)).build(),
        1, ""));
  }

  @Test
  void delete_noFinalizers_removedAtOnceWithDeletedEvent() {
    store.create(Widget.of("ns", "a", 1));

    Widget last = store.delete(Widget.class, "ns", "a");

    assertThat(store.get(Widget.class, "ns", "a")).isEmpty();
    assertThat(last.metadata().resourceVersion()).isEqualTo("3");
    assertThat(events.summary()).containsExactly("ADDED a@2", "DELETED a@3");
    assertThat(events.events().get(1).object()).isEqualTo(last);
  }

  @Test
  void delete_missing_notFound() {
    assertThatThrownBy(() -> store.delete(Widget.class, "ns", "a"))
        .isInstanceOf(NotFoundException.class)
        .hasMessage("Widget ns/a not found");
  }

  @Test
  void delete_withFinalizers_marksDeletingUntilLastFinalizerRemoved() {
    createWithFinalizers("a", "x.io/one", "x.io/two");
    clock.advance(Duration.ofSeconds(30));

    Widget marked = store.delete(Widget.class, "ns", "a");
    Widget oneLeft = store.update(marked.withMetadata(marked.metadata().toBuilder()
        .finalizers(List.of("x.io/two")).build()));
    Widget gone = store.update(oneLeft.withMetadata(oneLeft.metadata().toBuilder().finalizers(List.of()).build()));

    assertThat(marked.metadata().deletionTimestamp()).isEqualTo(T0.plusSeconds(30));
    assertThat(marked.metadata().generation()).isEqualTo(2); // as Kubernetes markAsDeleting
    assertThat(oneLeft.metadata().deletionTimestamp()).isEqualTo(T0.plusSeconds(30));
    assertThat(gone.metadata().finalizers()).isEmpty();
    assertThat(store.get(Widget.class, "ns", "a")).isEmpty();
    assertThat(events.summary()).containsExactly("ADDED a@2", "MODIFIED a@3", "MODIFIED a@4", "DELETED a@5");
  }

  @Test
  void delete_alreadyDeleting_noChange() {
    createWithFinalizers("a", "f");
    Widget marked = store.delete(Widget.class, "ns", "a");
    clock.advance(Duration.ofSeconds(5));

    Widget again = store.delete(Widget.class, "ns", "a");

    assertThat(again).isEqualTo(marked);
    assertThat(events.size()).isEqualTo(2);
  }

  @Test
  void update_addFinalizerWhileDeleting_rejected() {
    createWithFinalizers("a", "f");
    Widget marked = store.delete(Widget.class, "ns", "a");

    assertThatThrownBy(() -> store.update(marked.withMetadata(marked.metadata().toBuilder().finalizer("g").build())))
        .isInstanceOf(ValidationException.class)
        .hasMessage("Widget ns/a: metadata.finalizers \"g\" no new finalizers can be added if the object is being"
            + " deleted");
    assertThat(store.require(Widget.class, "ns", "a").metadata().finalizers()).containsExactly("f");
  }

  @Test
  void updateStatus_whileDeleting_allowedAndKeepsObject() {
    createWithFinalizers("a", "f");
    Widget marked = store.delete(Widget.class, "ns", "a");

    Widget status = store.updateStatus(marked.withPhase("Terminating"));

    assertThat(status.phase()).isEqualTo("Terminating");
    assertThat(status.metadata().deletionTimestamp()).isNotNull();
    assertThat(store.get(Widget.class, "ns", "a")).contains(status);
  }

  @Test
  void delete_uidPrecondition_mismatchConflictsMatchDeletes() {
    Widget a = store.create(Widget.of("ns", "a", 1));

    assertThatThrownBy(() -> store.delete(Widget.class, "ns", "a", DeletePreconditions.uid("stale-uid")))
        .isInstanceOf(ConflictException.class)
        .hasMessage("Operation cannot be fulfilled on Widget ns/a: Precondition failed: UID in precondition:"
            + " stale-uid, UID in object meta: " + a.metadata().uid());
    store.delete(Widget.class, "ns", "a", DeletePreconditions.uid(a.metadata().uid()));
    assertThat(store.get(Widget.class, "ns", "a")).isEmpty();
  }

  @Test
  void delete_resourceVersionPrecondition_staleConflicts() {
    Widget a = store.create(Widget.of("ns", "a", 1));
    Widget a2 = store.update(a.withSize(2));

    assertThatThrownBy(() -> store.delete(Widget.class, "ns", "a",
        DeletePreconditions.resourceVersion(a.metadata().resourceVersion())))
        .isInstanceOf(ConflictException.class)
        .hasMessageContaining("ResourceVersion in precondition: 2, ResourceVersion in object meta: 3");
    store.delete(Widget.class, "ns", "a", DeletePreconditions.resourceVersion(a2.metadata().resourceVersion()));
    assertThat(store.get(Widget.class, "ns", "a")).isEmpty();
  }

  @Test
  void create_afterDelete_newUidAndGeneration() {
    Widget first = store.create(Widget.of("ns", "a", 1));
    store.update(first.withSize(5));
    store.delete(Widget.class, "ns", "a");

    Widget second = store.create(Widget.of("ns", "a", 1));

    assertThat(second.metadata().uid()).isNotEqualTo(first.metadata().uid());
    assertThat(second.metadata().generation()).isEqualTo(1);
  }
}
