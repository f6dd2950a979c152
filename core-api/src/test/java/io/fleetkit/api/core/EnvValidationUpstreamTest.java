package io.fleetkit.api.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.fleetkit.api.ValidationException;
import io.fleetkit.api.Violation;
import io.fleetkit.api.Violations;
import io.fleetkit.api.internal.EnvChecks;
import io.fleetkit.api.resource.ResourceList;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Port of kubernetes {@code pkg/apis/core/validation/validation_test.go} (commit 000f26050b9b): TestValidateEnv,
 * TestRelaxedValidateEnv, TestValidateEnvFrom, TestRelaxedValidateEnvFrom, TestLocalStorageEnvWithFeatureGate and
 * TestHugePagesEnv, with the rules of {@code ValidateEnv} and {@code ValidateEnvFrom} at the same commit.
 *
 * <p>Upstream's cases with {@code PodValidationOptions{}} (the strict name rule, {@code IsEnvVarName}) run through
 * {@link EnvChecks} with the field path {@code field}, as upstream's; the cases with
 * {@code AllowRelaxedEnvironmentVariableValidation} run through a pod, whose validation always uses the relaxed rule
 * (GA and locked on since Kubernetes 1.34), the path then being {@code spec.containers[0].env}. As upstream, every
 * error of a failing case must contain the expected text; the errors are rendered as Go's {@code field.Error} renders
 * them ({@code <field>: Invalid value: "<value>": <detail>}). Where upstream expects no text (the two invalid
 * selector names), the field is asserted.
 */
final class EnvValidationUpstreamTest {
  private static final String ENV_VAR_NAME_ERR_MSG = "a valid environment variable name must consist of";
  private static final String RELAXED_ENV_VAR_NAME_ERR_MSG =
      "a valid environment variable name must consist only of printable ASCII characters other than '='";
  private static final String DNS_SUBDOMAIN_ERR_MSG = "a lowercase RFC 1123 subdomain";
  private static final String SUPPORTED_ENV_FIELDS = "supported values: \"metadata.name\", \"metadata.namespace\", "
      + "\"metadata.uid\", \"spec.nodeName\", \"spec.serviceAccountName\", \"status.hostIP\", \"status.hostIPs\", "
      + "\"status.podIP\", \"status.podIPs\"";

  // ---- helpers

  private static List<String> strictEnv(List<EnvVar> envs) {
    Violations v = new Violations("Pod", "default", "web");
    EnvChecks.env(envs, "field", false, v);
    return render(v.violations());
  }

  private static List<String> strictEnvFrom(List<EnvFromSource> sources) {
    Violations v = new Violations("Pod", "default", "web");
    EnvChecks.envFrom(sources, "field", false, v);
    return render(v.violations());
  }

  /** The violations of a pod whose one container has {@code envs} and {@code sources}: the relaxed rule. */
  private static List<Violation> pod(List<EnvVar> envs, List<EnvFromSource> sources) {
    Container c = new Container("app", "nginx", ResourceRequirements.ofRequests(ResourceList.EMPTY), List.of(),
        envs, sources, null, null, null, null, null);
    ValidationException e = catchThrowableOfType(ValidationException.class,
        () -> Pod.builder().namespace("default").name("web").container(c).build());
    return e == null ? List.of() : e.violations();
  }

  /** A pod's violations rendered with upstream's path ({@code field}) for its container's env or envFrom. */
  private static List<String> relaxed(List<EnvVar> envs, List<EnvFromSource> sources) {
    List<Violation> got = pod(envs, sources);
    List<Violation> out = new ArrayList<>();
    for (Violation x : got) {
      assertThat(x.object()).isEqualTo("Pod default/web");
      String f = x.field().replace("spec.containers[0].envFrom", "field").replace("spec.containers[0].env", "field");
      out.add(new Violation(x.object(), f, x.rule(), x.value()));
    }
    return render(out);
  }

  /** Renders as Go's {@code field.Error.Error()}. */
  private static List<String> render(List<Violation> violations) {
    List<String> out = new ArrayList<>();
    for (Violation x : violations) {
      String rule = x.rule();
      if (rule.startsWith(Violations.REQUIRED)) {
        out.add(x.field() + ": " + rule);
      } else if (rule.startsWith("Unsupported value: ")) {
        out.add(x.field() + ": Unsupported value: " + quote(x.value()) + ": "
            + rule.substring("Unsupported value: ".length()));
      } else {
        out.add(x.field() + ": Invalid value: " + quote(x.value()) + ": " + rule);
      }
    }
    return out;
  }

  private static String quote(@Nullable String s) {
    return s == null ? "null" : "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
  }

  private static void assertEveryErrorContains(String name, List<String> errs, String expected) {
    assertThat(errs).as("expected failure for %s", name).isNotEmpty();
    for (String e : errs) {
      assertThat(e).as(name).contains(expected);
    }
  }

  private static EnvVar fieldVar(String name, String apiVersion, String fieldPath) {
    return EnvVar.from(name, new EnvVarSource(new DownwardAPIVolumeFile.FieldRef(apiVersion, fieldPath), null, null,
        null));
  }

  private static EnvVarSource.KeySelector key(String name, String key) {
    return new EnvVarSource.KeySelector(name, key, false);
  }

  private static final DownwardAPIVolumeFile.FieldRef METADATA_NAME = new DownwardAPIVolumeFile.FieldRef("v1",
      "metadata.name");

  // ---- TestValidateEnv

  /** TestValidateEnv's successCase (strict rule) and TestRelaxedValidateEnv's names with each source. */
  @Test
  void testValidateEnv_successCase_isValid() {
    List<EnvVar> success = List.of(new EnvVar("abc", "value"), new EnvVar("ABC", "value"),
        new EnvVar("AbC_123", "value"), new EnvVar("abc", ""), new EnvVar("a.b.c", "value"),
        new EnvVar("a-b-c", "value"), fieldVar("abc", "v1", "metadata.annotations['key']"),
        fieldVar("abc", "v1", "metadata.labels['key']"), fieldVar("abc", "v1", "metadata.name"),
        fieldVar("abc", "v1", "metadata.namespace"), fieldVar("abc", "v1", "metadata.uid"),
        fieldVar("abc", "v1", "spec.nodeName"), fieldVar("abc", "v1", "spec.serviceAccountName"),
        fieldVar("abc", "v1", "status.hostIP"), fieldVar("abc", "v1", "status.podIP"),
        fieldVar("abc", "v1", "status.podIPs"),
        EnvVar.from("secret_value", EnvVarSource.secretKey("some-secret", "secret-key", false)),
        EnvVar.from("ENV_VAR_1", EnvVarSource.configMapKey("some-config-map", "some-key", false)));
    assertThat(strictEnv(success)).isEmpty();
    assertThat(pod(success, List.of())).isEmpty();
  }

  /** TestValidateEnv's updateSuccessCase: names only the relaxed rule allows. */
  @Test
  void testValidateEnv_updateSuccessCase_isValidUnderTheRelaxedRule() {
    List<EnvVar> update = List.of(new EnvVar("!\"#$%&'()", "value"), new EnvVar("* +,-./0123456789", "value"),
        new EnvVar(":;<>?@", "value"), new EnvVar("ABCDEFG", "value"), new EnvVar("abcdefghijklmn", "value"),
        new EnvVar("[\\]^_`{}|~", "value"));
    assertThat(pod(update, List.of())).isEmpty();
  }

  static Stream<Arguments> updateErrorCases() {
    return Stream.of(
        Arguments.of("invalid name a", "!\"#$%&'()",
            "field[0].name: Invalid value: \"!\\\"#$%&'()\": " + ENV_VAR_NAME_ERR_MSG),
        Arguments.of("invalid name b", "* +,-./0123456789",
            "field[0].name: Invalid value: \"* +,-./0123456789\": " + ENV_VAR_NAME_ERR_MSG),
        Arguments.of("invalid name c", ":;<>?@", "field[0].name: Invalid value: \":;<>?@\": " + ENV_VAR_NAME_ERR_MSG),
        Arguments.of("invalid name d", "[\\]^_{}|~",
            "field[0].name: Invalid value: \"[\\\\]^_{}|~\": " + ENV_VAR_NAME_ERR_MSG));
  }

  /** TestValidateEnv's updateErrorCase: the strict rule refuses what the relaxed one allows. */
  @ParameterizedTest(name = "{0}")
  @MethodSource("updateErrorCases")
  void testValidateEnv_updateErrorCase(String name, String varName, String expected) {
    assertEveryErrorContains(name, strictEnv(List.of(new EnvVar(varName, "value"))), expected);
  }

  /** TestValidateEnv's errorCases; TestRelaxedValidateEnv has the same ones after "illegal character". */
  static Stream<Arguments> errorCases() {
    String moreThanOne = "[0].valueFrom: Invalid value: \"\": may not have more than one field specified at a time";
    return Stream.of(
        Arguments.of("zero-length name", List.of(new EnvVar("", "")), "[0].name: Required value"),
        Arguments.of("value and valueFrom specified",
            List.of(new EnvVar("abc", "foo", new EnvVarSource(METADATA_NAME, null, null, null))),
            "[0].valueFrom: Invalid value: \"\": may not be specified when `value` is not empty"),
        Arguments.of("valueFrom without a source", List.of(EnvVar.from("abc", new EnvVarSource(null, null, null,
            null))), "[0].valueFrom: Invalid value: \"\": must specify one of: `fieldRef`, `resourceFieldRef`, "
            + "`configMapKeyRef` or `secretKeyRef`"),
        Arguments.of("valueFrom.fieldRef and valueFrom.secretKeyRef specified", List.of(EnvVar.from("abc",
            new EnvVarSource(METADATA_NAME, null, null, key("a-secret", "a-key")))), moreThanOne),
        Arguments.of("valueFrom.fieldRef and valueFrom.configMapKeyRef set", List.of(EnvVar.from("some_var_name",
            new EnvVarSource(METADATA_NAME, null, key("some-config-map", "some-key"), null))), moreThanOne),
        Arguments.of("valueFrom.fieldRef and valueFrom.secretKeyRef specified (and configMapKeyRef)",
            List.of(EnvVar.from("abc", new EnvVarSource(METADATA_NAME, null, key("some-config-map", "some-key"),
                key("a-secret", "a-key")))), moreThanOne),
        // upstream expects no text for the next two; FleetKit's field is asserted instead
        Arguments.of("valueFrom.secretKeyRef.name invalid", List.of(EnvVar.from("abc",
            EnvVarSource.secretKey("$%^&*#", "a-key", false))),
            "field[0].valueFrom.secretKeyRef.name: Invalid value: \"$%^&*#\": " + DNS_SUBDOMAIN_ERR_MSG),
        Arguments.of("valueFrom.configMapKeyRef.name invalid", List.of(EnvVar.from("abc",
            EnvVarSource.configMapKey("$%^&*#", "some-key", false))),
            "field[0].valueFrom.configMapKeyRef.name: Invalid value: \"$%^&*#\": " + DNS_SUBDOMAIN_ERR_MSG),
        Arguments.of("missing FieldPath on ObjectFieldSelector", List.of(fieldVar("abc", "v1", "")),
            "[0].valueFrom.fieldRef.fieldPath: Required value"),
        Arguments.of("missing APIVersion on ObjectFieldSelector", List.of(fieldVar("abc", "", "metadata.name")),
            "[0].valueFrom.fieldRef.apiVersion: Required value"),
        Arguments.of("invalid fieldPath", List.of(fieldVar("abc", "v1", "metadata.whoops")),
            "[0].valueFrom.fieldRef.fieldPath: Invalid value: \"metadata.whoops\": error converting fieldPath"),
        Arguments.of("metadata.name with subscript", List.of(fieldVar("labels", "v1", "metadata.name['key']")),
            "[0].valueFrom.fieldRef.fieldPath: Invalid value: \"metadata.name['key']\": error converting fieldPath: "
                + "field label does not support subscript"),
        Arguments.of("metadata.labels without subscript", List.of(fieldVar("labels", "v1", "metadata.labels")),
            "[0].valueFrom.fieldRef.fieldPath: Unsupported value: \"metadata.labels\": " + SUPPORTED_ENV_FIELDS),
        Arguments.of("metadata.annotations without subscript",
            List.of(fieldVar("abc", "v1", "metadata.annotations")),
            "[0].valueFrom.fieldRef.fieldPath: Unsupported value: \"metadata.annotations\": "
                + SUPPORTED_ENV_FIELDS),
        Arguments.of("metadata.annotations with invalid key",
            List.of(fieldVar("abc", "v1", "metadata.annotations['invalid~key']")),
            "field[0].valueFrom.fieldRef: Invalid value: \"invalid~key\""),
        Arguments.of("metadata.labels with invalid key",
            List.of(fieldVar("abc", "v1", "metadata.labels['Www.k8s.io/test']")),
            "field[0].valueFrom.fieldRef: Invalid value: \"Www.k8s.io/test\""),
        Arguments.of("unsupported fieldPath", List.of(fieldVar("abc", "v1", "status.phase")),
            "valueFrom.fieldRef.fieldPath: Unsupported value: \"status.phase\": " + SUPPORTED_ENV_FIELDS));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("errorCases")
  void testValidateEnv_errorCases(String name, List<EnvVar> envs, String expected) {
    assertEveryErrorContains(name, strictEnv(envs), expected);
  }

  // ---- TestRelaxedValidateEnv, through a pod

  @Test
  void testRelaxedValidateEnv_successCase_isValid() {
    List<EnvVar> success = List.of(new EnvVar("!\"#$%&'()", "value"), new EnvVar("* +,-./0123456789", "value"),
        new EnvVar(":;<>?@", "value"), new EnvVar("ABCDEFG", "value"), new EnvVar("abcdefghijklmn", "value"),
        new EnvVar("[\\]^_`{}|~", "value"), fieldVar("!\"#$%&'()", "v1", "metadata.annotations['key']"),
        fieldVar("!\"#$%&'()", "v1", "metadata.labels['key']"), fieldVar("* +,-./0123456789", "v1", "metadata.name"),
        fieldVar("* +,-./0123456789", "v1", "metadata.namespace"),
        fieldVar("* +,-./0123456789", "v1", "metadata.uid"), fieldVar(":;<>?@", "v1", "spec.nodeName"),
        fieldVar(":;<>?@", "v1", "spec.serviceAccountName"), fieldVar(":;<>?@", "v1", "status.hostIP"),
        fieldVar(":;<>?@", "v1", "status.podIP"), fieldVar("abcdefghijklmn", "v1", "status.podIPs"),
        EnvVar.from("abcdefghijklmn", EnvVarSource.secretKey("some-secret", "secret-key", false)),
        EnvVar.from("!\"#$%&'()", EnvVarSource.configMapKey("some-config-map", "some-key", false)));
    assertThat(pod(success, List.of())).isEmpty();
  }

  @Test
  void testRelaxedValidateEnv_illegalCharacter_isRefused() {
    assertEveryErrorContains("illegal character", relaxed(List.of(new EnvVar("=abc", "")), List.of()),
        "[0].name: Invalid value: \"=abc\": " + RELAXED_ENV_VAR_NAME_ERR_MSG);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("errorCases")
  void testRelaxedValidateEnv_errorCases(String name, List<EnvVar> envs, String expected) {
    assertEveryErrorContains(name, relaxed(envs, List.of()), expected);
  }

  // ---- TestLocalStorageEnvWithFeatureGate, TestHugePagesEnv

  @Test
  void testLocalStorageEnvWithFeatureGate_and_testHugePagesEnv_areValid() {
    for (String resource : List.of("limits.ephemeral-storage", "requests.ephemeral-storage", "limits.hugepages-2Mi",
        "requests.hugepages-2Mi")) {
      assertThat(strictEnv(List.of(EnvVar.from("r", EnvVarSource.resource("test-container", resource, null)))))
          .as(resource).isEmpty();
    }
  }

  // ---- TestValidateEnvFrom

  private static EnvFromSource cm(String prefix, String name) {
    return EnvFromSource.configMap(name, false).withPrefix(prefix);
  }

  private static EnvFromSource secret(String prefix, String name) {
    return EnvFromSource.secret(name, false).withPrefix(prefix);
  }

  @Test
  void testValidateEnvFrom_successCase_isValid() {
    assertThat(strictEnvFrom(List.of(cm("", "abc"), cm("pre_", "abc"), cm("a.b", "abc"), secret("", "abc"),
        secret("pre_", "abc"), secret("a.b", "abc")))).isEmpty();
  }

  @Test
  void testValidateEnvFrom_updateSuccessCase_isValidUnderTheRelaxedRule() {
    assertThat(pod(List.of(), List.of(cm("", "abc"), cm("* +,-./0123456789", "abc"), cm(":;<>?@", "abc"),
        secret("", "abc"), secret("abcdefghijklmn", "abc"), secret("[\\]^_`{}|~", "abc")))).isEmpty();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("updateErrorCases")
  void testValidateEnvFrom_updateErrorCase(String name, String prefix, String expectedOnName) {
    String expected = expectedOnName.replace("field[0].name", "field[0].prefix");
    assertEveryErrorContains(name, strictEnvFrom(List.of(secret(prefix, "abc"))), expected);
  }

  /** TestValidateEnvFrom's errorCases; TestRelaxedValidateEnvFrom has them too, with "invalid prefix". */
  static Stream<Arguments> envFromErrorCases() {
    return Stream.of(
        Arguments.of("zero-length name", cm("", ""), "field[0].configMapRef.name: Required value"),
        Arguments.of("invalid name", cm("", "$"), "field[0].configMapRef.name: Invalid value"),
        Arguments.of("zero-length name (secret)", secret("", ""), "field[0].secretRef.name: Required value"),
        Arguments.of("invalid name (secret)", secret("", "&"), "field[0].secretRef.name: Invalid value"),
        Arguments.of("no refs", new EnvFromSource("", null, null),
            "field: Invalid value: \"\": must specify one of: `configMapRef` or `secretRef`"),
        Arguments.of("multiple refs", new EnvFromSource("", new EnvFromSource.Reference("abc", false),
            new EnvFromSource.Reference("abc", false)),
            "field: Invalid value: \"\": may not have more than one field specified at a time"),
        Arguments.of("invalid secret ref name", secret("", "$%^&*#"),
            "field[0].secretRef.name: Invalid value: \"$%^&*#\": " + DNS_SUBDOMAIN_ERR_MSG),
        Arguments.of("invalid config ref name", cm("", "$%^&*#"),
            "field[0].configMapRef.name: Invalid value: \"$%^&*#\": " + DNS_SUBDOMAIN_ERR_MSG));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("envFromErrorCases")
  void testValidateEnvFrom_errorCases(String name, EnvFromSource source, String expected) {
    assertEveryErrorContains(name, strictEnvFrom(List.of(source)), expected);
  }

  // ---- TestRelaxedValidateEnvFrom, through a pod

  @Test
  void testRelaxedValidateEnvFrom_successCase_isValid() {
    assertThat(pod(List.of(), List.of(cm("", "abc"), cm("!\"#$%&'()", "abc"), cm("* +,-./0123456789", "abc"),
        secret("", "abc"), secret(":;<>?@", "abc"), secret("[\\]^_`{}|~", "abc")))).isEmpty();
  }

  @Test
  void testRelaxedValidateEnvFrom_invalidPrefix_isRefused() {
    assertEveryErrorContains("invalid prefix", relaxed(List.of(), List.of(cm("=abc", "abc"))),
        "field[0].prefix: Invalid value: \"=abc\": " + RELAXED_ENV_VAR_NAME_ERR_MSG);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("envFromErrorCases")
  void testRelaxedValidateEnvFrom_errorCases(String name, EnvFromSource source, String expected) {
    assertEveryErrorContains(name, relaxed(List.of(), List.of(source)), expected);
  }

  // ---- FleetKit's own

  /** A pod's error names the object, the whole field path and the rule. */
  @Test
  void podViolation_namesObjectFieldAndRule() {
    List<Violation> got = pod(List.of(new EnvVar("A", "1"), fieldVar("B", "v1", "status.phase")), List.of());
    assertThat(got).singleElement().hasToString("Pod default/web: spec.containers[0].env[1].valueFrom.fieldRef"
        + ".fieldPath \"status.phase\" Unsupported value: " + SUPPORTED_ENV_FIELDS);
  }

  /** {@code spec.host} is converted to {@code spec.nodeName}, which an environment variable may read. */
  @Test
  void specHost_isConvertedToNodeName() {
    assertThat(strictEnv(List.of(fieldVar("N", "v1", "spec.host")))).isEmpty();
  }

  /** A divisor the resource does not allow, on an env var's resourceFieldRef; an empty container name is allowed. */
  @Test
  void resourceFieldRef_divisorAndContainerName() {
    assertThat(strictEnv(List.of(EnvVar.from("CPU", EnvVarSource.resource("", "limits.cpu",
        io.fleetkit.api.resource.Quantity.parse("1Mi")))))).containsExactly("field[0].valueFrom.resourceFieldRef"
        + ".divisor: Invalid value: \"limits.cpu\": only divisor's values 1m and 1 are supported with the cpu "
        + "resource");
    assertThat(strictEnv(List.of(EnvVar.from("X", EnvVarSource.resource("", "limits.gpu", null)))))
        .singleElement().asString().startsWith("field[0].valueFrom.resourceFieldRef.resource: Unsupported value");
  }

  /** A trailing dash in an envFrom name is accepted: upstream checks the name as a prefix. */
  @Test
  void envFromName_trailingDash_isAccepted() {
    assertThat(strictEnvFrom(List.of(cm("", "abc-")))).isEmpty();
  }
}
