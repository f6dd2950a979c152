package io.fleetkit.api.resource.dra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.fleetkit.api.ValidationException;
import io.fleetkit.api.Violation;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.meta.OwnerReference;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Ported from kubernetes {@code pkg/apis/resource/validation/validation_resourceclaim_test.go} (commit 045b4933),
 * TestValidateClaim: the cases whose fields FleetKit models, each with upstream's field paths and messages, in
 * upstream's order. Claim configuration ({@code spec.devices.config}) is not modelled, so upstream's config errors
 * cannot arise; the remaining expected errors of "invalid-request" and "invalid-spec" are asserted as listed.
 */
final class ResourceClaimValidationTest {
  private static final String GOOD = "foo";
  private static final String BAD = "!@#$%^";
  private static final String LABEL_MESSAGE = "a lowercase RFC 1123 label must consist of lower case alphanumeric "
      + "characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', "
      + "regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
  private static final String SUBDOMAIN_MESSAGE = "a lowercase RFC 1123 subdomain must consist of lower case "
      + "alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. "
      + "'example.com', regex used for validation is "
      + "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

  private static ResourceClaimSpec validSpec() {
    return ResourceClaimSpec.of(DeviceRequest.of(GOOD, GOOD, 1));
  }

  private static List<Violation> violations(ObjectMeta meta, ResourceClaimSpec spec) {
    ValidationException e = catchThrowableOfType(ValidationException.class, () -> ResourceClaim.of(meta, spec));
    assertThat(e).as("expected a ValidationException").isNotNull();
    return e.violations();
  }

  private static List<String> rendered(List<Violation> vs) {
    return vs.stream().map(v -> v.field() + " " + v.rule() + (v.value() == null ? "" : " [" + v.value() + "]"))
        .toList();
  }

  @Test
  void goodClaim_accepted() {
    assertThatCode(() -> ResourceClaim.of(ObjectMeta.of("ns", GOOD), validSpec())).doesNotThrowAnyException();
  }

  @Test
  void missingName_required() {
    assertThat(rendered(violations(ObjectMeta.of("ns", ""), validSpec())))
        .containsExactly("metadata.name Required value: name or generateName is required");
  }

  @Test
  void badName_subdomainMessage() {
    assertThat(rendered(violations(ObjectMeta.of("ns", BAD), validSpec())))
        .containsExactly("metadata.name " + SUBDOMAIN_MESSAGE + " [" + BAD + "]");
  }

  @Test
  void badLabels_labelValueMessage() {
    ObjectMeta meta = ObjectMeta.of("ns", GOOD).withLabels(Map.of("hello-world", "spaces not allowed"));
    List<Violation> vs = violations(meta, validSpec());
    assertThat(vs).hasSize(1);
    assertThat(vs.get(0).field()).isEqualTo("metadata.labels");
    assertThat(vs.get(0).rule()).startsWith("a valid label must be an empty string or consist of alphanumeric");
  }

  @Test
  void goodLabels_accepted() {
    ObjectMeta meta = ObjectMeta.of("ns", GOOD).withLabels(Map.of("apps.kubernetes.io/name", "test"));
    assertThatCode(() -> ResourceClaim.of(meta, validSpec())).doesNotThrowAnyException();
  }

  /** uid, resource-version, generation, creation-timestamp, owner-references, finalizers, good-annotations. */
  @Test
  void metadataFields_accepted() {
    ObjectMeta base = ObjectMeta.of("ns", GOOD);
    List<ObjectMeta> metas = List.of(
        base.toBuilder().uid("ac051fac-2ead-46d9-b8b4-4e0fbeb7455d").build(),
        base.toBuilder().resourceVersion("1").build(),
        base.toBuilder().generation(100).build(),
        base.toBuilder().creationTimestamp(java.time.Instant.parse("2024-01-01T00:00:00Z")).build(),
        base.toBuilder().ownerReference(new OwnerReference("v1", "pod", "foo",
            "ac051fac-2ead-46d9-b8b4-4e0fbeb7455d", false, false)).build(),
        base.toBuilder().finalizer("example.com/foo").build(),
        base.toBuilder().annotation("foo", "bar").build());
    for (ObjectMeta m : metas) {
      assertThatCode(() -> ResourceClaim.of(m, validSpec())).as(m.toString()).doesNotThrowAnyException();
    }
  }

  @Test
  void badClassName_subdomainMessage() {
    ResourceClaimSpec spec = ResourceClaimSpec.of(DeviceRequest.of(GOOD, BAD, 1));
    assertThat(rendered(violations(ObjectMeta.of("ns", GOOD), spec)))
        .containsExactly("spec.devices.requests[0].exactly.deviceClassName " + SUBDOMAIN_MESSAGE + " [" + BAD + "]");
  }

  @Test
  void missingClassName_required() {
    ResourceClaimSpec spec = ResourceClaimSpec.of(DeviceRequest.of(GOOD, "", 1));
    assertThat(rendered(violations(ObjectMeta.of("ns", GOOD), spec)))
        .containsExactly("spec.devices.requests[0].exactly.deviceClassName Required value");
  }

  private static List<DeviceConstraint> badConstraints(int total) {
    List<DeviceConstraint> cs = new ArrayList<>();
    cs.add(new DeviceConstraint(List.of(GOOD, BAD), "missing-domain"));
    cs.add(new DeviceConstraint(List.of(), ""));
    cs.add(new DeviceConstraint(List.of(), null));
    while (cs.size() < total) {
      cs.add(DeviceConstraint.matchAttribute("foo/bar"));
    }
    return cs;
  }

  private static List<DeviceRequest> requests(int total) {
    List<DeviceRequest> rs = new ArrayList<>();
    rs.add(DeviceRequest.of(GOOD, GOOD, 1));
    for (int i = 1; i < total; i++) {
      rs.add(DeviceRequest.of(GOOD + i, GOOD, 1));
    }
    return rs;
  }

  private static List<String> constraintErrors() {
    return List.of(
        "spec.devices.constraints[0].requests[1] " + LABEL_MESSAGE + " [" + BAD + "]",
        "spec.devices.constraints[0].requests[1] " + DraChecks.NOT_A_REQUEST + " [" + BAD + "]",
        "spec.devices.constraints[0].matchAttribute " + DraChecks.C_IDENTIFIER_MESSAGE + " [missing-domain]",
        "spec.devices.constraints[0].matchAttribute must include a domain [missing-domain]",
        "spec.devices.constraints[1].matchAttribute Required value: name required",
        "spec.devices.constraints[2].matchAttribute Required value");
  }

  @Test
  void invalidRequest_tooManyRequestsAndConstraints_upstreamErrorsInOrder() {
    ResourceClaimSpec spec = ResourceClaimSpec.of(requests(DraChecks.MAX_REQUESTS + 1),
        badConstraints(DraChecks.MAX_CONSTRAINTS + 1));
    List<String> expected = new ArrayList<>();
    expected.add("spec.devices.requests Too many: must have at most 32 items [33]");
    expected.addAll(constraintErrors());
    expected.add("spec.devices.constraints Too many: must have at most 32 items [33]");
    assertThat(rendered(violations(ObjectMeta.of("ns", GOOD), spec))).containsExactlyElementsOf(expected);
  }

  @Test
  void validRequest_maximumRequestsAndConstraints_accepted() {
    List<DeviceConstraint> cs = new ArrayList<>();
    for (int i = 0; i < DraChecks.MAX_CONSTRAINTS; i++) {
      cs.add(DeviceConstraint.matchAttribute("foo/bar"));
    }
    ResourceClaimSpec spec = ResourceClaimSpec.of(requests(DraChecks.MAX_REQUESTS), cs);
    assertThatCode(() -> ResourceClaim.of(ObjectMeta.of("ns", GOOD), spec)).doesNotThrowAnyException();
  }

  @Test
  void invalidSpec_badConstraints_upstreamErrorsInOrder() {
    ResourceClaimSpec spec = ResourceClaimSpec.of(requests(1), badConstraints(3));
    assertThat(rendered(violations(ObjectMeta.of("ns", GOOD), spec))).containsExactlyElementsOf(constraintErrors());
  }

  // FleetKit's own cases for the request rules of validation.go.

  @Test
  void exactCount_zero_mustBeGreaterThanZero() {
    ResourceClaimSpec spec = ResourceClaimSpec.of(DeviceRequest.of(GOOD, GOOD, 0));
    assertThat(rendered(violations(ObjectMeta.of("ns", GOOD), spec)))
        .containsExactly("spec.devices.requests[0].exactly.count must be greater than zero [0]");
  }

  @Test
  void all_withCount_mustNotBeSpecified() {
    ResourceClaimSpec spec = ResourceClaimSpec.of(new DeviceRequest(GOOD,
        new ExactDeviceRequest(GOOD, List.of(), DeviceAllocationMode.ALL, 2)));
    assertThat(rendered(violations(ObjectMeta.of("ns", GOOD), spec)))
        .containsExactly("spec.devices.requests[0].exactly.count must not be specified when allocationMode is 'All' [2]");
  }

  @Test
  void duplicateAndBadRequestNames_reported() {
    ResourceClaimSpec spec = ResourceClaimSpec.of(DeviceRequest.of(GOOD, GOOD, 1), DeviceRequest.of(GOOD, GOOD, 1),
        DeviceRequest.of("Bad_Name", GOOD, 1));
    assertThat(rendered(violations(ObjectMeta.of("ns", GOOD), spec))).containsExactly(
        "spec.devices.requests[1].name Duplicate value [foo]",
        "spec.devices.requests[2].name " + LABEL_MESSAGE + " [Bad_Name]");
  }

  @Test
  void selector_outsideSubset_refusedOnItsField() {
    ResourceClaimSpec spec = ResourceClaimSpec.of(new DeviceRequest(GOOD, ExactDeviceRequest.count(GOOD, 1)
        .withSelectors(DeviceSelector.cel("device.attributes[\"a.example.com\"].names.exists(x, x > 0)"))));
    List<Violation> vs = violations(ObjectMeta.of("ns", GOOD), spec);
    assertThat(vs).hasSize(1);
    assertThat(vs.get(0).field()).isEqualTo("spec.devices.requests[0].exactly.selectors[0].cel.expression");
    assertThat(vs.get(0).rule()).contains("unsupported construct function 'exists'");
  }

  @Test
  void allocationInStatus_unknownRequestAndReservedWithoutAllocation_refused() {
    ResourceClaim claim = ResourceClaim.of(ObjectMeta.of("ns", GOOD), validSpec());
    AllocationResult bad = new AllocationResult(
        List.of(new DeviceRequestAllocationResult("other", "driver-a", "pool-1", "device-1")), null);
    ValidationException e = catchThrowableOfType(ValidationException.class,
        () -> claim.withStatus(ResourceClaimStatus.INITIAL.withAllocation(bad)));
    assertThat(rendered(e.violations())).containsExactly(
        "status.allocation.devices.results[0].request " + DraChecks.NOT_A_REQUEST + " [other]");
    ValidationException e2 = catchThrowableOfType(ValidationException.class, () -> claim.withStatus(
        ResourceClaimStatus.INITIAL.withReservedFor(List.of(ResourceClaimConsumerReference.pod("p", "u1")))));
    assertThat(rendered(e2.violations())).containsExactly(
        "status.reservedFor Forbidden: may not be specified when `allocated` is not set");
  }

  @Test
  void template_sameSpecRules_underSpecSpec() {
    ResourceClaimTemplateSpec spec = ResourceClaimTemplateSpec.of(ResourceClaimSpec.of(DeviceRequest.of(GOOD, "", 1)));
    ValidationException e = catchThrowableOfType(ValidationException.class,
        () -> new ResourceClaimTemplate(ObjectMeta.of("ns", GOOD), spec));
    assertThat(rendered(e.violations())).containsExactly("spec.spec.devices.requests[0].exactly.deviceClassName Required value");
  }

  @Test
  void slice_nodeSelectionAndDevices_checked() {
    ValidationException e = catchThrowableOfType(ValidationException.class, () -> ResourceSlice.of("s",
        ResourceSliceSpec.builder("driver-a", new ResourcePool("pool-1", 1, 0))
            .device(Device.of("d")).device(Device.of("d")).build()));
    assertThat(rendered(e.violations())).containsExactly(
        "spec.pool.resourceSliceCount must be greater than zero [0]",
        "spec Required value: exactly one of `nodeName`, `nodeSelector`, `allNodes`, `perDeviceNodeSelection` is required",
        "spec.devices[1].name Duplicate value [d]");
  }

  @Test
  void deviceClass_badSelector_refused() {
    ValidationException e = catchThrowableOfType(ValidationException.class,
        () -> DeviceClass.of("gpu", DeviceSelector.cel("device.driver == ")));
    assertThat(e.violations()).singleElement().satisfies(v -> {
      assertThat(v.field()).isEqualTo("spec.selectors[0].cel.expression");
      assertThat(v.rule()).contains("Syntax error");
    });
  }

  // ---- prioritized lists and admin access: the rules of validation.go's validateDeviceRequest,
  // validateDeviceSubRequest and validateRequestNameRef (FleetKit's own cases) ----

  private static DeviceRequest prioritized() {
    return DeviceRequest.firstAvailable(GOOD, DeviceSubRequest.count("small", GOOD, 1),
        DeviceSubRequest.all("any", GOOD));
  }

  @Test
  void prioritizedList_withSubrequestReferences_accepted() {
    ResourceClaimSpec spec = ResourceClaimSpec.of(List.of(prioritized(), DeviceRequest.of("other", GOOD, 1)),
        List.of(new DeviceConstraint(List.of(GOOD + "/small", "other"), "example.com/numa"),
            new DeviceConstraint(List.of(GOOD), "example.com/numa")));
    ResourceClaim claim = ResourceClaim.of(ObjectMeta.of("ns", GOOD), spec);
    AllocationResult a = new AllocationResult(List.of(
        new DeviceRequestAllocationResult(GOOD + "/small", "driver-a", "pool-1", "device-1"),
        new DeviceRequestAllocationResult("other", "driver-a", "pool-1", "device-2", true)), null);
    assertThatCode(() -> claim.withStatus(ResourceClaimStatus.INITIAL.withAllocation(a))).doesNotThrowAnyException();
    assertThat(claim.spec().devices().requests().get(0).prioritized()).isTrue();
  }

  @Test
  void request_neitherOrBothKinds_refused() {
    DeviceRequest neither = new DeviceRequest(GOOD, null, List.of());
    assertThat(rendered(violations(ObjectMeta.of("ns", GOOD), ResourceClaimSpec.of(neither)))).containsExactly(
        "spec.devices.requests[0] Required value: exactly one of `exactly` or `firstAvailable` is required");
    DeviceRequest both = new DeviceRequest(GOOD, ExactDeviceRequest.count(GOOD, 1),
        List.of(DeviceSubRequest.count("a", GOOD, 1)));
    assertThat(rendered(violations(ObjectMeta.of("ns", GOOD), ResourceClaimSpec.of(both)))).containsExactly(
        "spec.devices.requests[0] Invalid value: null: exactly one of `exactly` or `firstAvailable` is required, "
            + "but multiple fields are set");
  }

  @Test
  void subrequests_namesClassesCountsAndLimit_checked() {
    List<DeviceSubRequest> subs = new ArrayList<>();
    subs.add(DeviceSubRequest.count("a", GOOD, 1));
    subs.add(DeviceSubRequest.count("a", "", 0));
    subs.add(new DeviceSubRequest(BAD, GOOD, List.of(), DeviceAllocationMode.ALL, 2));
    for (int i = 3; i < DeviceRequest.MAX_FIRST_AVAILABLE + 1; i++) {
      subs.add(DeviceSubRequest.count("s" + i, GOOD, 1));
    }
    DeviceRequest r = new DeviceRequest(GOOD, null, subs);
    assertThat(rendered(violations(ObjectMeta.of("ns", GOOD), ResourceClaimSpec.of(r)))).containsExactly(
        "spec.devices.requests[0].firstAvailable Too many: must have at most 8 items [9]",
        "spec.devices.requests[0].firstAvailable[1].name Duplicate value [a]",
        "spec.devices.requests[0].firstAvailable[1].deviceClassName Required value",
        "spec.devices.requests[0].firstAvailable[1].count must be greater than zero [0]",
        "spec.devices.requests[0].firstAvailable[2].name " + LABEL_MESSAGE + " [" + BAD + "]",
        "spec.devices.requests[0].firstAvailable[2].count must not be specified when allocationMode is 'All' [2]");
  }

  @Test
  void constraintReferences_unknownSubrequestOrTooManySegments_refused() {
    ResourceClaimSpec spec = ResourceClaimSpec.of(List.of(prioritized()), List.of(
        new DeviceConstraint(List.of(GOOD + "/big", GOOD + "/small/x"), "example.com/numa")));
    assertThat(rendered(violations(ObjectMeta.of("ns", GOOD), spec))).containsExactly(
        "spec.devices.constraints[0].requests[0] " + DraChecks.NOT_A_REQUEST + " [foo/big]",
        "spec.devices.constraints[0].requests[1] " + DraChecks.NOT_A_REQUEST + " [foo/small/x]");
  }

  @Test
  void adminAccess_keptOnRequestAndResult() {
    ExactDeviceRequest e = ExactDeviceRequest.all(GOOD).withAdminAccess(true);
    assertThat(e.adminAccess()).isTrue();
    assertThat(e.withSelectors(DeviceSelector.cel("true")).adminAccess()).isTrue();
    assertThat(ExactDeviceRequest.count(GOOD, 1).adminAccess()).isFalse();
    assertThat(new DeviceRequestAllocationResult("r", "d", "p", "x").adminAccess()).isFalse();
  }
}
