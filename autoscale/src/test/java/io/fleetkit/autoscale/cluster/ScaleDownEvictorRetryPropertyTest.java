package io.fleetkit.autoscale.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.resource.ResourceList;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.jspecify.annotations.Nullable;

/**
 * The drain's retries against upstream's loop ({@code evictPod}: attempt, and after a refusal sleep the retry time and
 * attempt again only while before {@code start + maxPodEvictionTime}), whatever the loop's step: a pod refused
 * {@code k} times is evicted exactly when its {@code k}-th retry, at {@code k × retry}, is before the deadline (or
 * {@code k} is 0); the drain fails exactly when one pod is not evicted, and then reports that pod as timed out.
 */
final class ScaleDownEvictorRetryPropertyTest {
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  @Property(tries = 300)
  void drain_matchesUpstreamRetryLoop(
      @ForAll @Size(min = 1, max = 6) List<@IntRange(min = 0, max = 20) Integer> refusals,
      @ForAll @IntRange(min = 0, max = 150) int maxPodEvictionSeconds,
      @ForAll @IntRange(min = 1, max = 15) int retrySeconds, @ForAll @IntRange(min = 1, max = 10) int stepSeconds) {
    List<Pod> pods = new ArrayList<>();
    Map<String, Integer> left = new HashMap<>();
    for (int i = 0; i < refusals.size(); i++) {
      String name = "p" + i;
      pods.add(Pod.builder().name(name).namespace("default").container("c", "pause", ResourceList.EMPTY).build());
      left.put(name, refusals.get(i));
    }
    ScaleDownEvictor.Cluster cluster = new ScaleDownEvictor.Cluster() {
      @Override
      public @Nullable String evict(Pod pod, long graceSeconds) {
        int k = left.get(pod.metadata().name());
        if (k == 0) {
          return null;
        }
        left.put(pod.metadata().name(), k - 1);
        return "refused";
      }

      @Override
      public ScaleDownEvictor.Presence presence(Pod pod, String node) {
        return ScaleDownEvictor.Presence.GONE;
      }
    };
    ScaleDownEvictor.NodeEviction e = new ScaleDownEvictor.NodeEviction("n", pods, List.of(),
        new ScaleDownEvictor.Timing(30, Duration.ofSeconds(maxPodEvictionSeconds), Duration.ofSeconds(retrySeconds),
            Duration.ZERO), T0);
    Instant now = T0;
    for (int i = 0; i < 10_000 && !e.advance(now, cluster); i++) {
      now = now.plusSeconds(stepSeconds);
    }
    assertThat(e.done()).isTrue();
    boolean allEvicted = true;
    for (int i = 0; i < refusals.size(); i++) {
      int k = refusals.get(i);
      boolean evicted = k == 0 || (long) k * retrySeconds < maxPodEvictionSeconds;
      allEvicted &= evicted;
      NodeDeleteResult.PodEvictionResult r = e.results().get("p" + i);
      assertThat(r.successful()).as("p%s refused %s times", i, k).isEqualTo(evicted);
      assertThat(r.timedOut()).isEqualTo(!evicted);
    }
    assertThat(e.error() == null).isEqualTo(allEvicted);
  }
}
