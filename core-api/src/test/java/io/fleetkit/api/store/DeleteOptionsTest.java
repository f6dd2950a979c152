package io.fleetkit.api.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.ValidationException;
import io.fleetkit.api.Violation;
import org.junit.jupiter.api.Test;

/**
 * {@link DeleteOptions} and {@link DeletionPropagation}: the API server's {@code ValidateDeleteOptions}
 * (k8s.io/apiserver {@code pkg/apis/meta/v1/validation}, the rules the store's callers get).
 */
final class DeleteOptionsTest {
  @Test
  void bothPolicyAndOrphanDependents_validationErrorNamingField_evenWhenTheyAgree() {
    assertThatThrownBy(() -> DeleteOptions.orphan().withOrphanDependents(true))
        .isInstanceOf(ValidationException.class)
        .hasMessage("DeleteOptions: propagationPolicy \"Orphan\" orphanDependents and deletionPropagation cannot be"
            + " both set")
        .satisfies(e -> assertThat(((ValidationException) e).violations()).containsExactly(new Violation(
            "DeleteOptions", "propagationPolicy", "orphanDependents and deletionPropagation cannot be both set",
            "Orphan")));
    assertThatThrownBy(() -> DeleteOptions.DEFAULT.withOrphanDependents(false)
        .withPropagationPolicy(DeletionPropagation.FOREGROUND))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("cannot be both set");
  }

  @Test
  void parse_upstreamNames_unknownIsUnsupportedValue() {
    assertThat(DeletionPropagation.parse("Orphan")).isEqualTo(DeletionPropagation.ORPHAN);
    assertThat(DeletionPropagation.parse("Background")).isEqualTo(DeletionPropagation.BACKGROUND);
    assertThat(DeletionPropagation.parse("Foreground")).isEqualTo(DeletionPropagation.FOREGROUND);
    assertThatThrownBy(() -> DeletionPropagation.parse("foreground"))
        .isInstanceOf(ValidationException.class)
        .hasMessage("DeleteOptions: propagationPolicy \"foreground\" Unsupported value: supported values:"
            + " \"Foreground\", \"Background\", \"Orphan\", \"nil\"");
  }

  @Test
  void factories_sharedConstants_noAllocationForPlainOrPolicyOnly() {
    assertThat(DeleteOptions.of(DeletePreconditions.NONE)).isSameAs(DeleteOptions.DEFAULT);
    assertThat(DeleteOptions.propagation(DeletionPropagation.FOREGROUND)).isSameAs(DeleteOptions.foreground());
    assertThat(DeleteOptions.DEFAULT.choosesPropagation()).isFalse();
    assertThat(DeleteOptions.DEFAULT.withOrphanDependents(false).choosesPropagation()).isTrue();
    assertThat(DeleteOptions.of(DeletePreconditions.uid("u")).preconditions().uid()).isEqualTo("u");
    assertThat(DeleteOptions.background().withPreconditions(DeletePreconditions.uid("u")).propagationPolicy())
        .isEqualTo(DeletionPropagation.BACKGROUND);
  }
}
