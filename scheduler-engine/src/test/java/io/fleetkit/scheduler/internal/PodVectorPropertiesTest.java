package io.fleetkit.scheduler.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.framework.PodInfos;
import io.fleetkit.api.resource.ResourceList;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/**
 * {@link PodVector}: every snapshot keeps the pods it was taken with, whatever is added or removed afterwards, and
 * the vector itself follows a plain list (same pods, same order, same removal answers).
 */
final class PodVectorPropertiesTest {
  private static final List<PodInfo> PODS = new ArrayList<>();

  static {
    for (int i = 0; i < 12; i++) {
      PODS.add(PodInfos.of(Pod.builder().name("p" + i).container("c", "pause", ResourceList.EMPTY).build()));
    }
  }

  /** Ops: a value v in [0, 12) adds pod v, in [12, 24) removes pod v-12, 24 takes a snapshot. */
  @Property(tries = 300)
  void snapshots_neverChange_andTheVectorFollowsAList(
      @ForAll @Size(max = 60) List<@IntRange(min = 0, max = 24) Integer> ops) {
    PodVector v = new PodVector();
    List<PodInfo> model = new ArrayList<>();
    List<List<PodInfo>> snapshots = new ArrayList<>();
    List<List<PodInfo>> expected = new ArrayList<>();
    for (int op : ops) {
      if (op < 12) {
        v.add(PODS.get(op));
        model.add(PODS.get(op));
      } else if (op < 24) {
        PodInfo p = PODS.get(op - 12);
        PodInfo removed = v.remove(p.key());
        boolean had = model.remove(p);
        assertThat(removed).isEqualTo(had ? p : null);
      } else {
        snapshots.add(v.snapshot());
        expected.add(List.copyOf(model));
      }
      assertThat(v.isEmpty()).isEqualTo(model.isEmpty());
    }
    assertThat(v.snapshot()).containsExactlyElementsOf(model);
    for (int i = 0; i < snapshots.size(); i++) {
      assertThat(snapshots.get(i)).as("snapshot %d", i).containsExactlyElementsOf(expected.get(i));
    }
  }
}
