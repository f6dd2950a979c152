package io.fleetkit.api.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.concurrent.Executor;
import org.junit.jupiter.api.Test;

final class ObjectStoreBuilderTest {
  private static final Clock FIXED = Clock.fixed(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC);

  @Test
  void clock_setTwice_failsNamingOldValue() {
    ObjectStoreBuilder b = ObjectStore.builder().clock(FIXED);

    assertThatThrownBy(() -> b.clock(Clock.systemUTC()))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("clock was already set to " + FIXED);
  }

  @Test
  void historyLimit_belowOne_rejectedAndTwiceFails() {
    assertThatThrownBy(() -> ObjectStore.builder().historyLimit(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("historyLimit must be at least 1 but was 0");
    assertThatThrownBy(() -> ObjectStore.builder().historyLimit(5).historyLimit(6))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("historyLimit was already set to 5");
  }

  @Test
  void directDeliveryAndExecutor_conflict() {
    Executor ex = Runnable::run;

    assertThatThrownBy(() -> ObjectStore.builder().directDelivery().deliveryExecutor(ex))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("conflicts with directDelivery()");
    assertThatThrownBy(() -> ObjectStore.builder().deliveryExecutor(ex).directDelivery())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("conflicts with deliveryExecutor");
  }

  @Test
  void build_settingsApplied() {
    int[] next = {0};
    ObjectStore store = ObjectStore.builder().clock(FIXED).directDelivery()
        .uidGenerator(() -> "u" + ++next[0]).build();

    Widget w = store.create(Widget.of("ns", "a", 1));

    assertThat(w.metadata().uid()).isEqualTo("u1");
    assertThat(w.metadata().creationTimestamp()).isEqualTo(FIXED.instant());
  }

  @Test
  void inMemory_defaults_workAndClose() {
    ObjectStore store = ObjectStore.inMemory();

    Widget w = store.create(Widget.of("ns", "a", 1));
    store.close();

    assertThat(w.metadata().uid()).hasSize(36);
    assertThat(w.metadata().creationTimestamp()).isNotNull();
  }

  @Test
  void builder_admissionTwice_namesTheOldChain() {
    ObjectStoreBuilder b = ObjectStore.builder().admission(io.fleetkit.api.admission.AdmissionChain.empty());
    assertThatThrownBy(() -> b.admission(io.fleetkit.api.admission.AdmissionChain.empty()))
        .isInstanceOf(IllegalStateException.class).hasMessage("admission was already set to AdmissionChain[]");
  }
}
