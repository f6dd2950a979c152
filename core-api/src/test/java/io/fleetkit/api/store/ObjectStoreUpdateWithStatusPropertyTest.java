package io.fleetkit.api.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.ConflictException;
import io.fleetkit.api.NotFoundException;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

/**
 * {@link ObjectStore#updateWithStatus}: the in-memory store's one write against the contract's default, an
 * {@link ObjectStore#update} then an {@link ObjectStore#updateStatus} (what a store without its own one does): the
 * same stored object apart from the resourceVersion, the same generation, and one event instead of two.
 */
final class ObjectStoreUpdateWithStatusPropertyTest {

  /**
   * The same store, through what the contract's default does (two writes; a forwarding store forwards the one
   * write instead).
   */
  private static ObjectStore twoWrites(ObjectStore store) {
    return new ForwardingObjectStore(store) {
      @Override
      public <T extends io.fleetkit.api.meta.ApiObject<T>> T updateWithStatus(T object) {
        T updated = update(object);
        return updateStatus(updated.withStatusOf(object));
      }
    };
  }

  @Property(tries = 200)
  void oneWrite_storesWhatUpdateThenUpdateStatusStore(@ForAll @LongRange(min = 0, max = 3) long size,
      @ForAll @IntRange(min = 0, max = 2) int phase, @ForAll @LongRange(min = 0, max = 3) long newSize,
      @ForAll @IntRange(min = 0, max = 2) int newPhase, @ForAll boolean label) {
    String[] phases = {"", "Running", "Done"};
    ObjectStore one = ObjectStore.builder().directDelivery().build();
    ObjectStore two = ObjectStore.builder().directDelivery().build();
    List<String> oneEvents = new ArrayList<>();
    List<String> twoEvents = new ArrayList<>();
    Widget a = one.updateStatus(one.create(Widget.of("ns", "w", size)).withPhase(phases[phase]));
    Widget b = two.updateStatus(two.create(Widget.of("ns", "w", size)).withPhase(phases[phase]));
    one.watch(Widget.class, one.resourceVersion(), e -> oneEvents.add(e.type().name()));
    two.watch(Widget.class, two.resourceVersion(), e -> twoEvents.add(e.type().name()));
    Widget wantA = a.withSize(newSize).withPhase(phases[newPhase]);
    Widget wantB = b.withSize(newSize).withPhase(phases[newPhase]);
    if (label) {
      wantA = wantA.withMetadata(wantA.metadata().toBuilder().label("app", "x").build());
      wantB = wantB.withMetadata(wantB.metadata().toBuilder().label("app", "x").build());
    }
    Widget gotA = one.updateWithStatus(wantA);
    Widget gotB = twoWrites(two).updateWithStatus(wantB);

    assertThat(gotA.size()).isEqualTo(newSize);
    assertThat(gotA.phase()).isEqualTo(phases[newPhase]);
    assertThat(gotA.metadata().generation()).isEqualTo(gotB.metadata().generation())
        .isEqualTo(newSize != size ? 2 : 1);
    assertThat(comparable(gotA)).isEqualTo(comparable(gotB));
    assertThat(one.require(Widget.class, "ns", "w")).isEqualTo(gotA);
    boolean specOrMeta = newSize != size || label;
    boolean status = newPhase != phase;
    assertThat(oneEvents).hasSize(specOrMeta || status ? 1 : 0);
    assertThat(twoEvents).hasSize((specOrMeta ? 1 : 0) + (status ? 1 : 0));
    one.close();
    two.close();
  }

  /** {@code w} without what two stores assign differently (uid, creation time, resourceVersion). */
  private static Widget comparable(Widget w) {
    return w.withMetadata(w.metadata().toBuilder().uid("").resourceVersion("").creationTimestamp(null).build());
  }

  @Test
  void updateWithStatus_staleVersionOrMissing_failsAndWritesNothing() {
    ObjectStore store = ObjectStore.builder().directDelivery().build();
    Widget w = store.create(Widget.of("ns", "w", 1));
    store.update(w.withSize(2));
    String rv = store.resourceVersion();
    assertThatThrownBy(() -> store.updateWithStatus(w.withSize(3).withPhase("Running")))
        .isInstanceOf(ConflictException.class);
    assertThatThrownBy(() -> store.updateWithStatus(Widget.of("ns", "other", 1)))
        .isInstanceOf(NotFoundException.class);
    assertThat(store.resourceVersion()).isEqualTo(rv);
    assertThat(store.require(Widget.class, "ns", "w").phase()).isEmpty();
    store.close();
  }
}
