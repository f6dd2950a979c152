package io.fleetkit.autoscale.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Container;
import io.fleetkit.api.core.EnvVar;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.core.Volume;
import io.fleetkit.api.core.VolumeProjection;
import io.fleetkit.api.core.VolumeSource;
import io.fleetkit.api.meta.OwnerReference;
import io.fleetkit.api.resource.ResourceList;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;

/**
 * {@link BinpackingEstimator.PodGroups#of} on random pending pods (a few controllers, one of them a DaemonSet, pods
 * without a controller, pods annotated as DaemonSet pods, up to 14 label variants per controller, specs differing in
 * what upstream's {@code PodSpecSemanticallyEqual} ignores and in what it does not): every pod is in exactly one group,
 * the groups keep the list's order, the pods of a group are alike, and each controller has at most 10 groups of more
 * than one pod, every further group holding one pod. The grouping is exactly a simple model's: a key per pod
 * (controller, labels, sanitized spec), the first 10 keys of each controller grouped, every other pod alone.
 */
final class PodGroupsPropertyTest {
  private static final VolumeSource.Projected TOKEN = new VolumeSource.Projected(
      List.of(new VolumeProjection.ServiceAccountToken("", 3607L, "token")), 0644);
  private static final List<OwnerReference> CONTROLLERS = List.of(
      new OwnerReference("apps/v1", "ReplicaSet", "a", "uid-a", true, true),
      new OwnerReference("apps/v1", "ReplicaSet", "b", "uid-b", true, true),
      new OwnerReference("batch/v1", "Job", "c", "uid-c", true, true),
      new OwnerReference("apps/v1", "DaemonSet", "ds", "uid-ds", true, true));

  @Property(tries = 300)
  void of_partitionsThePods_intoGroupsOfAlikePods_atMostTenPerController(@ForAll long seed) {
    List<Pod> pods = randomPods(new Random(seed));
    List<List<Pod>> groups = BinpackingEstimator.PodGroups.of(pods).pods();

    // every pod in exactly one group, the groups in order of their first pods, each in list order
    Map<Pod, Integer> index = new IdentityHashMap<>();
    for (int i = 0; i < pods.size(); i++) {
      index.put(pods.get(i), i);
    }
    Map<Pod, Integer> seen = new IdentityHashMap<>();
    int lastFirst = -1;
    for (List<Pod> g : groups) {
      assertThat(g).isNotEmpty();
      assertThat(index.get(g.get(0))).isGreaterThan(lastFirst);
      lastFirst = index.get(g.get(0));
      int last = -1;
      for (Pod p : g) {
        assertThat(seen.put(p, 1)).as("pod %s in two groups", p.metadata().name()).isNull();
        assertThat(index.get(p)).isGreaterThan(last);
        last = index.get(p);
      }
    }
    assertThat(seen).hasSameSizeAs(index);

    // the pods of a group are alike: one controller, not a DaemonSet pod, equal labels, semantically equal specs
    Map<String, Integer> groupsPerController = new HashMap<>();
    for (List<Pod> g : groups) {
      Pod first = g.get(0);
      OwnerReference c = first.metadata().controllerRef();
      if (c == null || TemplateNodes.isDaemonSetPod(first)) {
        assertThat(g).hasSize(1);
        continue;
      }
      int n = groupsPerController.merge(c.uid(), 1, Integer::sum);
      if (n > SimilarPods.MAX_PER_CONTROLLER) {
        assertThat(g).as("group %d of controller %s", n, c.uid()).hasSize(1);
      }
      for (Pod p : g) {
        assertThat(p.metadata().controllerRef()).isEqualTo(c);
        assertThat(TemplateNodes.isDaemonSetPod(p)).isFalse();
        assertThat(p.metadata().labels()).isEqualTo(first.metadata().labels());
        assertThat(PodSpecEquivalence.equal(p.spec(), first.spec())).isTrue();
      }
    }

    assertThat(names(groups)).isEqualTo(names(model(pods)));
  }

  /** The model: pods keyed by controller, labels and sanitized spec; a controller's first 10 keys are groups. */
  private static List<List<Pod>> model(List<Pod> pods) {
    record Key(String uid, Map<String, String> labels, PodSpec spec) {}
    Map<Object, List<Pod>> groups = new LinkedHashMap<>();
    Map<String, Integer> keysPerController = new HashMap<>();
    for (Pod p : pods) {
      OwnerReference c = p.metadata().controllerRef();
      Object key = new Object(); // alone unless a kept key says otherwise
      if (c != null && !TemplateNodes.isDaemonSetPod(p)) {
        Key k = new Key(c.uid(), p.metadata().labels(), PodSpecEquivalence.semantic(p.spec()));
        if (groups.containsKey(k)) {
          key = k;
        } else if (keysPerController.merge(c.uid(), 1, Integer::sum) <= SimilarPods.MAX_PER_CONTROLLER) {
          key = k;
        }
      }
      groups.computeIfAbsent(key, x -> new ArrayList<>()).add(p);
    }
    return new ArrayList<>(groups.values());
  }

  private static List<List<String>> names(List<List<Pod>> groups) {
    return groups.stream().map(g -> g.stream().map(p -> p.metadata().name()).toList()).toList();
  }

  private static List<Pod> randomPods(Random rnd) {
    int n = rnd.nextInt(60);
    List<Pod> pods = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      Pod.Builder b = Pod.builder().name("p" + i).namespace("default");
      int c = rnd.nextInt(CONTROLLERS.size() + 1);
      if (c < CONTROLLERS.size()) {
        b.ownerReference(CONTROLLERS.get(c));
      }
      b.label("variant", "v" + rnd.nextInt(c == 0 ? 14 : 3));
      if (rnd.nextInt(10) == 0) {
        b.annotation(TemplateNodes.DAEMON_SET_POD_ANNOTATION, rnd.nextBoolean() ? "true" : "false");
      }
      // what the comparison ignores: env, hostname, projected volume names
      Container app = Container.of("app", "img:" + rnd.nextInt(2), ResourceList.ofCpuMemory(100L * (1 + rnd.nextInt(2)),
          1000)).withEnv(List.of(new EnvVar("INDEX", String.valueOf(rnd.nextInt(5)))));
      PodSpec.Builder spec = PodSpec.builder().container(app).hostname("h" + rnd.nextInt(5));
      if (rnd.nextBoolean()) {
        spec.volume(new Volume("kube-api-access-" + rnd.nextInt(100), TOKEN));
      }
      pods.add(b.spec(spec.build()).build());
    }
    return pods;
  }
}
