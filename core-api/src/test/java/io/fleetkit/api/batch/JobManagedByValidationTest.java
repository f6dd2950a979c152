package io.fleetkit.api.batch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.fleetkit.api.ValidationException;
import io.fleetkit.api.Violation;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.core.RestartPolicy;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.resource.ResourceList;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code spec.managedBy}: ported from upstream {@code pkg/apis/batch/validation/validation_test.go} (the stored version
 * {@link JobPerIndexValidationTest} ports), {@code TestValidateJob}: "valid managedBy field" and its two managedBy error
 * cases, every error compared (field, message, value); then FleetKit's own cases of upstream's
 * {@code IsDomainPrefixedPath} rule.
 */
final class JobManagedByValidationTest {

  private static Job.Builder job(String managedBy) {
    return Job.builder().namespace("default").name("myjob").templateLabels(Map.of("controller-uid", "1a2b3c"))
        .selector(LabelSelector.of(Map.of("controller-uid", "1a2b3c")))
        .podSpec(PodSpec.builder().restartPolicy(RestartPolicy.OnFailure).container("abc", "image", ResourceList.EMPTY)
            .build())
        .managedBy(managedBy);
  }

  private static java.util.List<Violation> refused(String managedBy) {
    ValidationException e = catchThrowableOfType(ValidationException.class, job(managedBy)::build);
    assertThat(e).as("refused: " + managedBy).isNotNull();
    return e.violations();
  }

  @Test
  void validManagedBy_accepted() {
    // upstream: "valid managedBy field"
    Job j = job("example.com/foo").build();
    assertThat(j.spec().managedBy()).isEqualTo("example.com/foo");
    assertThat(j.spec().managedByExternalController()).isTrue();
    assertThat(job(JobSpec.JOB_CONTROLLER_NAME).build().spec().managedByExternalController()).isFalse();
    assertThat(job("x.io/y").managedBy(null).build().spec().managedByExternalController()).isFalse();
  }

  @Test
  void tooLong_refused() {
    // upstream: "spec.managedBy: Too long: may not be longer than 63"
    String value = "example.com/" + "x".repeat(60);
    assertThat(refused(value)).singleElement().satisfies(v -> {
      assertThat(v.object()).isEqualTo("Job default/myjob");
      assertThat(v.field()).isEqualTo("spec.managedBy");
      assertThat(v.rule()).isEqualTo("Too long: may not be longer than 63");
      assertThat(v.value()).isEqualTo(value);
    });
  }

  @Test
  void notDomainPrefixed_refused() {
    // upstream: `spec.managedBy: Invalid value: "invalid custom controller name": must be a domain-prefixed path ...`
    assertThat(refused("invalid custom controller name")).singleElement().satisfies(v -> {
      assertThat(v.field()).isEqualTo("spec.managedBy");
      assertThat(v.rule()).isEqualTo("must be a domain-prefixed path (such as \"acme.io/foo\")");
      assertThat(v.value()).isEqualTo("invalid custom controller name");
    });
  }

  @Test
  void domainPrefixedPath_partsChecked() {
    // IsDomainPrefixedPath: a host and a path are both needed; the host is a DNS-1123 subdomain, the path an HTTP
    // path; each error names the part it is about
    assertThat(refused("/foo")).extracting(Violation::value).containsExactly("/foo");
    assertThat(refused("example.com/")).extracting(Violation::value).containsExactly("example.com/");
    assertThat(refused("Example.com/foo")).singleElement().satisfies(v -> {
      assertThat(v.value()).isEqualTo("Example.com");
      assertThat(v.rule()).startsWith("a lowercase RFC 1123 subdomain");
    });
    assertThat(refused("example.com/a b")).singleElement().satisfies(v -> {
      assertThat(v.value()).isEqualTo("a b");
      assertThat(v.rule()).isEqualTo("Invalid path (regex used for validation is '[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+')");
    });
    assertThat(refused("")).singleElement().satisfies(v -> assertThat(v.rule()).startsWith("Required value"));
    assertThat(job("example.com/a/b~c").build().spec().managedBy()).isEqualTo("example.com/a/b~c");
  }
}
