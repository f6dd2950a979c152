package io.fleetkit.reconcile.controllers.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.core.PodTemplateSpec;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.reconcile.controllers.WorkloadLabels;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;

/**
 * {@link TemplateHash#equalIgnoreHash}, which compares in place, against upstream's form (both templates copied
 * without the hash label, then compared): random pairs of templates whose labels differ in the hash, in other labels
 * or not at all, whose specs are the same instance, equal copies or different, and whose metadata differ elsewhere
 * (annotations, name) or not.
 */
final class TemplateHashEqualIgnoreHashPropertyTest {
  private static final PodSpec SPEC_A = spec("img:1");
  private static final PodSpec SPEC_B = spec("img:2");

  private static PodSpec spec(String image) {
    return PodSpec.builder().container("app", image, ResourceList.ofCpuMemory(100, 0)).build();
  }

  private static PodTemplateSpec template(Random r) {
    Map<String, String> labels = new LinkedHashMap<>();
    if (r.nextInt(4) != 0) {
      labels.put("app", r.nextInt(4) == 0 ? "other" : "web");
    }
    if (r.nextInt(3) == 0) {
      labels.put("tier", "front");
    }
    if (r.nextBoolean()) {
      labels.put(WorkloadLabels.POD_TEMPLATE_HASH, r.nextBoolean() ? "abc" : "xyz");
    }
    ObjectMeta.Builder m = ObjectMeta.builder().labels(labels);
    if (r.nextInt(5) == 0) {
      m.annotation("note", r.nextBoolean() ? "1" : "2");
    }
    if (r.nextInt(8) == 0) {
      m.name("named");
    }
    if (r.nextInt(8) == 0) {
      m.finalizer("keep");
    }
    if (r.nextInt(8) == 0) {
      m.namespace("ns");
    }
    PodSpec spec = switch (r.nextInt(4)) {
      case 0 -> SPEC_B;
      case 1 -> spec("img:1"); // equal to SPEC_A, another instance
      default -> SPEC_A;
    };
    return new PodTemplateSpec(m.build(), spec);
  }

  @org.junit.jupiter.api.Test
  void objectMeta_hasTheComponentsEqualIgnoreHashCompares() {
    // equalIgnoreHash compares the metadata component by component: a new component must be added there
    assertThat(java.util.Arrays.stream(ObjectMeta.class.getRecordComponents()).map(c -> c.getName()).toList())
        .containsExactly("name", "namespace", "uid", "resourceVersion", "generation", "labels", "annotations",
            "ownerReferences", "finalizers", "creationTimestamp", "deletionTimestamp", "deletionGracePeriodSeconds");
  }

  @Property(tries = 1000)
  void equalIgnoreHash_answersAsComparingCopiesWithoutTheHash(@ForAll long seed) {
    Random r = new Random(seed);
    PodTemplateSpec a = template(r);
    PodTemplateSpec b = r.nextInt(6) == 0 ? a : template(r);
    boolean upstream = TemplateHash.withoutHash(a).equals(TemplateHash.withoutHash(b));
    assertThat(TemplateHash.equalIgnoreHash(a, b)).as("%s vs %s", a, b).isEqualTo(upstream);
    assertThat(TemplateHash.equalIgnoreHash(b, a)).as("%s vs %s", b, a).isEqualTo(upstream);
  }
}
