package io.fleetkit.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodCondition;
import io.fleetkit.api.core.PodPhase;
import io.fleetkit.api.core.PodStatus;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.ResourceList;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;

/**
 * {@link LivePods} (sorted arrays) against a {@link TreeMap} of the same writes, the structure it stands for: over
 * random puts of new and present names (serving or not: running and ready, unready, pending, failed, being deleted),
 * removes of present and absent names and names that sort between others (growing past the arrays' first capacity
 * and shrinking to empty), after every write the list of all pods, the serving pods walked in place order with their
 * names, containers, CPU requests and selector matches, the serving pods a selector matches (kept between reads, or
 * matched anew for another instance), the counts and the requests' sum, and which stamps changed are those of the
 * map.
 */
final class LivePodsPropertyTest {
  private static final Instant T0 = Instant.parse("2026-06-01T00:00:00Z");
  private static final LabelSelector WEB = LabelSelector.of(Map.of("app", "web"));

  @Property(tries = 200)
  void writes_answerAsATreeMap(@ForAll long seed) {
    Random r = new Random(seed);
    LivePods live = new LivePods(LoadMetrics::serving);
    if (r.nextBoolean()) {
      live.selector = WEB;
    }
    TreeMap<String, Pod> all = new TreeMap<>();
    TreeMap<String, Pod> serving = new TreeMap<>();
    int names = 1 + r.nextInt(40);
    int steps = r.nextInt(300);
    for (int step = 0; step < steps; step++) {
      Object stamp = live.stamp;
      Object servingStamp = live.servingStamp;
      List<String> servingBefore = new ArrayList<>(serving.keySet());
      List<Pod> servingPodsBefore = new ArrayList<>(serving.values());
      // names of varied length, so that text order is not the order they were made in
      String name = "p-" + Integer.toString(r.nextInt(names), 7 + r.nextInt(2));
      if (r.nextInt(4) == 0) {
        live.remove(name);
        all.remove(name);
        serving.remove(name);
      } else {
        Pod p = pod(name, r);
        Pod old = all.get(name);
        if (old != null && r.nextInt(3) == 0) { // a status write: the same spec instance
          p = new Pod(old.metadata(), old.spec(), p.status());
        }
        live.put(p);
        all.put(name, p);
        if (LoadMetrics.serving(p)) {
          serving.put(name, p);
        } else {
          serving.remove(name);
        }
      }
      assertThat(live.stamp).isNotSameAs(stamp);
      boolean servingChanged = !servingBefore.equals(new ArrayList<>(serving.keySet()))
          || !sameInstances(servingPodsBefore, new ArrayList<>(serving.values()));
      if (servingChanged) {
        assertThat(live.servingStamp).isNotSameAs(servingStamp);
      } else {
        assertThat(live.servingStamp).isSameAs(servingStamp);
      }
      assertThat(live.isEmpty()).isEqualTo(all.isEmpty());
      assertThat(live.size()).isEqualTo(all.size());
      assertThat(live.servingCount()).isEqualTo(serving.size());
      assertThat(live.servingMilliCpu()).isEqualTo(serving.values().stream()
          .mapToLong(p -> p.spec().effectiveRequests().milliCpu()).sum());
      List<Pod> list = live.list();
      assertThat(sameInstances(list, new ArrayList<>(all.values()))).isTrue();
      assertThat(live.list()).isSameAs(list);
      List<Pod> walked = new ArrayList<>();
      for (int i = 0; i < live.size(); i++) {
        LivePods.ServingPod sp = live.servingAt(i);
        if (sp != null) {
          walked.add(sp.pod);
          assertThat(sp.name).isEqualTo(sp.pod.metadata().name());
          assertThat(sp.container).isEqualTo("app");
          assertThat(sp.milliCpu).isEqualTo(sp.pod.spec().effectiveRequests().milliCpu());
          assertThat(sp.matches(WEB)).isEqualTo(WEB.matches(sp.pod.metadata().labels()));
        }
      }
      assertThat(sameInstances(walked, new ArrayList<>(serving.values()))).isTrue();
      if (r.nextInt(3) == 0) { // the matches kept between reads, and (another instance now and then) made anew
        LabelSelector selector = r.nextInt(6) == 0 ? LabelSelector.of(Map.of("app", "web")) : WEB;
        live.match(selector);
        List<Pod> walkedMatching = new ArrayList<>();
        for (int i = 0; i < live.size(); i++) {
          Pod p = live.matchingAt(i);
          LivePods.ServingPod sp = live.servingAt(i);
          assertThat(live.nameAt(i)).isEqualTo(live.list().get(i).metadata().name());
          assertThat(live.containerAt(i)).isEqualTo(sp == null ? null : "app");
          if (p != null) {
            walkedMatching.add(p);
          }
        }
        List<Pod> matched = new ArrayList<>();
        for (Pod p : serving.values()) {
          if (WEB.matches(p.metadata().labels())) {
            matched.add(p);
          }
        }
        assertThat(sameInstances(walkedMatching, matched)).isTrue();
      }
    }
  }

  private static boolean sameInstances(List<Pod> a, List<Pod> b) {
    if (a.size() != b.size()) {
      return false;
    }
    for (int i = 0; i < a.size(); i++) {
      if (a.get(i) != b.get(i)) {
        return false;
      }
    }
    return true;
  }

  private static Pod pod(String name, Random r) {
    ObjectMeta.Builder meta = ObjectMeta.builder().namespace("default").name(name)
        .label("app", r.nextBoolean() ? "web" : "api");
    if (r.nextInt(8) == 0) {
      meta.finalizer("test/keep").deletionTimestamp(T0);
    }
    PodPhase phase = switch (r.nextInt(4)) {
      case 0 -> PodPhase.Pending;
      case 1 -> PodPhase.Failed;
      default -> PodPhase.Running;
    };
    PodStatus s = PodStatus.of(phase);
    if (r.nextInt(4) != 0) {
      s = s.withCondition(PodCondition.of(PodCondition.READY,
          r.nextInt(3) == 0 ? ConditionStatus.False : ConditionStatus.True, "", "", T0));
    }
    return Pod.builder().metadata(meta.build()).container("app", "img", ResourceList.ofCpuMemory(100 * r.nextInt(5), 0))
        .status(s).build();
  }
}
