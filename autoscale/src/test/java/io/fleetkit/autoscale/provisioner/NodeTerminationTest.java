package io.fleetkit.autoscale.provisioner;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.meta.OwnerReference;
import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/**
 * {@link NodeTermination}'s rules on their own: Karpenter's {@code IsDoNotDisruptActive} (the annotation's duration
 * form, {@code pkg/utils/pod/scheduling.go}), and the invariant of its {@code terminationGracePeriod}: a pod is
 * deleted no earlier than the deadline minus its own grace period, and then ends by the deadline.
 */
final class NodeTerminationTest {
  private static final OwnerReference RS = new OwnerReference("apps/v1", "ReplicaSet", "web", "rs-1", true, true);
  private static final InstanceType TYPE = new InstanceType("m", ResourceList.builder()
      .put("cpu", Quantity.ofMilli(4000)).put("memory", Quantity.ofBytes(1L << 34)).put("pods", Quantity.of(110))
      .build(), Map.of(), List.of(), 0.1);
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  private static Pod annotated(String value, Instant started) {
    Pod p = Pod.builder().name("p").annotation(Provisioner.DO_NOT_DISRUPT, value).container("app", "img",
        ResourceList.ofCpuMemory(100, 1)).build();
    return started == null ? p : p.withStatus(p.status().withStartTime(started));
  }

  @Test
  void doNotDisrupt_trueOrAPositiveDurationNotYetRun_isActive_othersAreNot() {
    assertThat(NodeTermination.doNotDisruptActive(annotated("true", T0), T0.plus(Duration.ofDays(9)))).isTrue();
    // a duration: active while the pod has run for less than it (since its start)
    assertThat(NodeTermination.doNotDisruptActive(annotated("5m", T0), T0.plusSeconds(299))).isTrue();
    assertThat(NodeTermination.doNotDisruptActive(annotated("5m", T0), T0.plusSeconds(300))).isFalse();
    assertThat(NodeTermination.doNotDisruptActive(annotated("1h30m", T0), T0.plusSeconds(3600))).isTrue();
    // not started yet: active (fail safe)
    assertThat(NodeTermination.doNotDisruptActive(annotated("5m", null), T0.plus(Duration.ofDays(9)))).isTrue();
    // invalid, zero or negative: as if there were no annotation
    for (String v : List.of("false", "yes", "5 minutes", "0s", "-5m", "")) {
      assertThat(NodeTermination.doNotDisruptActive(annotated(v, T0), T0)).as(v).isFalse();
    }
    assertThat(NodeTermination.doNotDisruptActive(Pod.builder().name("p").container("app", "img",
        ResourceList.ofCpuMemory(100, 1)).build(), T0)).isFalse();
  }

  @Test
  void consolidation_doNotDisruptDuration_protectsTheNodeUntilItHasRun() {
    ManualClock clock = ManualClock.atEpoch2026();
    try (ObjectStore store = ObjectStore.builder().clock(clock).directDelivery().build()) {
      // n's pod is protected for its first 10 minutes, n2's for ever: n goes once its pod has run 10 minutes
      for (String[] np : new String[][] {{"n", "a", "10m"}, {"n2", "b", "true"}}) {
        store.create(Packer.node(TYPE, np[0]).toBuilder().label(Provisioner.MANAGED_LABEL, "default").build());
        Pod p = store.create(Pod.builder().name(np[1]).ownerReference(RS).nodeName(np[0])
            .annotation(Provisioner.DO_NOT_DISRUPT, np[2]).container("app", "img",
                ResourceList.ofCpuMemory(100, 1L << 30)).build());
        store.updateStatus(p.withStatus(p.status().withStartTime(clock.now())));
      }
      Provisioner prov = Provisioner.builder(store).clock(clock).instanceType(TYPE).build();
      assertThat(prov.runOnce().commands()).isEmpty();
      clock.advance(Duration.ofMinutes(10));
      assertThat(prov.runOnce().commands()).singleElement()
          .satisfies(c -> assertThat(c.candidates()).containsExactly("n"));
    }
  }

  @Property(tries = 60)
  void terminationGracePeriod_podDeletedNotBeforeDeadlineMinusItsGrace_andEndsByTheDeadline(
      @ForAll @IntRange(min = 1, max = 900) int tgpSeconds, @ForAll @IntRange(min = 0, max = 1200) int podGrace,
      @ForAll @IntRange(min = 1, max = 30) int loopSeconds) {
    ManualClock clock = ManualClock.atEpoch2026();
    try (ObjectStore store = ObjectStore.builder().clock(clock).directDelivery().build()) {
      store.create(Packer.node(TYPE, "n").toBuilder().label(Provisioner.MANAGED_LABEL, "default").build());
      store.create(Pod.builder().name("keep").ownerReference(RS).nodeName("n").terminationGracePeriodSeconds(podGrace)
          .annotation(Provisioner.DO_NOT_DISRUPT, "true").container("app", "img", ResourceList.ofCpuMemory(100, 1))
          .build());
      NodeTermination t = new NodeTermination(store);
      Instant start = clock.now();
      Instant deadline = start.plusSeconds(tgpSeconds);
      t.start("n", start, Duration.ofSeconds(tgpSeconds));
      assertThat(NodeTermination.isTainted(store.require(Node.class, "", "n"))).isTrue();
      List<DrainEvent> events = new ArrayList<>();
      Instant deletedAt = null;
      while (deletedAt == null) {
        t.advance(clock.now(), events);
        if (store.require(Pod.class, "default", "keep").metadata().deletionTimestamp() != null) {
          deletedAt = clock.now();
        } else {
          clock.advance(Duration.ofSeconds(loopSeconds));
        }
      }
      Pod deleted = store.require(Pod.class, "default", "keep");
      // the first loop strictly past the deadline minus its grace period (the drain's start when that is earlier)
      Instant threshold = deadline.minusSeconds(podGrace);
      if (threshold.isBefore(start)) {
        assertThat(deletedAt).isEqualTo(start);
      } else {
        assertThat(deletedAt).isAfter(threshold).isBeforeOrEqualTo(threshold.plusSeconds(loopSeconds));
      }
      // it ends by the deadline, or a second after a loop that came past it
      Instant latest = deletedAt.isBefore(deadline) ? deadline : deletedAt.plusSeconds(1);
      assertThat(deleted.metadata().deletionTimestamp()).isBeforeOrEqualTo(latest);
      assertThat(events).singleElement().satisfies(e -> assertThat(e.kind()).isEqualTo(DrainEvent.Kind.DELETED));
    }
  }
}
