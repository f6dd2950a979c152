package io.fleetkit.api.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.ConflictException;
import io.fleetkit.api.admission.AdmissionChain;
import io.fleetkit.api.admission.AdmissionDeniedException;
import io.fleetkit.api.admission.AdmissionOperation;
import io.fleetkit.api.admission.AdmissionRequest;
import io.fleetkit.api.admission.AdmissionVerdict;
import io.fleetkit.api.admission.MutatingAdmissionPlugin;
import io.fleetkit.api.admission.ValidatingAdmissionPlugin;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The store's admission hook: order, mutation, typed denials, undo of side effects, and no change without a chain. */
public abstract class ObjectStoreAdmissionContract extends StoreContract {

  /** Doubles a widget's size on create. */
  private static final class Doubler implements MutatingAdmissionPlugin {
    final List<String> calls;

    Doubler(List<String> calls) {
      this.calls = calls;
    }

    @Override
    public String name() {
      return "Doubler";
    }

    @Override
    public AdmissionVerdict mutate(AdmissionRequest r, ObjectStore store) {
      calls.add("Doubler:" + r.operation());
      if (r.operation() == AdmissionOperation.CREATE && r.object() instanceof Widget w) {
        return AdmissionVerdict.mutate(new Widget(w.metadata(), w.size() * 2, w.phase()));
      }
      return AdmissionVerdict.allow();
    }
  }

  /** Denies widgets larger than {@code max}; counts charges with undo. */
  private static final class MaxSize implements ValidatingAdmissionPlugin {
    final long max;
    final List<String> calls;
    final AtomicInteger charged = new AtomicInteger();

    MaxSize(long max, List<String> calls) {
      this.max = max;
      this.calls = calls;
    }

    @Override
    public String name() {
      return "MaxSize" + max;
    }

    @Override
    public AdmissionVerdict validate(AdmissionRequest r, ObjectStore store) {
      calls.add(name() + ":" + r.operation());
      if (r.object() instanceof Widget w && w.size() > max) {
        return AdmissionVerdict.deny("spec.size", "size " + w.size() + " is more than " + max);
      }
      if (r.operation() == AdmissionOperation.CREATE) {
        charged.incrementAndGet();
        return AdmissionVerdict.allowWithUndo(charged::decrementAndGet);
      }
      return AdmissionVerdict.allow();
    }
  }

  @Test
  void create_mutatingThenValidatingInOrder_storesTheMutatedObject() {
    List<String> calls = new ArrayList<>();
    MaxSize v = new MaxSize(10, calls);
    try (ObjectStore store = builder().directDelivery()
        .admission(AdmissionChain.of(v, new Doubler(calls))).build()) {
      Widget out = store.create(Widget.of("ns", "a", 3));

      assertThat(out.size()).isEqualTo(6);
      assertThat(calls).containsExactly("Doubler:CREATE", "MaxSize10:CREATE");
      assertThat(v.charged).hasValue(1);
    }
  }

  @Test
  void create_denied_throwsTypedErrorAndUndoesEarlierCharges() {
    List<String> calls = new ArrayList<>();
    MaxSize loose = new MaxSize(100, calls);
    MaxSize tight = new MaxSize(5, calls);
    try (ObjectStore store = builder().admission(AdmissionChain.of(new Doubler(calls), loose, tight))
        .build()) {
      assertThatThrownBy(() -> store.create(Widget.of("ns", "a", 3)))
          .isInstanceOfSatisfying(AdmissionDeniedException.class, e -> {
            assertThat(e.plugin()).isEqualTo("MaxSize5");
            assertThat(e.object()).isEqualTo("Widget ns/a");
            assertThat(e.field()).isEqualTo("spec.size");
            assertThat(e.rule()).isEqualTo("size 6 is more than 5");
            assertThat(e).hasMessage("Widget ns/a is forbidden: size 6 is more than 5 (plugin MaxSize5, field"
                + " spec.size)");
          });
      assertThat(loose.charged).hasValue(0);
      assertThat(store.get(Widget.class, "ns", "a")).isEmpty();
      assertThat(store.resourceVersion()).isEqualTo("1");
    }
  }

  @Test
  void create_existing_failsBeforeAdmissionSoNothingIsCharged() {
    List<String> calls = new ArrayList<>();
    MaxSize v = new MaxSize(10, calls);
    try (ObjectStore store = builder().admission(AdmissionChain.of(v)).build()) {
      store.create(Widget.of("ns", "a", 1));
      assertThatThrownBy(() -> store.create(Widget.of("ns", "a", 1))).isInstanceOf(ConflictException.class);

      assertThat(v.charged).hasValue(1);
    }
  }

  @Test
  void updateAndDelete_areAdmittedWithTheStoredObject() {
    List<String> calls = new ArrayList<>();
    MaxSize v = new MaxSize(10, calls);
    try (ObjectStore store = builder().admission(AdmissionChain.of(v)).build()) {
      Widget a = store.create(Widget.of("ns", "a", 1));
      assertThatThrownBy(() -> store.update(new Widget(a.metadata(), 50, ""))).isInstanceOf(
          AdmissionDeniedException.class);
      store.update(new Widget(a.metadata(), 2, ""));
      store.delete(Widget.class, "ns", "a");

      assertThat(calls).containsExactly("MaxSize10:CREATE", "MaxSize10:UPDATE", "MaxSize10:UPDATE",
          "MaxSize10:DELETE");
      assertThat(store.get(Widget.class, "ns", "a")).isEmpty();
    }
  }

  @Test
  void chain_duplicateNamesAndSwappedObjects_areRejected() {
    List<String> calls = new ArrayList<>();
    assertThatThrownBy(() -> AdmissionChain.of(new MaxSize(1, calls), new MaxSize(1, calls)))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("admission plugin MaxSize1 is in the chain twice");
    MutatingAdmissionPlugin renamer = new MutatingAdmissionPlugin() {
      @Override
      public String name() {
        return "Renamer";
      }

      @Override
      public AdmissionVerdict mutate(AdmissionRequest r, ObjectStore store) {
        return AdmissionVerdict.mutate(Widget.of("ns", "other", 1));
      }
    };
    try (ObjectStore store = builder().admission(AdmissionChain.of(renamer)).build()) {
      assertThatThrownBy(() -> store.create(Widget.of("ns", "a", 1))).isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("Renamer replaced Widget ns/a by Widget ns/other");
      assertThat(store.list(Widget.class).items()).isEmpty();
    }
  }
}
