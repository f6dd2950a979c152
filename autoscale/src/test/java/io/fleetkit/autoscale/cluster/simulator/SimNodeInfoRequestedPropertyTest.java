package io.fleetkit.autoscale.cluster.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.framework.PodInfos;
import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.resource.ResourceList;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * A view's summed requests, made when first read, equal those summed at every change ({@code ResourceList.add} and
 * {@code subtract} in the order of the changes), its cpu, memory and ephemeral-storage numbers equal the sum's, and
 * its pods are those added and not removed, in order, over random sequences of pods added and removed (cpu, memory,
 * ephemeral storage, an extended resource, some pods with none), reads at random points, and views made from earlier
 * views (which share a pod array with their siblings); every view still holds its own pods at the end.
 */
final class SimNodeInfoRequestedPropertyTest {
  @Property(tries = 200)
  void deferredSum_equalsSummingAtEveryChange(@ForAll @IntRange(min = 0, max = 8) int initial,
      @ForAll @IntRange(min = 1, max = 40) int steps, @ForAll long seed) {
    Random rnd = new Random(seed);
    Node node = Node.builder().name("n").capacity(ResourceList.builder().put("cpu", "64").put("memory", "256Gi")
        .put("pods", "500").build()).build();
    List<PodInfo> first = new ArrayList<>();
    for (int i = 0; i < initial; i++) {
      first.add(randomPod(rnd, "a" + i));
    }
    ResourceList firstSum = ResourceList.EMPTY;
    for (PodInfo p : first) {
      firstSum = firstSum.add(p.requests());
    }
    // every view made so far, with what it must hold: later views are made from the latest one or, at random, from
    // an earlier one (two views made from one by adding share its pod array until they differ)
    SimNodeInfo built = SimNodeInfo.of(node, first);
    assertThat(List.of(built.requestedMilliCpu(), built.requestedMemory(), built.requestedEphemeralStorage()))
        .as("built at once").isEqualTo(List.of(firstSum.milliCpu(), firstSum.memoryBytes(),
            firstSum.ephemeralStorageBytes()));
    List<Version> versions = new ArrayList<>(List.of(new Version(built, first, firstSum)));
    for (int step = 0; step < steps; step++) {
      Version from = versions.get(rnd.nextInt(4) == 0 ? rnd.nextInt(versions.size()) : versions.size() - 1);
      List<PodInfo> on = new ArrayList<>(from.pods());
      SimNodeInfo view;
      ResourceList expected;
      if (!on.isEmpty() && rnd.nextInt(4) == 0) {
        PodInfo gone = on.remove(rnd.nextInt(on.size()));
        view = from.view().withoutPod(gone.key());
        expected = from.requested().subtract(gone.requests());
      } else {
        PodInfo p = randomPod(rnd, "b" + step);
        view = from.view().withPod(p);
        on.add(p);
        expected = from.requested().add(p.requests());
      }
      assertThat(List.of(view.requestedMilliCpu(), view.requestedMemory(), view.requestedEphemeralStorage()))
          .as("step %d", step)
          .isEqualTo(List.of(expected.milliCpu(), expected.memoryBytes(), expected.ephemeralStorageBytes()));
      if (rnd.nextInt(3) == 0) {
        assertThat(view.requested()).as("step %d", step).isEqualTo(expected);
      }
      versions.add(new Version(view, List.copyOf(on), expected));
    }
    for (Version v : versions) {
      assertThat(v.view().pods()).containsExactlyElementsOf(v.pods());
      assertThat(v.view().podCount()).isEqualTo(v.pods().size());
      assertThat(v.view().requested()).isEqualTo(v.requested());
    }
  }

  private record Version(SimNodeInfo view, List<PodInfo> pods, ResourceList requested) {}

  private static PodInfo randomPod(Random rnd, String name) {
    ResourceList.Builder r = ResourceList.builder();
    if (rnd.nextInt(5) > 0) {
      r.put("cpu", Quantity.ofMilli(rnd.nextInt(2000), Quantity.Format.DECIMAL_SI));
    }
    if (rnd.nextBoolean()) {
      r.put("memory", (1 + rnd.nextInt(512)) + "Mi");
    }
    if (rnd.nextInt(4) == 0) {
      r.put("ephemeral-storage", (1 + rnd.nextInt(10)) + "Gi");
    }
    if (rnd.nextInt(5) == 0) {
      r.put("example.com/dev", Quantity.of(1 + rnd.nextInt(3)));
    }
    return PodInfos.of(Pod.builder().namespace("default").name(name).container("c", "img", r.build()).build());
  }
}
