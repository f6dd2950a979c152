package io.fleetkit.api.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.assertj.core.groups.Tuple.tuple;

import io.fleetkit.api.ValidationException;
import io.fleetkit.api.Violation;
import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.resource.ResourceList;
import java.util.List;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The downward API file rules of kubernetes {@code pkg/apis/core/validation/validation.go} (commit 000f26050b9b)
 * that {@code TestValidateVolumes} has no case for: {@code validateContainerResourceDivisor} (the divisors each
 * resource allows, compared as canonical quantities, an unset or zero divisor unchecked, the error's value the
 * resource as upstream's) and {@code validateObjectFieldSelector} (a field path {@code ConvertDownwardAPIFieldLabel}
 * must know, a label or annotation key in a subscript that must be a qualified name, reported on the reference).
 * The subscript rows mirror {@code TestValidateEnv}'s fieldRef error cases, whose function is the same; FleetKit's
 * own cases otherwise. Each through a pod, as the API server checks a downward API volume.
 */
final class DownwardApiFieldValidationTest {
  private static final String AT = "spec.volumes[0].downwardAPI";
  private static final String BYTES = "1, 1k, 1M, 1G, 1T, 1P, 1E, 1Ki, 1Mi, 1Gi, 1Ti, 1Pi, 1Ei";

  private static List<Violation> violations(DownwardAPIVolumeFile file) {
    ValidationException e = catchThrowableOfType(ValidationException.class, () -> Pod.builder().namespace("default")
        .name("web").container("app", "nginx", ResourceList.EMPTY)
        .volume(new Volume("podinfo", new VolumeSource.DownwardAPI(List.of(file), null))).build());
    return e == null ? List.of() : e.violations();
  }

  private static DownwardAPIVolumeFile resource(String container, String resource, @Nullable String divisor) {
    return new DownwardAPIVolumeFile("f", null, new DownwardAPIVolumeFile.ResourceFieldRef(container, resource,
        divisor == null ? null : Quantity.parse(divisor)), null);
  }

  private static DownwardAPIVolumeFile field(String apiVersion, String fieldPath) {
    return new DownwardAPIVolumeFile("f", new DownwardAPIVolumeFile.FieldRef(apiVersion, fieldPath), null, null);
  }

  static Stream<Arguments> allowedDivisors() {
    return Stream.of(
        Arguments.of("limits.cpu", "1m"), Arguments.of("requests.cpu", "1"),
        Arguments.of("requests.cpu", "1000m"), // canonically 1
        Arguments.of("limits.memory", "1Mi"), Arguments.of("requests.memory", "1k"),
        Arguments.of("requests.memory", "1000"), // canonically 1k
        Arguments.of("limits.memory", "1Ei"), Arguments.of("limits.ephemeral-storage", "1G"),
        Arguments.of("requests.ephemeral-storage", "1Ki"), Arguments.of("limits.hugepages-2Mi", "1Mi"),
        Arguments.of("requests.hugepages-1Gi", "1"),
        Arguments.of("limits.cpu", "0"), // a zero divisor counts as unset
        Arguments.of("limits.cpu", null));
  }

  @ParameterizedTest(name = "{0} / {1}")
  @MethodSource
  void allowedDivisors(String resource, @Nullable String divisor) {
    assertThat(violations(resource("app", resource, divisor))).isEmpty();
  }

  static Stream<Arguments> refusedDivisors() {
    String cpu = "only divisor's values 1m and 1 are supported with the cpu resource";
    return Stream.of(
        Arguments.of("limits.cpu", "2", cpu), Arguments.of("requests.cpu", "500m", cpu),
        Arguments.of("requests.cpu", "1k", cpu),
        Arguments.of("limits.memory", "1024", "only divisor's values " + BYTES
            + " are supported with the memory resource"), // canonically 1024, not 1Ki
        Arguments.of("requests.memory", "1m", "only divisor's values " + BYTES
            + " are supported with the memory resource"),
        Arguments.of("limits.ephemeral-storage", "3", "only divisor's values " + BYTES
            + " are supported with the local ephemeral storage resource"),
        Arguments.of("requests.hugepages-2Mi", "2Mi", "only divisor's values " + BYTES
            + " are supported with the hugepages resource"));
  }

  @ParameterizedTest(name = "{0} / {1}")
  @MethodSource
  void refusedDivisors(String resource, String divisor, String rule) {
    assertThat(violations(resource("app", resource, divisor))).extracting(Violation::field, Violation::rule,
        Violation::value).containsExactly(tuple(AT + ".resourceFieldRef.divisor", rule, resource));
  }

  /** Upstream checks the divisor after the other rules, whatever they found; an unknown resource has no divisors. */
  @Test
  void divisor_isCheckedBesideAMissingContainer_andNotForAnUnknownResource() {
    assertThat(violations(resource("", "limits.cpu", "2"))).extracting(Violation::field).containsExactly(
        AT + ".resourceFieldRef.containerName", AT + ".resourceFieldRef.divisor");
    assertThat(violations(resource("app", "limits.gpu", "7"))).extracting(Violation::field).containsExactly(
        AT + ".resourceFieldRef.resource");
  }

  static Stream<Arguments> refusedFieldRefs() {
    return Stream.of(
        // TestValidateEnv "metadata.labels with invalid key": on the reference, the key as the value
        Arguments.of(field("v1", "metadata.labels['Www.k8s.io/test']"), AT + ".fieldRef", "Www.k8s.io/test",
            "prefix part a lowercase RFC 1123 subdomain must consist of"),
        // TestValidateEnv "metadata.annotations with invalid key"
        Arguments.of(field("v1", "metadata.annotations['invalid~key']"), AT + ".fieldRef", "invalid~key",
            "name part must consist of alphanumeric characters"),
        // TestValidateEnv "metadata.name with subscript"
        Arguments.of(field("v1", "metadata.name['key']"), AT + ".fieldRef.fieldPath", "metadata.name['key']",
            "error converting fieldPath: field label does not support subscript: metadata.name['key']"),
        // TestValidateEnv "invalid fieldPath"
        Arguments.of(field("v1", "metadata.whoops"), AT + ".fieldRef.fieldPath", "metadata.whoops",
            "error converting fieldPath: field label not supported: metadata.whoops"),
        // a path the conversion knows, but not a volume's; spec.host is the old name of spec.nodeName
        Arguments.of(field("v1", "status.phase"), AT + ".fieldRef.fieldPath", "status.phase",
            "Unsupported value: supported values: \"metadata.annotations\", \"metadata.labels\", "
                + "\"metadata.name\", \"metadata.namespace\", \"metadata.uid\""),
        Arguments.of(field("v1", "spec.host"), AT + ".fieldRef.fieldPath", "spec.nodeName",
            "Unsupported value: supported values: "),
        Arguments.of(field("v2", "metadata.name"), AT + ".fieldRef.fieldPath", "metadata.name",
            "error converting fieldPath: unsupported pod version: v2"),
        // a label key's prefix is a lower-case subdomain; an annotation's key is lower-cased first
        Arguments.of(field("v1", "metadata.labels['TEST.EXAMPLE.COM/key']"), AT + ".fieldRef",
            "TEST.EXAMPLE.COM/key", "prefix part"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource
  void refusedFieldRefs(DownwardAPIVolumeFile file, String field, String value, String rule) {
    List<Violation> got = violations(file);

    assertThat(got).isNotEmpty().allSatisfy(v -> {
      assertThat(v.field()).isEqualTo(field);
      assertThat(v.value()).isEqualTo(value);
    });
    assertThat(got).extracting(Violation::rule).anySatisfy(r -> assertThat(r).contains(rule));
  }

  @Test
  void fieldRef_subscriptsAndDefaultedVersion_areAccepted() {
    for (DownwardAPIVolumeFile f : List.of(field("v1", "metadata.annotations['TEST.EXAMPLE.COM/key']"),
        field("v1", "metadata.labels['test.example.com/key']"), field("", "metadata.uid"),
        field("v1", "metadata.annotations['example.com/Key_1']"))) {
      assertThat(violations(f)).as(f.fieldRef().fieldPath()).isEmpty();
    }
  }

  /** {@code metadata.labels['']}: the empty key is no qualified name, reported on the reference. */
  @Test
  void fieldRef_emptySubscript_isRefusedAsAnEmptyName() {
    assertThat(violations(field("v1", "metadata.labels['']"))).extracting(Violation::field, Violation::value)
        .containsOnly(tuple(AT + ".fieldRef", ""));
  }
}
