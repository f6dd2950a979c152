package io.fleetkit.autoscale.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Container;
import io.fleetkit.api.core.EnvFromSource;
import io.fleetkit.api.core.EnvVar;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.core.Volume;
import io.fleetkit.api.core.VolumeMount;
import io.fleetkit.api.core.VolumeProjection;
import io.fleetkit.api.core.VolumeSource;
import io.fleetkit.api.resource.ResourceList;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;

/**
 * {@link PodSpecEquivalence} on random specs: {@code semantic} is idempotent and leaves no projected volume, hostname
 * or {@code env}; {@code equal} is the equality of the semantic forms; specs that differ only in their hostname, their
 * containers' {@code env} and their projected volumes' names are equal, and a change of anything else kept (an
 * image, {@code envFrom}, the subdomain, a non-projected volume) tells them apart.
 */
final class PodSpecEquivalencePropertyTest {
  private static final VolumeSource.Projected TOKEN = new VolumeSource.Projected(
      List.of(new VolumeProjection.ServiceAccountToken("", 3607L, "token")), 0644);

  @Property(tries = 300)
  void semantic_isIdempotent_andDropsWhatUpstreamDrops(@ForAll long seed) {
    PodSpec s = randomSpec(new Random(seed));
    PodSpec once = PodSpecEquivalence.semantic(s);
    assertThat(PodSpecEquivalence.semantic(once)).isSameAs(once);
    assertThat(PodSpecEquivalence.semantic(once)).isEqualTo(once);
    assertThat(once.hostname()).isEmpty();
    assertThat(once.volumes()).noneMatch(v -> v.source() instanceof VolumeSource.Projected);
    assertThat(once.containers()).allMatch(c -> c.env().isEmpty());
    assertThat(once.initContainers()).allMatch(c -> c.env().isEmpty());
    // what stays: the non-projected volumes in order, the subdomain, every container's envFrom
    assertThat(once.volumes()).containsExactlyElementsOf(
        s.volumes().stream().filter(v -> !(v.source() instanceof VolumeSource.Projected)).toList());
    assertThat(once.subdomain()).isEqualTo(s.subdomain());
    assertThat(once.containers()).extracting(Container::envFrom)
        .containsExactlyElementsOf(s.containers().stream().map(Container::envFrom).toList());
  }

  @Property(tries = 300)
  void specsDifferingOnlyInHostnameEnvOrProjectedVolumeNames_areEqual(@ForAll long seed) {
    Random rnd = new Random(seed);
    PodSpec a = randomSpec(rnd);
    PodSpec b = varied(a, rnd);
    assertThat(PodSpecEquivalence.equal(a, b)).isTrue();
    assertThat(PodSpecEquivalence.equal(b, a)).isTrue();
    assertThat(PodSpecEquivalence.semantic(a)).isEqualTo(PodSpecEquivalence.semantic(b));
  }

  @Property(tries = 300)
  void equal_isTheEqualityOfTheSemanticForms(@ForAll long seed) {
    Random rnd = new Random(seed);
    PodSpec a = randomSpec(rnd);
    PodSpec b = switch (rnd.nextInt(3)) {
      case 0 -> randomSpec(rnd);
      case 1 -> varied(a, rnd);
      default -> changedElsewhere(varied(a, rnd), rnd);
    };
    assertThat(PodSpecEquivalence.equal(a, b))
        .isEqualTo(PodSpecEquivalence.semantic(a).equals(PodSpecEquivalence.semantic(b)));
  }

  @Property(tries = 300)
  void aChangeOfAnythingKept_tellsSpecsApart(@ForAll long seed) {
    Random rnd = new Random(seed);
    PodSpec a = randomSpec(rnd);
    PodSpec b = changedElsewhere(varied(a, rnd), rnd);
    assertThat(PodSpecEquivalence.equal(a, b)).isFalse();
  }

  /** A spec of 1-3 containers and 0-2 init containers, 0-4 volumes of three kinds, some mounted. */
  private static PodSpec randomSpec(Random rnd) {
    List<Volume> volumes = new ArrayList<>();
    int n = rnd.nextInt(5);
    for (int i = 0; i < n; i++) {
      volumes.add(switch (rnd.nextInt(3)) {
        case 0 -> new Volume("kube-api-access-" + i + suffix(rnd), TOKEN);
        case 1 -> Volume.emptyDir("scratch-" + i);
        default -> new Volume("host-" + i, new VolumeSource.HostPath("/var/log/" + rnd.nextInt(3)));
      });
    }
    PodSpec.Builder b = PodSpec.builder().volumes(volumes);
    int containers = 1 + rnd.nextInt(3);
    for (int i = 0; i < containers; i++) {
      b.container(randomContainer("c" + i, rnd, volumes));
    }
    int inits = rnd.nextInt(3);
    for (int i = 0; i < inits; i++) {
      b.initContainer(randomContainer("init" + i, rnd, volumes));
    }
    if (rnd.nextBoolean()) {
      b.hostname("pod-" + rnd.nextInt(1000));
    }
    if (rnd.nextBoolean()) {
      b.subdomain("svc-" + rnd.nextInt(2));
    }
    if (rnd.nextBoolean()) {
      b.nodeSelector("zone", "z" + rnd.nextInt(2));
    }
    return b.build();
  }

  private static Container randomContainer(String name, Random rnd, List<Volume> volumes) {
    List<VolumeMount> mounts = new ArrayList<>();
    for (Volume v : volumes) {
      if (rnd.nextBoolean()) {
        mounts.add(VolumeMount.of(v.name(), "/mnt/" + v.name(), rnd.nextBoolean()));
      }
    }
    return Container.of(name, "img:" + rnd.nextInt(3), ResourceList.ofCpuMemory(100L * (1 + rnd.nextInt(4)), 0))
        .withEnv(randomEnv(rnd))
        .withEnvFrom(rnd.nextInt(4) == 0 ? List.of(EnvFromSource.configMap("cm" + rnd.nextInt(2), false)) : List.of())
        .withVolumeMounts(mounts);
  }

  private static List<EnvVar> randomEnv(Random rnd) {
    List<EnvVar> env = new ArrayList<>();
    int n = rnd.nextInt(3);
    for (int i = 0; i < n; i++) {
      env.add(new EnvVar("V" + rnd.nextInt(5), String.valueOf(rnd.nextInt(100))));
    }
    return env;
  }

  private static String suffix(Random rnd) {
    StringBuilder s = new StringBuilder("-");
    for (int i = 0; i < 5; i++) {
      s.append((char) ('a' + rnd.nextInt(26)));
    }
    return s.toString();
  }

  /** {@code s} with another hostname, other {@code env} and its projected volumes renamed (mounts following). */
  private static PodSpec varied(PodSpec s, Random rnd) {
    Map<String, String> renamed = new HashMap<>();
    List<Volume> volumes = new ArrayList<>();
    for (Volume v : s.volumes()) {
      if (v.source() instanceof VolumeSource.Projected) {
        String name = v.name() + "x" + suffix(rnd); // unique: the original names are unique
        renamed.put(v.name(), name);
        volumes.add(new Volume(name, v.source()));
      } else {
        volumes.add(v);
      }
    }
    return s.toBuilder()
        .volumes(volumes)
        .containers(varied(s.containers(), renamed, rnd))
        .initContainers(varied(s.initContainers(), renamed, rnd))
        .hostname(rnd.nextBoolean() ? "" : "other-" + rnd.nextInt(1000))
        .build();
  }

  private static List<Container> varied(List<Container> list, Map<String, String> renamed, Random rnd) {
    List<Container> out = new ArrayList<>();
    for (Container c : list) {
      List<VolumeMount> mounts = new ArrayList<>();
      for (VolumeMount m : c.volumeMounts()) {
        String to = renamed.get(m.name());
        mounts.add(to == null ? m : new VolumeMount(to, m.readOnly(), m.mountPath(), m.subPath()));
      }
      out.add(c.withEnv(randomEnv(rnd)).withVolumeMounts(mounts));
    }
    return out;
  }

  /** {@code s} with one thing upstream compares changed. */
  private static PodSpec changedElsewhere(PodSpec s, Random rnd) {
    List<Container> containers = new ArrayList<>(s.containers());
    Container first = containers.get(0);
    switch (rnd.nextInt(4)) {
      case 0 -> containers.set(0, first.withImage(first.image() + "-changed"));
      case 1 -> containers.set(0, first.withEnvFrom(append(first.envFrom(), EnvFromSource.secret("changed", false))));
      case 2 -> {
        return s.toBuilder().subdomain(s.subdomain() + "changed").build();
      }
      default -> {
        return s.toBuilder().volume(Volume.emptyDir("added")).build();
      }
    }
    return s.toBuilder().containers(containers).build();
  }

  private static <T> List<T> append(List<T> list, T item) {
    List<T> out = new ArrayList<>(list);
    out.add(item);
    return out;
  }
}
