package io.fleetkit.api.apps;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.fleetkit.api.ValidationException;
import io.fleetkit.api.Violation;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.core.PodTemplateSpec;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.meta.OwnerReference;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.store.ObjectStore;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** ControllerRevision: Kubernetes' {@code ValidateControllerRevision} rules and the store's handling of the kind. */
final class ControllerRevisionTest {
  private static final PodTemplateSpec TEMPLATE = PodTemplateSpec.of(Map.of("app", "web"),
      PodSpec.builder().container("nginx", "nginx", ResourceList.EMPTY).build());

  private static List<Violation> violations(Runnable r) {
    return catchThrowableOfType(ValidationException.class, r::run).violations();
  }

  @Test
  void of_withOwner_controllerRefAndTemplateLabels() {
    StatefulSet owner = StatefulSet.builder().name("web").matchLabels(Map.of("app", "web"))
        .podSpec(TEMPLATE.spec()).build();
    ControllerRevision r = ControllerRevision.of("default", "web-abc", TEMPLATE, 3, owner);

    assertThat(r.kind()).isEqualTo("ControllerRevision");
    assertThat(r.apiVersion()).isEqualTo("apps/v1");
    assertThat(r.namespaced()).isTrue();
    assertThat(r.metadata().labels()).containsEntry("app", "web");
    assertThat(r.metadata().controllerRef()).isEqualTo(OwnerReference.controllerOf(owner));
    assertThat(r.spec()).isEqualTo(new ControllerRevision.Desired(TEMPLATE, 3));
    assertThat(r.status()).isNull();
    assertThat(r.withRevision(7).revision()).isEqualTo(7);
    assertThat(r.withRevision(7).data()).isSameAs(TEMPLATE);
  }

  @Test
  void constructor_negativeRevisionMissingDataBadName_reportsEveryViolation() {
    List<Violation> v = violations(() -> new ControllerRevision(ObjectMeta.of("default", "Web_1"), null, -1));

    assertThat(v).extracting(Violation::field).containsExactlyInAnyOrder("metadata.name", "data", "revision");
    assertThat(v).allSatisfy(x -> assertThat(x.object()).isEqualTo("ControllerRevision default/Web_1"));
    assertThat(v).filteredOn(x -> x.field().equals("data")).extracting(Violation::rule).first().asString()
        .contains("data is mandatory");
    assertThat(v).filteredOn(x -> x.field().equals("revision")).extracting(Violation::value).containsExactly("-1");
  }

  @Test
  void constructor_missingName_required() {
    assertThat(violations(() -> new ControllerRevision(ObjectMeta.builder().namespace("default").build(), TEMPLATE,
        0))).extracting(Violation::field).containsExactly("metadata.name");
  }

  @Test
  void store_createUpdateRevision_generationBumpsOnRevisionChange() {
    try (ObjectStore store = ObjectStore.inMemory()) {
      ControllerRevision created = store.create(ControllerRevision.of("default", "web-abc", TEMPLATE, 1, null));
      assertThat(created.metadata().generation()).isEqualTo(1);

      ControllerRevision bumped = store.update(created.withRevision(2));

      assertThat(bumped.revision()).isEqualTo(2);
      assertThat(bumped.metadata().generation()).isEqualTo(2);
      assertThat(store.list(ControllerRevision.class, "default").items()).containsExactly(bumped);
    }
  }
}
