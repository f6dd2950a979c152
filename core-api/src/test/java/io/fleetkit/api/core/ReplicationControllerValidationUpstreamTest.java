package io.fleetkit.api.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.fleetkit.api.ValidationException;
import io.fleetkit.api.Violation;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.ResourceList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Cases of Kubernetes' {@code pkg/apis/core/validation} tests {@code TestValidateReplicationController},
 * {@code TestValidateReplicationControllerUpdate}, {@code TestValidateReplicationControllerStatus} and
 * {@code TestValidateReplicationControllerStatusUpdate}, as data. The canonical constructor is the validation (it
 * takes the spec as given: no defaulting), and an update is the updated object's validation (a replication
 * controller has no immutable spec field). Skipped cases are listed in docs/conformance.md.
 */
final class ReplicationControllerValidationUpstreamTest {
  static final Map<String, String> VALID_SELECTOR = Map.of("a", "b");
  static final Map<String, String> INVALID_SELECTOR = Map.of("NoUppercaseOrSpecialCharsLike=Equals", "b");
  static final PodSpec POD = PodSpec.builder().container("abc", "image", ResourceList.builder().build()).build();
  static final PodTemplateSpec VALID_TEMPLATE = PodTemplateSpec.of(VALID_SELECTOR, POD);
  /** Upstream's invalidPodTemplate: invalid labels and no container. */
  static final PodTemplateSpec INVALID_TEMPLATE = PodTemplateSpec.of(INVALID_SELECTOR, PodSpec.builder().build());
  /** The fields upstream's test allows an error to name (or a {@code spec.template.} prefix). */
  static final Set<String> ALLOWED_FIELDS = Set.of("metadata.name", "metadata.namespace", "spec.selector",
      "spec.template", "spec.replicas", "metadata.annotations", "metadata.labels", "status.replicas");

  static ReplicationController rc(ObjectMeta meta, int replicas, Map<String, String> selector,
      PodTemplateSpec template) {
    return new ReplicationController(meta, new ReplicationControllerSpec(replicas, 0, selector, template),
        ReplicationControllerStatus.EMPTY);
  }

  static ObjectMeta meta(String name) {
    return ObjectMeta.builder().namespace("default").name(name).build();
  }

  static PodTemplateSpec withRestartPolicy(RestartPolicy p) {
    return PodTemplateSpec.of(VALID_SELECTOR, PodSpec.builder().container("ctr", "image",
        ResourceList.builder().build()).restartPolicy(p).build());
  }

  // TestValidateReplicationController: successCases 1 and 2 (3, a GCE persistent disk, is skipped)
  @Test
  void create_successCases_valid() {
    assertThatCode(() -> rc(meta("abc"), 0, VALID_SELECTOR, VALID_TEMPLATE)).doesNotThrowAnyException();
    assertThatCode(() -> rc(meta("abc-123"), 0, VALID_SELECTOR, VALID_TEMPLATE)).doesNotThrowAnyException();
  }

  static Stream<Arguments> createErrorCases() {
    return Stream.of(
        Arguments.of("zero-length ID", (Supplier<?>) () -> rc(meta(""), 0, VALID_SELECTOR, VALID_TEMPLATE),
            "metadata.name"),
        Arguments.of("empty selector", (Supplier<?>) () -> rc(meta("abc"), 0, Map.of(), VALID_TEMPLATE),
            "spec.selector"),
        Arguments.of("selector_doesnt_match", (Supplier<?>) () -> rc(meta("abc"), 0, Map.of("foo", "bar"),
            VALID_TEMPLATE), "spec.template.metadata.labels"),
        Arguments.of("invalid manifest", (Supplier<?>) () -> new ReplicationController(meta("abc"),
            new ReplicationControllerSpec(0, 0, VALID_SELECTOR, null), ReplicationControllerStatus.EMPTY),
            "spec.template"),
        Arguments.of("negative_replicas", (Supplier<?>) () -> new ReplicationController(meta("abc"),
            new ReplicationControllerSpec(-1, 0, VALID_SELECTOR, null), ReplicationControllerStatus.EMPTY),
            "spec.replicas"),
        Arguments.of("invalid_label", (Supplier<?>) () -> rc(ObjectMeta.builder().namespace("default")
            .name("abc-123").label("NoUppercaseOrSpecialCharsLike=Equals", "bar").build(), 0, VALID_SELECTOR,
            VALID_TEMPLATE), "metadata.labels"),
        Arguments.of("invalid_label 2", (Supplier<?>) () -> rc(ObjectMeta.builder().namespace("default")
            .name("abc-123").label("NoUppercaseOrSpecialCharsLike=Equals", "bar").build(), 0, Map.of(),
            INVALID_TEMPLATE), "metadata.labels"),
        Arguments.of("invalid restart policy 1", (Supplier<?>) () -> rc(meta("abc-123"), 0, VALID_SELECTOR,
            withRestartPolicy(RestartPolicy.OnFailure)), "spec.template.spec.restartPolicy"),
        Arguments.of("invalid restart policy 2", (Supplier<?>) () -> rc(meta("abc-123"), 0, VALID_SELECTOR,
            withRestartPolicy(RestartPolicy.Never)), "spec.template.spec.restartPolicy"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("createErrorCases")
  void create_errorCases_rejectedOnAllowedFields(String name, Supplier<?> build, String expectedField) {
    ValidationException e = catchThrowableOfType(ValidationException.class, build::get);
    assertThat(e).as(name).isNotNull();
    assertThat(e.violations()).extracting(Violation::field).contains(expectedField);
    for (Violation v : e.violations()) { // upstream's secondary assertion: every error names an expected field
      assertThat(v.field().startsWith("spec.template.") || ALLOWED_FIELDS.contains(v.field()))
          .as(name + ": " + v).isTrue();
    }
  }

  @Test
  void create_invalidLabel2_reportsEverything() {
    ValidationException e = catchThrowableOfType(ValidationException.class, () -> rc(ObjectMeta.builder()
        .namespace("default").name("abc-123").label("NoUppercaseOrSpecialCharsLike=Equals", "bar").build(), 0,
        Map.of(), INVALID_TEMPLATE));
    assertThat(e.violations()).extracting(Violation::field).contains("metadata.labels", "spec.selector",
        "spec.template.metadata.labels", "spec.template.spec.containers");
    assertThat(e.getMessage()).contains("ReplicationController default/abc-123");
  }

  @Test
  void create_activeDeadlineSeconds_mustNotBeSpecified() {
    ValidationException e = catchThrowableOfType(ValidationException.class, () -> rc(meta("abc"), 1,
        VALID_SELECTOR, PodTemplateSpec.of(VALID_SELECTOR, POD.toBuilder().activeDeadlineSeconds(5L).build())));
    assertThat(e.violations()).singleElement().satisfies(v -> {
      assertThat(v.field()).isEqualTo("spec.template.spec.activeDeadlineSeconds");
      assertThat(v.rule()).isEqualTo("must not be specified");
    });
  }

  // TestValidateReplicationControllerUpdate: successCases 1 (2, a GCE persistent disk, is skipped)
  @Test
  void update_scaleUp_valid() {
    ReplicationController old = rc(meta("abc"), 0, VALID_SELECTOR, VALID_TEMPLATE);
    assertThatCode(() -> old.withSpec(old.spec().withReplicas(3))).doesNotThrowAnyException();
  }

  // TestValidateReplicationControllerUpdate errorCases "invalid selector", "invalid pod", "negative replicas"
  // ("more than one read/write", a GCE persistent disk, is skipped)
  @Test
  void update_errorCases_rejected() {
    ReplicationController old = rc(meta("abc"), 0, VALID_SELECTOR, VALID_TEMPLATE);
    assertThat(catchThrowableOfType(ValidationException.class, () -> old.withSpec(
        new ReplicationControllerSpec(2, 0, INVALID_SELECTOR, VALID_TEMPLATE))).violations())
        .extracting(Violation::field).contains("spec.template.metadata.labels");
    assertThat(catchThrowableOfType(ValidationException.class, () -> old.withSpec(
        new ReplicationControllerSpec(2, 0, VALID_SELECTOR, INVALID_TEMPLATE))).violations())
        .extracting(Violation::field).contains("spec.template.spec.containers");
    assertThat(catchThrowableOfType(ValidationException.class, () -> old.withSpec(
        new ReplicationControllerSpec(-1, 0, VALID_SELECTOR, VALID_TEMPLATE))).violations())
        .extracting(Violation::field).containsExactly("spec.replicas");
  }

  // TestValidateReplicationControllerStatusUpdate: its success case and its error case "negative replicas"
  @Test
  void statusUpdate_cases() {
    ReplicationController old = rc(meta("abc"), 0, VALID_SELECTOR, VALID_TEMPLATE)
        .withStatus(status(2, 0, 0, 0, 0));
    assertThat(old.withStatus(status(4, 0, 0, 0, 0)).status().replicas()).isEqualTo(4);
    assertThat(catchThrowableOfType(ValidationException.class, () -> old.withStatus(status(-3, 0, 0, 0, 0)))
        .violations()).extracting(Violation::field).contains("status.replicas"); // and counts above -3
  }

  static ReplicationControllerStatus status(int replicas, int fullyLabeled, int ready, int available,
      long generation) {
    return new ReplicationControllerStatus(replicas, fullyLabeled, ready, available, generation, List.of());
  }

  // TestValidateReplicationControllerStatus: every case (name, replicas, fullyLabeled, ready, available,
  // observedGeneration, expected error field or null)
  static Stream<Arguments> statusCases() {
    return Stream.of(
        Arguments.of("valid status", 3, 3, 2, 1, 2L, null),
        Arguments.of("invalid replicas", -1, 3, 2, 1, 2L, "status.replicas"),
        Arguments.of("invalid fullyLabeledReplicas", 3, -1, 2, 1, 2L, "status.fullyLabeledReplicas"),
        Arguments.of("invalid readyReplicas", 3, 3, -1, 1, 2L, "status.readyReplicas"),
        Arguments.of("invalid availableReplicas", 3, 3, 3, -1, 2L, "status.availableReplicas"),
        Arguments.of("invalid observedGeneration", 3, 3, 3, 3, -1L, "status.observedGeneration"),
        Arguments.of("fullyLabeledReplicas greater than replicas", 3, 4, 3, 3, 1L, "status.fullyLabeledReplicas"),
        Arguments.of("readyReplicas greater than replicas", 3, 3, 4, 3, 1L, "status.readyReplicas"),
        Arguments.of("availableReplicas greater than replicas", 3, 3, 3, 4, 1L, "status.availableReplicas"),
        Arguments.of("availableReplicas greater than readyReplicas", 3, 3, 2, 3, 1L, "status.availableReplicas"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("statusCases")
  void status_cases(String name, int replicas, int fullyLabeled, int ready, int available, long generation,
      String expectedField) {
    ReplicationController valid = rc(meta("abc"), 0, VALID_SELECTOR, VALID_TEMPLATE);
    ReplicationControllerStatus st = status(replicas, fullyLabeled, ready, available, generation);
    if (expectedField == null) {
      assertThat(valid.withStatus(st).status()).isEqualTo(st);
    } else {
      assertThat(catchThrowableOfType(ValidationException.class, () -> valid.withStatus(st)).violations())
          .as(name).extracting(Violation::field).contains(expectedField);
    }
  }
}
