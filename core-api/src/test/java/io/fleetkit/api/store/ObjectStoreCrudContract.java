package io.fleetkit.api.store;

import io.fleetkit.api.time.ManualClock;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.ConflictException;
import io.fleetkit.api.NotFoundException;
import io.fleetkit.api.ValidationException;
import io.fleetkit.api.Violation;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.labels.LabelSelectorOperator;
import io.fleetkit.api.labels.LabelSelectorRequirement;
import io.fleetkit.api.meta.ObjectMeta;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

public abstract class ObjectStoreCrudContract extends StoreContract {
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  private final ManualClock clock = new ManualClock(T0);
  private final AtomicInteger uids = new AtomicInteger();
  private final ObjectStore store = builder()
      .clock(clock)
      .directDelivery()
      .uidGenerator(() -> "uid-" + uids.incrementAndGet())
      .build();

  @Test
  void create_newObject_assignsStoreOwnedMetadata() {
    Widget in = Widget.of("default", "a", 3).withMetadata(ObjectMeta.of("default", "a").toBuilder()
        .uid("mine").generation(42).creationTimestamp(Instant.EPOCH).deletionTimestamp(Instant.EPOCH)
        .label("app", "web").build());

    Widget out = store.create(in);

    ObjectMeta m = out.metadata();
    assertThat(m.uid()).isEqualTo("uid-1");
    assertThat(m.resourceVersion()).isEqualTo("2");
    assertThat(m.generation()).isEqualTo(1);
    assertThat(m.creationTimestamp()).isEqualTo(T0);
    assertThat(m.deletionTimestamp()).isNull();
    assertThat(m.labels()).containsEntry("app", "web");
    assertThat(out.size()).isEqualTo(3);
    assertThat(store.get(Widget.class, "default", "a")).contains(out);
  }

  @Test
  void resourceVersion_newStore_isOneAndEveryWriteAddsOneAcrossKinds() {
    assertThat(store.resourceVersion()).isEqualTo("1");
    Widget w = store.create(Widget.of("ns", "w", 1));
    Rack r = store.create(Rack.of("r1", "z1"));
    Widget w2 = store.update(w.withSize(2));

    assertThat(List.of(w, r, w2)).extracting(o -> o.metadata().resourceVersion()).containsExactly("2", "3", "4");
    assertThat(store.resourceVersion()).isEqualTo("4");
  }

  @Test
  void create_existingKey_conflictNamingObject() {
    store.create(Widget.of("default", "a", 1));

    assertThatThrownBy(() -> store.create(Widget.of("default", "a", 2)))
        .isInstanceOf(ConflictException.class)
        .hasMessage("Widget default/a already exists");
    assertThat(store.require(Widget.class, "default", "a").size()).isEqualTo(1);
  }

  @Test
  void create_sameNameOtherNamespaceOrKind_allowed() {
    store.create(Widget.of("a", "x", 1));
    store.create(Widget.of("b", "x", 1));
    store.create(Rack.of("x", "z"));

    assertThat(store.list(Widget.class).items()).hasSize(2);
    assertThat(store.list(Rack.class).items()).hasSize(1);
  }

  @Test
  void create_missingNameAndNamespace_listsBothViolations() {
    assertThatThrownBy(() -> store.create(Widget.of("", "", 1)))
        .isInstanceOfSatisfying(ValidationException.class, e -> assertThat(e.violations())
            .extracting(Violation::field).containsExactly("metadata.name", "metadata.namespace"));
  }

  @Test
  void create_clusterScopedWithNamespace_rejected() {
    Rack r = new Rack(ObjectMeta.of("default", "r"), "z");

    assertThatThrownBy(() -> store.create(r))
        .isInstanceOf(ValidationException.class)
        .hasMessage("Rack default/r: metadata.namespace \"default\" must be empty for cluster-scoped kind Rack");
  }

  @Test
  void create_withResourceVersionOrSlash_rejected() {
    Widget withRv = Widget.of("ns", "a", 1).withMetadata(ObjectMeta.of("ns", "a").withResourceVersion("7"));

    assertThatThrownBy(() -> store.create(withRv))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("metadata.resourceVersion \"7\" must not be set on objects to be created");
    assertThatThrownBy(() -> store.create(Widget.of("ns", "a/b", 1)))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("metadata.name \"a/b\" must not contain '/'");
    assertThat(store.resourceVersion()).isEqualTo("1");
  }

  @Test
  void get_missingOrUnknownKind_emptyAndRequireThrows() {
    assertThat(store.get(Widget.class, "ns", "nope")).isEmpty();
    assertThatThrownBy(() -> store.require(Widget.class, "ns", "nope"))
        .isInstanceOf(NotFoundException.class)
        .hasMessage("Widget ns/nope not found");
  }

  @Test
  void get_clusterScoped_byEmptyNamespace() {
    Rack r = store.create(Rack.of("r1", "z1"));

    assertThat(store.get(Rack.class, "", "r1")).contains(r);
    assertThat(store.get(Rack.class, "default", "r1")).isEmpty();
  }

  @Test
  void list_namespaceOrAll_sortedByNamespaceThenName() {
    store.create(Widget.of("b", "2", 1));
    store.create(Widget.of("a", "9", 1));
    store.create(Widget.of("b", "1", 1));
    store.create(Widget.of("bb", "0", 1)); // a namespace sharing the prefix "b" stays out of namespace "b"

    assertThat(store.list(Widget.class).items()).extracting(w -> w.metadata().key())
        .containsExactly("a/9", "b/1", "b/2", "bb/0");
    assertThat(store.list(Widget.class, "b").items()).extracting(w -> w.metadata().key())
        .containsExactly("b/1", "b/2");
    assertThat(store.list(Widget.class, "c").items()).isEmpty();
    assertThat(store.list(Rack.class).items()).isEmpty();
  }

  @Test
  void list_result_isImmutableSnapshotAtItsVersion() {
    store.create(Widget.of("ns", "a", 1));
    ListResult<Widget> before = store.list(Widget.class, "ns");
    store.create(Widget.of("ns", "b", 1));

    assertThat(before.resourceVersion()).isEqualTo("2");
    assertThat(before.items()).hasSize(1);
    assertThatThrownBy(() -> before.items().add(Widget.of("ns", "x", 1)))
        .isInstanceOf(UnsupportedOperationException.class);
    assertThat(store.list(Widget.class, "ns").resourceVersion()).isEqualTo("3");
  }

  @Test
  void list_labelSelector_filtersByLabels() {
    store.create(labelled("a", Map.of("app", "web", "tier", "fe")));
    store.create(labelled("b", Map.of("app", "web")));
    store.create(labelled("c", Map.of("app", "db")));

    LabelSelector web = LabelSelector.of(Map.of("app", "web"));
    LabelSelector noTier = new LabelSelector(Map.of(),
        List.of(new LabelSelectorRequirement("tier", LabelSelectorOperator.DoesNotExist, List.of())));

    assertThat(names(store.list(Widget.class, "ns", web))).containsExactly("a", "b");
    assertThat(names(store.list(Widget.class, "", noTier))).containsExactly("b", "c");
    assertThat(names(store.list(Widget.class, "ns", LabelSelector.EVERYTHING))).containsExactly("a", "b", "c");
  }

  @Test
  void list_predicate_filtersAndMayCallStore() {
    store.create(Widget.of("ns", "a", 1));
    store.create(Widget.of("ns", "b", 5));

    ListResult<Widget> big = store.list(Widget.class, "ns", w -> {
      store.resourceVersion(); // caller code runs outside the lock
      return w.size() > 2;
    });

    assertThat(names(big)).containsExactly("b");
    assertThat(big.resourceVersion()).isEqualTo("3");
  }

  @Test
  void update_staleResourceVersion_conflictNamingObjectAndVersions() {
    Widget v1 = store.create(Widget.of("ns", "a", 1));
    store.update(v1.withSize(2));

    assertThatThrownBy(() -> store.update(v1.withSize(3)))
        .isInstanceOf(ConflictException.class)
        .hasMessage("Operation cannot be fulfilled on Widget ns/a: the object has been modified; please apply your"
            + " changes to the latest version and try again (resourceVersion 2, current 3)");
    assertThat(store.require(Widget.class, "ns", "a").size()).isEqualTo(2);
  }

  @Test
  void update_emptyResourceVersion_unconditional() {
    Widget v1 = store.create(Widget.of("ns", "a", 1));
    store.update(v1.withSize(2));

    Widget blind = store.update(Widget.of("ns", "a", 7));

    assertThat(blind.size()).isEqualTo(7);
    assertThat(blind.metadata().uid()).isEqualTo(v1.metadata().uid());
    assertThat(blind.metadata().resourceVersion()).isEqualTo("4");
  }

  @Test
  void update_otherUid_conflict() {
    Widget v1 = store.create(Widget.of("ns", "a", 1));
    Widget impostor = v1.withMetadata(v1.metadata().toBuilder().uid("other").build()).withSize(2);

    assertThatThrownBy(() -> store.update(impostor))
        .isInstanceOf(ConflictException.class)
        .hasMessageContaining("UID in precondition: other, UID in object meta: uid-1");
  }

  @Test
  void update_missing_notFound() {
    assertThatThrownBy(() -> store.update(Widget.of("ns", "ghost", 1)))
        .isInstanceOf(NotFoundException.class)
        .hasMessage("Widget ns/ghost not found");
    assertThatThrownBy(() -> store.updateStatus(Widget.of("ns", "ghost", 1)))
        .isInstanceOf(NotFoundException.class);
  }

  @Test
  void update_specChanged_bumpsGeneration_metadataOnlyDoesNot() {
    Widget v1 = store.create(Widget.of("ns", "a", 1));

    Widget labelled = store.update(v1.withMetadata(v1.metadata().withLabels(Map.of("x", "y"))));
    Widget resized = store.update(labelled.withSize(2));

    assertThat(labelled.metadata().generation()).isEqualTo(1);
    assertThat(labelled.metadata().labels()).containsEntry("x", "y");
    assertThat(resized.metadata().generation()).isEqualTo(2);
  }

  @Test
  void update_storeOwnedFields_keptFromStoredObject() {
    Widget v1 = store.create(Widget.of("ns", "a", 1));
    clock.advance(Duration.ofHours(1));
    ObjectMeta forged = v1.metadata().toBuilder().generation(99).creationTimestamp(Instant.EPOCH).build();

    Widget out = store.update(v1.withMetadata(forged).withSize(5));

    assertThat(out.metadata().generation()).isEqualTo(2);
    assertThat(out.metadata().creationTimestamp()).isEqualTo(T0);
    assertThat(out.metadata().deletionTimestamp()).isNull();
    assertThat(out.metadata().uid()).isEqualTo(v1.metadata().uid());
    // a deletion mark is not kept away but refused, as ValidateObjectMetaUpdate does: only a deletion sets it
    assertThatThrownBy(() -> store.update(out.withMetadata(out.metadata().toBuilder()
        .deletionTimestamp(Instant.EPOCH).build())))
        .isInstanceOf(io.fleetkit.api.ValidationException.class)
        .hasMessageContaining("metadata.deletionTimestamp");
    assertThat(store.require(Widget.class, "ns", "a").metadata().deletionTimestamp()).isNull();
  }

  @Test
  void update_keepsStoredStatus_updateStatusKeepsStoredSpecAndMetadata() {
    Widget v1 = store.create(Widget.of("ns", "a", 1));
    Widget running = store.updateStatus(v1.withPhase("Running"));

    Widget specUpdate = store.update(running.withSize(2).withPhase("Failed"));
    Widget statusUpdate = store.updateStatus(specUpdate.withSize(100).withPhase("Succeeded")
        .withMetadata(specUpdate.metadata().withLabels(Map.of("ignored", "yes"))));

    assertThat(running.phase()).isEqualTo("Running");
    assertThat(running.metadata().generation()).isEqualTo(1);
    assertThat(specUpdate.phase()).isEqualTo("Running");
    assertThat(specUpdate.size()).isEqualTo(2);
    assertThat(statusUpdate.phase()).isEqualTo("Succeeded");
    assertThat(statusUpdate.size()).isEqualTo(2);
    assertThat(statusUpdate.metadata().labels()).isEmpty();
    assertThat(statusUpdate.metadata().generation()).isEqualTo(2);
    assertThat(statusUpdate.metadata().resourceVersion()).isEqualTo("5");
  }

  @Test
  void updateStatus_staleVersion_conflict() {
    Widget v1 = store.create(Widget.of("ns", "a", 1));
    store.updateStatus(v1.withPhase("Running"));

    assertThatThrownBy(() -> store.updateStatus(v1.withPhase("Failed")))
        .isInstanceOf(ConflictException.class)
        .hasMessageContaining("the object has been modified");
  }

  @Test
  void update_noChange_noNewVersionNoEvent() {
    Widget v1 = store.create(Widget.of("ns", "a", 1));
    Recorder<Widget> rec = new Recorder<>();
    store.watch(Widget.class, "0", rec);

    Widget same = store.update(v1);
    Widget sameStatus = store.updateStatus(v1);

    assertThat(same).isEqualTo(v1);
    assertThat(sameStatus).isEqualTo(v1);
    assertThat(store.resourceVersion()).isEqualTo("2");
    assertThat(rec.size()).isZero();
  }

  @Test
  void clusterScoped_updateAndDelete_work() {
    Rack r = store.create(Rack.of("r1", "z1"));

    Rack moved = store.update(r.withMetadata(r.metadata()).withStatusOf(r));
    Rack z2 = store.update(new Rack(r.metadata(), "z2"));
    Rack gone = store.delete(Rack.class, "", "r1");

    assertThat(moved).isEqualTo(r);
    assertThat(z2.metadata().generation()).isEqualTo(2);
    assertThat(gone.zone()).isEqualTo("z2");
    assertThat(store.get(Rack.class, "", "r1")).isEmpty();
  }

  @Test
  void close_thenAnyCall_illegalState() {
    store.create(Widget.of("ns", "a", 1));
    store.close();
    store.close();

    assertThatThrownBy(() -> store.get(Widget.class, "ns", "a"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("object store is closed");
  }

  private static Widget labelled(String name, Map<String, String> labels) {
    return new Widget(ObjectMeta.of("ns", name).withLabels(labels), 1, "");
  }

  private static List<String> names(ListResult<Widget> r) {
    return r.items().stream().map(w -> w.metadata().name()).toList();
  }
}
