package io.fleetkit.reconcile.controllers.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.ConflictException;
import io.fleetkit.api.FleetKitException;
import io.fleetkit.api.NotFoundException;
import io.fleetkit.api.apps.ClaimTemplate;
import io.fleetkit.api.apps.ControllerRevision;
import io.fleetkit.api.apps.StatefulSet;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.core.PodTemplateSpec;
import io.fleetkit.api.core.Volume;
import io.fleetkit.api.core.VolumeSource;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.labels.LabelSelectorOperator;
import io.fleetkit.api.labels.LabelSelectorRequirement;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.meta.OwnerReference;
import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.store.ForwardingObjectStore;
import io.fleetkit.api.store.ObjectStore;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * Ported from kubernetes {@code pkg/controller/history/controller_history_test.go} (commit 04791b49): the tables of
 * the real history ({@code TestRealHistory_ListControllerRevisions}, {@code _CreateControllerRevision},
 * {@code _UpdateControllerRevision}, {@code _DeleteControllerRevision}, {@code _AdoptControllerRevision},
 * {@code _ReleaseControllerRevision}) and of the pure functions ({@code TestFindEqualRevisions},
 * {@code TestSortControllerRevisions}), case names upstream's. Upstream's fake API client is the in-memory store;
 * its reactors (an update that fails, or conflicts twice) are a {@link ForwardingObjectStore}. The
 * {@code TestFakeHistory_*} tables test upstream's test double ({@code fakeHistory}), which FleetKit does not have.
 */
final class ControllerHistoryTest {

  /** Upstream's {@code newStatefulSet(3, name, uid, labels)}: the selector as matchExpressions only. */
  private static StatefulSet newStatefulSet(String name, String uid, Map<String, String> labels) {
    List<LabelSelectorRequirement> exprs = new ArrayList<>();
    new TreeMap<>(labels).forEach((k, v) -> exprs.add(new LabelSelectorRequirement(k, LabelSelectorOperator.In,
        List.of(v))));
    PodSpec spec = PodSpec.builder().container("nginx", "nginx", ResourceList.EMPTY)
        .volume(new Volume("home", new VolumeSource.HostPath("/tmp/home"))).build();
    return StatefulSet.builder().metadata(ObjectMeta.builder().namespace("default").name(name).uid(uid).build())
        .replicas(3).selector(new LabelSelector(Map.of(), exprs)).template(PodTemplateSpec.of(labels, spec))
        .serviceName("governingsvc")
        .volumeClaimTemplate(ClaimTemplate.of("datadir", null, ResourceList.of(Map.of("storage", Quantity.parse("1")))))
        .build();
  }

  private static final StatefulSet SS1 = newStatefulSet("ss1", "ss1", Map.of("foo", "bar"));
  private static final StatefulSet SS2 = newStatefulSet("ss2", "ss2", Map.of("goo", "car"));

  /** Upstream's {@code NewControllerRevision(ss, parentKind, ss.Spec.Template.Labels, rawTemplate(..), n, cc)}. */
  private static ControllerRevision rev(StatefulSet ss, long n) {
    return ControllerHistory.newRevision(ss, ss.spec().template().labels(), ss.spec().template(), n, 0);
  }

  private static ControllerRevision orphan(ControllerRevision r) {
    return r.withMetadata(r.metadata().toBuilder().ownerReferences(List.of()).build());
  }

  private static boolean isControlledBy(@Nullable ControllerRevision r, ApiObject<?> owner) {
    OwnerReference ref = r == null ? null : r.metadata().controllerRef();
    return ref != null && ref.uid().equals(owner.metadata().uid());
  }

  /** What upstream's informer indexer {@code Add} does: the object stored under its key, replacing any other. */
  private static void put(ObjectStore store, ControllerRevision r) {
    ObjectMeta m = r.metadata();
    if (store.get(ControllerRevision.class, m.namespace(), m.name()).isPresent()) {
      store.update(r);
    } else {
      store.create(r);
    }
  }

  private static Set<String> names(List<ControllerRevision> revisions) {
    return revisions.stream().map(r -> r.metadata().name()).collect(Collectors.toSet());
  }

  // TestRealHistory_ListControllerRevisions. Revisions of one set's template share a name, so, as in upstream's
  // indexer, a later one replaces an earlier one.
  @Test
  void list_upstreamCases_ownedAndOrphansOfTheSelectorOnly() {
    ControllerRevision ss1Rev1 = rev(SS1, 1);
    ControllerRevision ss1Rev2 = rev(SS1, 2);
    ControllerRevision ss2Rev1 = rev(SS2, 1);
    ControllerRevision ss1Orphan = orphan(rev(SS1, 3));
    record Case(String name, List<ControllerRevision> revisions, Set<String> want) {}
    List<Case> cases = List.of(
        new Case("selects none", List.of(), Set.of()),
        new Case("selects all", List.of(ss1Rev1, ss1Rev2), names(List.of(ss1Rev1, ss1Rev2))),
        new Case("doesn't select another Objects history", List.of(ss1Rev1, ss1Rev2, ss2Rev1),
            names(List.of(ss1Rev1, ss1Rev2))),
        new Case("selects orphans", List.of(ss1Rev1, ss1Rev2, ss1Orphan),
            names(List.of(ss1Rev1, ss1Rev2, ss1Orphan))));
    for (Case c : cases) {
      try (ObjectStore store = ObjectStore.inMemory()) {
        c.revisions().forEach(r -> put(store, r));
        List<ControllerRevision> got = new ControllerHistory(store).list(SS1, SS1.spec().selector());
        assertThat(names(got)).as(c.name()).isEqualTo(c.want());
      }
    }
  }

  // Not upstream: the same rules with distinct names, so that several revisions are listed at once.
  @Test
  void list_distinctRevisions_ownedAndOrphanNotOtherController() {
    try (ObjectStore store = ObjectStore.inMemory()) {
      store.create(rev(SS1, 1));
      ControllerRevision o = orphan(rev(SS1, 2));
      store.create(o.withMetadata(o.metadata().toBuilder().name("ss1-orphan").build()));
      ControllerRevision other = rev(SS2, 1);
      store.create(other.withMetadata(other.metadata().toBuilder().labels(Map.of("foo", "bar")).build()));

      assertThat(names(new ControllerHistory(store).list(SS1, SS1.spec().selector())))
          .containsExactlyInAnyOrder(rev(SS1, 1).metadata().name(), "ss1-orphan");
    }
  }

  // TestRealHistory_CreateControllerRevision
  @Test
  void create_upstreamCases_newNameOrRenameOnCollision() {
    ControllerRevision ss1Rev1 = rev(SS1, 1);
    // same name and hash label as ss1Rev1, another template: a collision
    PodTemplateSpec mod = PodTemplateSpec.of(Map.of("foo", "not_bar"), SS1.spec().template().spec());
    ControllerRevision ss1Rev2 = ControllerHistory.newRevision(SS1, SS1.spec().template().labels(), mod, 2, 0);
    ss1Rev2 = ss1Rev2.withMetadata(ss1Rev2.metadata().toBuilder().name(ss1Rev1.metadata().name())
        .label(ControllerHistory.HASH_LABEL, ss1Rev1.metadata().labels().get(ControllerHistory.HASH_LABEL)).build());
    ControllerRevision ss2Rev1 = rev(SS2, 1);
    record Case(String name, StatefulSet parent, ControllerRevision revision, List<ControllerRevision> existing,
        boolean rename) {}
    List<Case> cases = List.of(
        new Case("creates new", SS1, ss1Rev1, List.of(), false),
        new Case("create doesn't conflict when parents differ", SS2, ss2Rev1, List.of(ss1Rev1), false),
        new Case("create renames on conflict", SS1, ss1Rev1, List.of(ss1Rev2), true));
    for (Case c : cases) {
      try (ObjectStore store = ObjectStore.inMemory()) {
        ControllerHistory history = new ControllerHistory(store);
        c.existing().forEach(store::create);

        ControllerHistory.Created created = history.create(c.parent(), c.revision(), 0);

        String name = created.revision().metadata().name();
        if (c.rename()) {
          assertThat(name).as(c.name() + ": wanted rename").isNotEqualTo(c.revision().metadata().name());
          assertThat(name).as(c.name() + ": on name collision").isEqualTo(ControllerHistory.revisionName(
              c.parent().metadata().name(), ControllerHistory.hash(c.revision(), created.collisionCount())));
          // the second name collision is with an identical revision: nothing to do
          ControllerHistory.Created again = history.create(c.parent(), c.revision(), created.collisionCount());
          assertThat(again.collisionCount()).as(c.name() + ": on second name collision").isEqualTo(1);
          assertThat(again.revision().metadata().name()).isEqualTo(name);
        } else {
          assertThat(name).as(c.name()).isEqualTo(c.revision().metadata().name());
          assertThat(created.collisionCount()).isZero();
        }
        assertThat(created.revision().metadata().uid()).as(c.name() + ": stored").isNotEmpty();
      }
    }
  }

  /** Upstream's reactors: every update fails with an internal error, or the first {@code conflicts} conflict. */
  private static final class FailingUpdates extends ForwardingObjectStore {
    private final boolean internalError;
    private int conflicts;

    FailingUpdates(ObjectStore delegate, boolean internalError, int conflicts) {
      super(delegate);
      this.internalError = internalError;
      this.conflicts = conflicts;
    }

    @Override
    public <T extends ApiObject<T>> T update(T object) {
      if (internalError) {
        throw new FleetKitException("internal error");
      }
      if (conflicts > 0) {
        conflicts--;
        throw new ConflictException("conflict");
      }
      return super.update(object);
    }
  }

  // TestRealHistory_UpdateControllerRevision
  @Test
  void update_upstreamCases_renumberedRetryingConflicts() {
    ControllerRevision ss1Rev1 = rev(SS1, 1);
    record Case(String name, long newRevision, boolean internalError, int conflicts, boolean err) {}
    List<Case> cases = List.of(
        new Case("update succeeds", ss1Rev1.revision() + 1, false, 0, false),
        new Case("update succeeds no noop", ss1Rev1.revision(), false, 0, false),
        new Case("update fails on error", ss1Rev1.revision() + 10, true, 0, true),
        new Case("update on succeeds on conflict", ss1Rev1.revision() + 1, false, 2, false));
    for (Case c : cases) {
      try (ObjectStore base = ObjectStore.inMemory()) {
        new ControllerHistory(base).create(SS1, ss1Rev1, 0);
        ControllerHistory history = new ControllerHistory(new FailingUpdates(base, c.internalError(), c.conflicts()));
        if (c.err()) {
          assertThatThrownBy(() -> history.update(ss1Rev1, c.newRevision())).as(c.name())
              .isInstanceOf(FleetKitException.class).hasMessageContaining("internal error");
          continue;
        }
        ControllerRevision updated = history.update(ss1Rev1, c.newRevision());
        assertThat(updated.revision()).as(c.name()).isEqualTo(c.newRevision());
        assertThat(base.require(ControllerRevision.class, "default", ss1Rev1.metadata().name()).revision())
            .as(c.name() + ": stored").isEqualTo(c.newRevision());
      }
    }
  }

  // TestRealHistory_DeleteControllerRevision
  @Test
  void delete_upstreamCases_onlyExistingDeleted() {
    ControllerRevision ss1Rev1 = rev(SS1, 1);
    ControllerRevision ss2Rev1 = rev(SS2, 1);
    ControllerRevision ss2Rev2 = rev(SS2, 2);
    record Case(String name, List<ApiObject<?>> parents, List<ControllerRevision> existing, boolean err) {}
    List<Case> cases = List.of(
        new Case("delete empty fails", List.of(), List.of(), true),
        new Case("delete existing succeeds", List.of(SS1), List.of(ss1Rev1), false),
        new Case("delete non-existing fails", List.of(SS2, SS2), List.of(ss2Rev1, ss2Rev2), true));
    for (Case c : cases) {
      try (ObjectStore store = ObjectStore.inMemory()) {
        ControllerHistory history = new ControllerHistory(store);
        int cc = 0;
        for (int i = 0; i < c.existing().size(); i++) {
          cc = history.create(c.parents().get(i), c.existing().get(i), cc).collisionCount();
        }
        if (c.err()) {
          assertThatThrownBy(() -> history.delete(ss1Rev1)).as(c.name()).isInstanceOf(NotFoundException.class);
        } else {
          history.delete(ss1Rev1);
          assertThat(store.list(ControllerRevision.class).items()).as(c.name()).isEmpty();
        }
      }
    }
  }

  // TestRealHistory_AdoptControllerRevision
  @Test
  void adopt_upstreamCases_orphanAdoptedOwnedOrMissingRefused() {
    ControllerRevision ss1Rev2 = orphan(rev(SS1, 2));
    ControllerRevision ss2Rev1 = rev(SS2, 1);
    record Case(String name, ControllerRevision revision, List<ApiObject<?>> parents,
        List<ControllerRevision> existing, @Nullable Class<? extends RuntimeException> err) {}
    List<Case> cases = List.of(
        new Case("adopting an orphan succeeds", ss1Rev2, List.of(SS1), List.of(ss1Rev2), null),
        new Case("adopting an owned revision fails", ss2Rev1, List.of(SS2), List.of(ss2Rev1),
            ConflictException.class),
        new Case("adopting a non-existent revision fails", ss1Rev2, List.of(), List.of(), NotFoundException.class));
    for (Case c : cases) {
      try (ObjectStore store = ObjectStore.inMemory()) {
        ControllerHistory history = new ControllerHistory(store);
        int cc = 0;
        for (int i = 0; i < c.existing().size(); i++) {
          cc = history.create(c.parents().get(i), c.existing().get(i), cc).collisionCount();
        }
        if (c.err() != null) {
          assertThatThrownBy(() -> history.adopt(SS1, c.revision())).as(c.name()).isInstanceOf(c.err());
          continue;
        }
        ControllerRevision adopted = history.adopt(SS1, c.revision());
        assertThat(isControlledBy(adopted, SS1)).as(c.name() + ": adoption").isTrue();
        assertThat(isControlledBy(store.require(ControllerRevision.class, "default",
            c.revision().metadata().name()), SS1)).as(c.name() + ": stored").isTrue();
      }
    }
  }

  // TestRealHistory_ReleaseControllerRevision
  @Test
  void release_upstreamCases_neverAnErrorNeverStillControlled() {
    ControllerRevision ss1Rev1 = rev(SS1, 1);
    ControllerRevision ss1Rev2 = orphan(rev(SS1, 2));
    ControllerRevision ss2Rev1 = rev(SS2, 1);
    record Case(String name, ControllerRevision revision, List<ApiObject<?>> parents,
        List<ControllerRevision> existing) {}
    List<Case> cases = List.of(
        new Case("releasing an owned revision succeeds", ss1Rev1, List.of(SS1), List.of(ss1Rev1)),
        new Case("releasing an orphan succeeds", ss1Rev2, List.of(SS1), List.of(ss1Rev2)),
        new Case("releasing a revision owned by another controller succeeds", ss2Rev1, List.of(SS2),
            List.of(ss2Rev1)),
        new Case("releasing a non-existent revision succeeds", ss1Rev1, List.of(), List.of()));
    for (Case c : cases) {
      try (ObjectStore store = ObjectStore.inMemory()) {
        ControllerHistory history = new ControllerHistory(store);
        int cc = 0;
        for (int i = 0; i < c.existing().size(); i++) {
          cc = history.create(c.parents().get(i), c.existing().get(i), cc).collisionCount();
        }
        Optional<ControllerRevision> released = history.release(SS1, c.revision());
        assertThat(released.isPresent()).as(c.name() + ": present iff it exists")
            .isEqualTo(!c.existing().isEmpty());
        released.ifPresent(r -> assertThat(isControlledBy(r, SS1)).as(c.name() + ": release").isFalse());
      }
    }
    // the owned one's controller reference is gone from the store too, the other controller's is kept
    try (ObjectStore store = ObjectStore.inMemory()) {
      ControllerHistory history = new ControllerHistory(store);
      ControllerRevision owned = history.create(SS1, ss1Rev1, 0).revision();
      ControllerRevision others = history.create(SS2, ss2Rev1, 0).revision();
      history.release(SS1, owned);
      history.release(SS1, others);
      assertThat(store.require(ControllerRevision.class, "default", owned.metadata().name()).metadata()
          .ownerReferences()).isEmpty();
      assertThat(isControlledBy(store.require(ControllerRevision.class, "default", others.metadata().name()), SS2))
          .isTrue();
    }
  }

  // TestFindEqualRevisions
  @Test
  void findEqualRevisions_upstreamCases() {
    ControllerRevision ss1Rev1 = rev(SS1, 1);
    ControllerRevision ss2Rev1 = rev(SS2, 1);
    ControllerRevision ss2Rev2 = rev(SS2, 2);
    record Case(String name, List<ControllerRevision> revisions, List<ControllerRevision> want) {}
    List<Case> cases = List.of(
        new Case("finds equivalent", List.of(ss1Rev1, ss2Rev1, ss2Rev2), List.of(ss1Rev1)),
        new Case("finds nothing when empty", List.of(), List.of()),
        new Case("finds nothing with no matches", List.of(ss2Rev2, ss2Rev1), List.of()));
    for (Case c : cases) {
      assertThat(ControllerHistory.findEqualRevisions(c.revisions(), ss1Rev1)).as(c.name())
          .containsExactlyElementsOf(c.want());
    }
  }

  // TestSortControllerRevisions. Upstream compares names, which its revisions of one template all share; the port
  // compares the revisions themselves, which also checks that ties on the number go by creation time.
  @Test
  void sort_upstreamCases_byRevisionThenCreationTime() {
    ControllerRevision ss1Rev1 = rev(SS1, 1);
    ControllerRevision ss1Rev2 = rev(SS1, 2);
    ControllerRevision ss1Rev3 = rev(SS1, 3); // not stored: Go's zero creation time
    ControllerRevision ss1Rev3Time2 = rev(SS1, 3);
    ss1Rev3Time2 = ss1Rev3Time2.withMetadata(ss1Rev3Time2.metadata().toBuilder()
        .creationTimestamp(Instant.parse("0001-01-01T00:00:01Z")).build());
    record Case(String name, List<ControllerRevision> revisions, List<ControllerRevision> want) {}
    List<Case> cases = List.of(
        new Case("out of order", List.of(ss1Rev2, ss1Rev1, ss1Rev3), List.of(ss1Rev1, ss1Rev2, ss1Rev3)),
        new Case("sorted", List.of(ss1Rev1, ss1Rev2, ss1Rev3), List.of(ss1Rev1, ss1Rev2, ss1Rev3)),
        new Case("reversed", List.of(ss1Rev3, ss1Rev2, ss1Rev1), List.of(ss1Rev1, ss1Rev2, ss1Rev3)),
        new Case("with ties", List.of(ss1Rev3, ss1Rev3Time2, ss1Rev2, ss1Rev1),
            List.of(ss1Rev1, ss1Rev2, ss1Rev3, ss1Rev3Time2)),
        new Case("empty", List.of(), List.of()));
    for (Case c : cases) {
      List<ControllerRevision> sorted = new ArrayList<>(c.revisions());
      ControllerHistory.sort(sorted);
      assertThat(sorted).as(c.name()).hasSameSizeAs(c.want());
      for (int i = 0; i < sorted.size(); i++) {
        assertThat(sorted.get(i)).as(c.name() + " at " + i).isSameAs(c.want().get(i));
      }
    }
  }

  // Not upstream: a tie on the number with the later revision first is ordered by creation time, then by name.
  @Test
  void sort_tiesInReverse_byCreationTimeThenName() {
    ControllerRevision early = rev(SS1, 3);
    ControllerRevision late = early.withMetadata(early.metadata().toBuilder()
        .creationTimestamp(Instant.parse("2026-01-01T00:00:00Z")).build());
    List<ControllerRevision> byTime = new ArrayList<>(List.of(late, early));
    ControllerHistory.sort(byTime);
    assertThat(byTime).containsExactly(early, late);


    ControllerRevision a = rev(SS1, 5);
    ControllerRevision b = a.withMetadata(a.metadata().toBuilder().name("ss1-0").build());
    List<ControllerRevision> byName = new ArrayList<>(List.of(a, b));
    ControllerHistory.sort(byName);
    assertThat(byName).containsExactly(b, a);
  }

  @Test
  void revisionName_longPrefix_cutTo223() {
    String prefix = "p".repeat(300);
    assertThat(ControllerHistory.revisionName(prefix, "abc")).isEqualTo("p".repeat(223) + "-abc");
    assertThat(ControllerHistory.revisionName("web", "abc")).isEqualTo("web-abc");
  }

  @Test
  void newRevision_labelsOwnerAndNameFromHash() {
    ControllerRevision r = ControllerHistory.newRevision(SS1, Map.of("foo", "bar"), SS1.spec().template(), 4, 2);
    String hash = ControllerHistory.hash(r, 2);

    assertThat(r.metadata().name()).isEqualTo("ss1-" + hash);
    assertThat(r.metadata().namespace()).isEqualTo("default");
    assertThat(r.metadata().labels()).containsEntry("foo", "bar").containsEntry(ControllerHistory.HASH_LABEL, hash);
    assertThat(isControlledBy(r, SS1)).isTrue();
    assertThat(r.revision()).isEqualTo(4);
    assertThat(ControllerHistory.hash(r, 3)).isNotEqualTo(hash);
    assertThat(ControllerHistory.hash(r, null)).isNotEqualTo(hash);
    assertThat(ControllerHistory.hash(rev(SS2, 4), 2)).isNotEqualTo(hash);
  }

  @Test
  void equalRevision_nullsAndNumericHashLabels() {
    ControllerRevision a = rev(SS1, 1);
    ControllerRevision b = rev(SS1, 2);
    assertThat(ControllerHistory.equalRevision(null, null)).isTrue();
    assertThat(ControllerHistory.equalRevision(a, null)).isFalse();
    assertThat(ControllerHistory.equalRevision(a, b)).isTrue();
    assertThat(ControllerHistory.equalRevision(a, rev(SS2, 1))).isFalse();
    // hash labels that read as different numbers make them unequal whatever the data
    ControllerRevision a7 = a.withMetadata(a.metadata().toBuilder().label(ControllerHistory.HASH_LABEL, "7").build());
    ControllerRevision b8 = b.withMetadata(b.metadata().toBuilder().label(ControllerHistory.HASH_LABEL, "8").build());
    assertThat(ControllerHistory.equalRevision(a7, b8)).isFalse();
    assertThat(ControllerHistory.equalRevision(a7, b)).isTrue();
  }

  @Test
  void nextRevision_emptyOrAfterLast() {
    assertThat(ControllerHistory.nextRevision(List.of())).isEqualTo(1);
    assertThat(ControllerHistory.nextRevision(List.of(rev(SS1, 1), rev(SS1, 4)))).isEqualTo(5);
  }
}
