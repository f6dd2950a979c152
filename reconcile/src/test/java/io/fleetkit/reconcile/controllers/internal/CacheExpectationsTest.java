package io.fleetkit.reconcile.controllers.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.reconcile.ObjectKey;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link CacheExpectations}: what the cache must show before a controller acts on it again. */
final class CacheExpectationsTest {
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  private static final ObjectKey OWNER = ObjectKey.of("ns", "web");

  private static Pod pod(String name) {
    return Pod.builder().namespace("ns").name(name).container("c", "img", ResourceList.ofCpuMemory(100, 0)).build();
  }

  private static Pod terminating(String name) {
    Pod p = pod(name);
    return p.withMetadata(p.metadata().toBuilder().deletionTimestamp(T0.plusSeconds(30)).build());
  }

  @Test
  void deletedPodStillListedWithoutTimestamp_waits() {
    CacheExpectations e = new CacheExpectations();
    e.deleted(OWNER, "web-a", T0);
    assertThat(e.satisfied(OWNER, List.of(pod("web-a")), n -> true, T0)).isFalse();
    assertThat(e.satisfiedInOrder(OWNER, List.of(pod("web-a")), n -> true, T0)).isFalse();
  }

  @Test
  void deletedPodListedAsTerminating_isObserved() {
    // deleted gracefully, the pod stays until its kubelet ends it (for good on a dead node): the deletion timestamp
    // is the observed deletion, as upstream's controllers count it
    CacheExpectations e = new CacheExpectations();
    e.deleted(OWNER, "web-a", T0);
    assertThat(e.satisfiedInOrder(OWNER, List.of(terminating("web-a"), pod("web-b")), n -> true, T0)).isTrue();
    assertThat(e.waiting(OWNER)).isFalse();
    CacheExpectations visiting = new CacheExpectations();
    visiting.deleted(OWNER, "web-a", T0);
    assertThat(visiting.satisfied(OWNER, List.of(terminating("web-a")), n -> true, T0)).isTrue();
  }

  @Test
  void createdPodListedAsTerminating_isObserved() {
    CacheExpectations e = new CacheExpectations();
    e.created(OWNER, "web-a", T0);
    assertThat(e.satisfiedInOrder(OWNER, List.of(terminating("web-a")), n -> true, T0)).isTrue();
  }

  @Test
  void createdPodNotListedYetButInStore_waits_untilTheTtl() {
    CacheExpectations e = new CacheExpectations();
    e.created(OWNER, "web-a", T0);
    assertThat(e.satisfied(OWNER, List.of(), n -> true, T0)).isFalse();
    assertThat(e.satisfied(OWNER, List.of(), n -> true, T0.plus(ControllerExpectations.TTL))).isTrue();
  }
}
