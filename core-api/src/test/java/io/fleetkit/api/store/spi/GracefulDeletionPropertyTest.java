package io.fleetkit.api.store.spi;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.store.DeleteOptions;
import java.time.Instant;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.jspecify.annotations.Nullable;

/**
 * Invariants of repeated deletions of a running, bound pod with random grace periods (none, negative, 0, positive)
 * at random times: the deadline never moves later (except to now, when it had passed and a shorter grace period is
 * asked for, as upstream's {@code BeforeDelete}), a write never sets one in the past, generation is bumped once, and
 * the kubelet's final deletion (grace period 0) always removes the pod.
 */
final class GracefulDeletionPropertyTest {
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  /** One deletion: seconds after the previous one, and the grace period asked for ({@code null}: the pod's). */
  record Step(long delaySeconds, @Nullable Long gracePeriodSeconds) {}

  @Provide
  Arbitrary<List<Step>> steps() {
    Arbitrary<Long> delay = Arbitraries.longs().between(0, 90);
    Arbitrary<Long> grace = Arbitraries.longs().between(-3, 120).injectNull(0.3);
    return Combinators.combine(delay, grace).as(Step::new).list().ofMinSize(1).ofMaxSize(8);
  }

  @Property(tries = 1000)
  void deletions_neverLengthenTheDeadline_kubeletsFinalDeletionRemoves(@ForAll("steps") List<Step> steps,
      @ForAll boolean finalizer) {
    Pod pod = Pod.builder().namespace("ns").name("web").nodeName("node-1")
        .container("c", "img", ResourceList.EMPTY).build();
    pod = pod.withMetadata(pod.metadata().toBuilder().uid("u").resourceVersion("1").generation(1)
        .finalizers(finalizer ? List.of("example.com/hold") : List.of()).build());
    Instant now = T0;
    @Nullable Instant deadline = null;
    for (Step step : steps) {
      now = now.plusSeconds(step.delaySeconds());
      WriteRules.Change<Pod> change = WriteRules.delete(pod, DeleteOptions.DEFAULT
          .withGracePeriodSeconds(step.gracePeriodSeconds()), now);
      if (change.effect() == WriteRules.Effect.REMOVE) {
        // only a grace period of 0 removes, and only without a finalizer
        assertThat(finalizer).isFalse();
        assertThat(change.object()).isEqualTo(pod);
        return;
      }
      ObjectMeta m = change.object().metadata();
      assertThat(m.deletionTimestamp()).isNotNull();
      assertThat(m.deletionGracePeriodSeconds()).isNotNull().isNotNegative();
      assertThat(m.generation()).isEqualTo(2);
      if (deadline != null) {
        // a shorter grace period never moves the deadline into the past: one already passed becomes now
        Instant latest = deadline.isAfter(now) ? deadline : now;
        assertThat(m.deletionTimestamp()).as("deadline").isBeforeOrEqualTo(latest);
      }
      if (change.effect() == WriteRules.Effect.PUT) {
        assertThat(m.deletionTimestamp()).as("a new deadline").isAfterOrEqualTo(now);
        if (m.deletionGracePeriodSeconds() > 0) {
          assertThat(m.deletionTimestamp()).isAfter(now.minusSeconds(1));
        }
      } else {
        assertThat(change.object()).isEqualTo(pod);
      }
      deadline = m.deletionTimestamp();
      pod = change.object();
    }
    WriteRules.Change<Pod> kubelet = WriteRules.delete(pod, DeleteOptions.gracePeriod(0), now);
    if (finalizer) {
      assertThat(kubelet.effect()).isNotEqualTo(WriteRules.Effect.REMOVE);
      Pod held = kubelet.effect() == WriteRules.Effect.PUT ? kubelet.object() : pod;
      assertThat(held.metadata().deletionGracePeriodSeconds()).isEqualTo(0L);
      Pod released = held.withMetadata(held.metadata().toBuilder().finalizers(List.of()).build());
      assertThat(WriteRules.update(held, released).effect()).isEqualTo(WriteRules.Effect.REMOVE);
    } else {
      assertThat(kubelet.effect()).isEqualTo(WriteRules.Effect.REMOVE);
    }
  }
}
