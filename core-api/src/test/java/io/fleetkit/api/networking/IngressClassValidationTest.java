package io.fleetkit.api.networking;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.fleetkit.api.ValidationException;
import io.fleetkit.api.Violation;
import io.fleetkit.api.meta.ObjectMeta;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * An IngressClass's {@code spec.controller} as upstream's {@code validateIngressClassSpec} checks it: at most 250
 * characters and a domain-prefixed path ({@code IsDomainPrefixedPath}). FleetKit's own cases.
 */
final class IngressClassValidationTest {

  private static List<Violation> refused(String controller) {
    ValidationException e = catchThrowableOfType(ValidationException.class,
        () -> new IngressClass(ObjectMeta.builder().name("c").build(), controller));
    assertThat(e).as("refused: " + controller).isNotNull();
    return e.violations();
  }

  @Test
  void controller_domainPrefixedPath() {
    assertThat(new IngressClass(ObjectMeta.builder().name("c").build(), "k8s.io/ingress-nginx").controller())
        .isEqualTo("k8s.io/ingress-nginx");
    assertThat(refused("nginx")).singleElement().satisfies(v -> {
      assertThat(v.field()).isEqualTo("spec.controller");
      assertThat(v.rule()).isEqualTo("must be a domain-prefixed path (such as \"acme.io/foo\")");
    });
    assertThat(refused("Bad_Host/x")).singleElement().satisfies(v -> assertThat(v.value()).isEqualTo("Bad_Host"));
    assertThat(refused("")).singleElement().satisfies(v -> assertThat(v.rule()).startsWith("Required value"));
  }

  @Test
  void controller_atMost250Characters() {
    String ok = "example.com/" + "a".repeat(238);
    assertThat(new IngressClass(ObjectMeta.builder().name("c").build(), ok).controller()).hasSize(250);
    assertThat(refused(ok + "a")).singleElement().satisfies(v -> {
      assertThat(v.field()).isEqualTo("spec.controller");
      assertThat(v.rule()).isEqualTo("Too long: may not be more than 250 bytes");
    });
  }
}
