package io.fleetkit.api.apps;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.ResourceList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Supplier;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;

/**
 * The copies {@link ReplicaSet} and {@link Deployment} make without checking again ({@code withStatus},
 * {@code withStatusOf}, {@code withMetadata} keeping the name, namespace and labels) against the canonical
 * constructor, which checks everything: from a valid object, random new metadata (the same parts, equal copies,
 * another name, an invalid name or label, another resourceVersion or annotation) and statuses give the same object or
 * the same {@link io.fleetkit.api.ValidationException} message both ways.
 */
final class WorkloadCopiesValidationPropertyTest {
  private static final PodSpec SPEC = PodSpec.builder().container("app", "img:1", ResourceList.ofCpuMemory(100, 0))
      .build();

  private static ObjectMeta variant(ObjectMeta m, Random r) {
    ObjectMeta.Builder b = m.toBuilder();
    switch (r.nextInt(8)) {
      case 0 -> { } // equal parts, other instances (the builder copies the maps)
      case 1 -> b.name(r.nextBoolean() ? "other" : "Not_Valid");
      case 2 -> {
        Map<String, String> labels = new HashMap<>(m.labels());
        labels.put(r.nextBoolean() ? "extra" : "bad key!", "v");
        b.labels(labels);
      }
      case 3 -> b.namespace(r.nextBoolean() ? "ns2" : "Bad_NS");
      case 4 -> { // another name or namespace with the very same labels
        boolean name = r.nextBoolean();
        String value = r.nextBoolean() ? "other" : "Not_Valid";
        return new ObjectMeta(name ? value : m.name(), name ? m.namespace() : value.toLowerCase(), m.uid(),
            m.resourceVersion(), m.generation(), m.labels(), m.annotations(), m.ownerReferences(), m.finalizers(),
            m.creationTimestamp(), m.deletionTimestamp());
      }
      default -> {
        return r.nextBoolean() ? m.withResourceVersion(Integer.toString(r.nextInt(100)))
            : new ObjectMeta(m.name(), m.namespace(), m.uid(), m.resourceVersion(), m.generation(), m.labels(),
                Map.of("note", Integer.toString(r.nextInt(3))), m.ownerReferences(), m.finalizers(),
                m.creationTimestamp(), m.deletionTimestamp());
      }
    }
    return b.build();
  }

  /** The object, or the exception's message: what a caller sees. */
  private static Object outcome(Supplier<?> make) {
    try {
      return make.get();
    } catch (RuntimeException e) {
      return e.getClass().getSimpleName() + ": " + e.getMessage();
    }
  }

  @Property(tries = 500)
  void replicaSetCopies_decideAsTheCheckingConstructor(@ForAll long seed) {
    Random r = new Random(seed);
    ReplicaSet rs = ReplicaSet.builder().namespace("ns").name("web-1").replicas(r.nextInt(5))
        .matchLabels(Map.of("app", "web")).podSpec(SPEC).build();
    for (int step = 0; step < 6; step++) {
      ReplicaSet from = rs;
      ObjectMeta m = variant(from.metadata(), r);
      ReplicaSetStatus s = new ReplicaSetStatus(r.nextInt(5), r.nextInt(5), r.nextInt(5), r.nextInt(5), 1, List.of());
      Object copied = outcome(() -> from.withMetadata(m));
      assertThat(copied).isEqualTo(outcome(() -> new ReplicaSet(m, from.spec(), from.status())));
      assertThat(from.withStatus(s)).isEqualTo(new ReplicaSet(from.metadata(), from.spec(), s));
      assertThat(from.withStatusOf(from.withStatus(s))).isEqualTo(new ReplicaSet(from.metadata(), from.spec(), s));
      if (copied instanceof ReplicaSet next) {
        rs = next;
      }
    }
  }

  @Property(tries = 500)
  void deploymentCopies_decideAsTheCheckingConstructor(@ForAll long seed) {
    Random r = new Random(seed);
    Deployment d = Deployment.builder().namespace("ns").name("web").replicas(r.nextInt(5))
        .matchLabels(Map.of("app", "web")).podSpec(SPEC).build();
    for (int step = 0; step < 6; step++) {
      Deployment from = d;
      ObjectMeta m = variant(from.metadata(), r);
      DeploymentStatus s = new DeploymentStatus(1, r.nextInt(5), 0, 0, 0, 0, List.of(), null);
      Object copied = outcome(() -> from.withMetadata(m));
      assertThat(copied).isEqualTo(outcome(() -> new Deployment(m, from.spec(), from.status())));
      assertThat(from.withStatus(s)).isEqualTo(new Deployment(from.metadata(), from.spec(), s));
      assertThat(from.withStatusOf(from.withStatus(s))).isEqualTo(new Deployment(from.metadata(), from.spec(), s));
      if (copied instanceof Deployment next) {
        d = next;
      }
    }
  }
}
