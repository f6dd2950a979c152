package io.fleetkit.reconcile.controllers.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.reconcile.ObjectKey;
import java.time.Duration;
import java.time.Instant;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** After kubernetes/kubernetes pkg/controller/controller_utils_test.go TestControllerExpectations and TestUIDExpectations. */
final class ControllerExpectationsTest {
  static final ObjectKey KEY = ObjectKey.of("ns", "rs");
  static final Instant T0 = Instant.parse("2024-01-01T00:00:00Z");

  @Test
  void satisfied_noRecord_true() {
    assertThat(new ControllerExpectations().satisfied(KEY, T0)).isTrue();
  }

  @Test
  void creationObserved_allAdds_satisfiedOnlyAfterLast() {
    ControllerExpectations e = new ControllerExpectations();
    e.expectCreations(KEY, 3, T0);
    for (int i = 0; i < 3; i++) {
      assertThat(e.satisfied(KEY, T0)).isFalse();
      e.creationObserved(KEY);
    }
    assertThat(e.satisfied(KEY, T0)).isTrue();
  }

  @Test
  void deletionObserved_byPodKey_duplicatesDoNotCount() {
    ControllerExpectations e = new ControllerExpectations();
    e.expectDeletions(KEY, Set.of("ns/a", "ns/b"), T0);
    e.deletionObserved(KEY, "ns/a");
    e.deletionObserved(KEY, "ns/a");
    assertThat(e.satisfied(KEY, T0)).isFalse();
    assertThat(e.pendingDeletions(KEY)).isEqualTo(1);
    e.deletionObserved(KEY, "ns/b");
    assertThat(e.satisfied(KEY, T0)).isTrue();
  }

  @Test
  void satisfied_afterTtl_trueEvenIfUnobserved() {
    ControllerExpectations e = new ControllerExpectations();
    e.expectCreations(KEY, 1, T0);
    assertThat(e.satisfied(KEY, T0.plus(Duration.ofMinutes(5)).minusMillis(1))).isFalse();
    assertThat(e.satisfied(KEY, T0.plus(Duration.ofMinutes(5)))).isTrue();
  }

  @Test
  void delete_record_forgotten() {
    ControllerExpectations e = new ControllerExpectations();
    e.expectCreations(KEY, 2, T0);
    e.delete(KEY);
    assertThat(e.satisfied(KEY, T0)).isTrue();
    assertThat(e.pendingCreations(KEY)).isZero();
  }
}
