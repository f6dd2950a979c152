package io.fleetkit.api.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.fleetkit.api.ValidationException;
import io.fleetkit.api.resource.ResourceList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A pod's {@code spec.resourceClaims} and its containers' {@code resources.claims}, checked with upstream's rules
 * ({@code pkg/apis/core/validation/validation.go} {@code validatePodResourceClaims} and
 * {@code validateResourceClaimNames}, commit 000f2605): FleetKit's own cases, named after the rule each breaks
 * (upstream's case table was not located in the stored 889 kB {@code validation_test.go}; see docs/conformance.md).
 */
final class PodResourceClaimsTest {

  private static Container ctr(String name, ContainerResourceClaim... claims) {
    return Container.of(name, "img", ResourceRequirements.NONE.withClaims(List.of(claims)));
  }

  private static Pod.Builder pod() {
    return Pod.builder().namespace("default").name("my-pod");
  }

  private static List<String> violations(Pod.Builder b) {
    ValidationException e = catchThrowableOfType(b::build, ValidationException.class);
    assertThat(e).as("a ValidationException").isNotNull();
    return e.violations().stream().map(v -> v.field() + ": " + v.rule() + (v.value() == null ? "" : " [" + v.value()
        + "]")).toList();
  }

  @Test
  void build_claimReferenceAndTemplateUsedByContainers_accepted() {
    Pod p = pod().resourceClaim(PodResourceClaim.ofClaim("my-claim", "some-claim"))
        .resourceClaim(PodResourceClaim.ofTemplate("my-template", "some-claim-template"))
        .initContainer(ctr("init", ContainerResourceClaim.of("my-claim")))
        .container(ctr("ctr", ContainerResourceClaim.of("my-claim"), new ContainerResourceClaim("my-template", "gpu")))
        .build();
    assertThat(p.spec().resourceClaims()).extracting(PodResourceClaim::name).containsExactly("my-claim",
        "my-template");
    assertThat(p.spec().resourceClaims().get(1).fromTemplate()).isTrue();
    assertThat(p.spec().containers().get(0).resources().claims()).hasSize(2);
  }

  @Test
  void build_podWithoutClaims_hasNone() {
    Pod p = pod().container("ctr", "img", ResourceList.EMPTY).build();
    assertThat(p.spec().resourceClaims()).isEmpty();
    assertThat(p.spec().containers().get(0).resources().claims()).isEmpty();
    assertThat(p.status().resourceClaimStatuses()).isEmpty();
  }

  @Test
  void build_claimNameEmpty_required() {
    assertThat(violations(pod().resourceClaim(PodResourceClaim.ofClaim("", "some-claim")).container(ctr("ctr"))))
        .containsExactly("spec.resourceClaims[0].name: Required value");
  }

  @Test
  void build_claimNameNotADnsLabel_refused() {
    assertThat(violations(pod().resourceClaim(PodResourceClaim.ofClaim("../my-claim", "some-claim"))
        .container(ctr("ctr")))).hasSize(1).first().asString()
        .startsWith("spec.resourceClaims[0].name: a lowercase RFC 1123 label must consist of");
    assertThat(violations(pod().resourceClaim(PodResourceClaim.ofClaim("prefix/my-claim", "some-claim"))
        .container(ctr("ctr")))).hasSize(1).first().asString().startsWith("spec.resourceClaims[0].name: ");
  }

  @Test
  void build_duplicateClaimName_refused() {
    assertThat(violations(pod().resourceClaim(PodResourceClaim.ofClaim("my-claim", "some-claim"))
        .resourceClaim(PodResourceClaim.ofTemplate("my-claim", "some-template")).container(ctr("ctr"))))
        .containsExactly("spec.resourceClaims[1].name: Duplicate value [my-claim]");
  }

  @Test
  void build_noSource_refused() {
    assertThat(violations(pod().resourceClaim(new PodResourceClaim("my-claim", "", "")).container(ctr("ctr"))))
        .containsExactly("spec.resourceClaims[0]: must specify one of: `resourceClaimName`, "
            + "`resourceClaimTemplateName` []");
  }

  @Test
  void build_bothSources_refused() {
    assertThat(violations(pod().resourceClaim(new PodResourceClaim("my-claim", "some-claim", "some-template"))
        .container(ctr("ctr")))).containsExactly("spec.resourceClaims[0]: at most one of `resourceClaimName` or "
            + "`resourceClaimTemplateName` may be specified []");
  }

  @Test
  void build_invalidClaimOrTemplateName_refused() {
    assertThat(violations(pod().resourceClaim(PodResourceClaim.ofClaim("my-claim", "Invalid_Name"))
        .container(ctr("ctr")))).hasSize(1).first().asString().startsWith("spec.resourceClaims[0].resourceClaimName: "
            + "a lowercase RFC 1123 subdomain");
    assertThat(violations(pod().resourceClaim(PodResourceClaim.ofTemplate("my-claim", "Invalid_Name"))
        .container(ctr("ctr")))).hasSize(1).first().asString()
        .startsWith("spec.resourceClaims[0].resourceClaimTemplateName: a lowercase RFC 1123 subdomain");
  }

  @Test
  void build_containerClaimNotInPod_notFoundWithTheNames() {
    assertThat(violations(pod().container(ctr("ctr", ContainerResourceClaim.of("no-such-claim")))))
        .containsExactly("spec.containers[0].resources.claims[0]: Not found: must be one of the names in "
            + "pod.spec.resourceClaims which is empty [no-such-claim]");
    assertThat(violations(pod().resourceClaim(PodResourceClaim.ofClaim("b", "some-claim"))
        .resourceClaim(PodResourceClaim.ofClaim("a", "other-claim"))
        .container(ctr("ctr", ContainerResourceClaim.of("c")))))
        .containsExactly("spec.containers[0].resources.claims[0]: Not found: must be one of the names in "
            + "pod.spec.resourceClaims: a, b [c]");
  }

  @Test
  void build_containerClaimNameEmpty_required() {
    assertThat(violations(pod().resourceClaim(PodResourceClaim.ofClaim("my-claim", "some-claim"))
        .initContainer(ctr("init", ContainerResourceClaim.of(""))).container(ctr("ctr"))))
        .containsExactly("spec.initContainers[0].resources.claims[0]: Required value");
  }

  @Test
  void build_containerClaimTwice_duplicate_butDistinctRequestsAccepted() {
    assertThat(violations(pod().resourceClaim(PodResourceClaim.ofClaim("my-claim", "some-claim"))
        .container(ctr("ctr", ContainerResourceClaim.of("my-claim"), ContainerResourceClaim.of("my-claim")))))
        .containsExactly("spec.containers[0].resources.claims[1]: Duplicate value [my-claim]");
    assertThatCode(() -> pod().resourceClaim(PodResourceClaim.ofClaim("my-claim", "some-claim"))
        .container(ctr("ctr", new ContainerResourceClaim("my-claim", "a"), new ContainerResourceClaim("my-claim", "b"),
            ContainerResourceClaim.of("my-claim"))).build()).doesNotThrowAnyException();
  }

  @Test
  void build_containerClaimRequestNotADnsLabel_refused() {
    assertThat(violations(pod().resourceClaim(PodResourceClaim.ofClaim("my-claim", "some-claim"))
        .container(ctr("ctr", new ContainerResourceClaim("my-claim", "Bad_Request"))))).hasSize(1).first()
        .asString().startsWith("spec.containers[0].resources.claims[0].request: a lowercase RFC 1123 label");
  }

  @Test
  void build_podLevelClaims_forbidden() {
    PodSpec spec = PodSpec.builder().container(ctr("ctr"))
        .resourceClaim(PodResourceClaim.ofClaim("my-claim", "some-claim"))
        .resources(ResourceRequirements.NONE.withClaims(List.of(ContainerResourceClaim.of("my-claim")))).build();
    assertThat(violations(pod().spec(spec))).containsExactly(
        "spec.resources.claims: Forbidden: claims cannot be set for Resources");
  }

  @Test
  void status_resourceClaimName_byEntry() {
    PodStatus s = PodStatus.PENDING.withResourceClaimStatuses(List.of(
        new PodResourceClaimStatus("gpu", "my-pod-gpu-x7k2p"), new PodResourceClaimStatus("none", "")));
    assertThat(s.resourceClaimName("gpu")).isEqualTo("my-pod-gpu-x7k2p");
    assertThat(s.resourceClaimName("none")).isEmpty();
    assertThat(s.resourceClaimName("other")).isNull();
    assertThat(s.withPhase(PodPhase.Running).resourceClaimStatuses()).isEqualTo(s.resourceClaimStatuses());
  }

  @Test
  void compatibilityConstructors_leaveClaimsEmpty() {
    assertThat(new ResourceRequirements(ResourceList.EMPTY, ResourceList.EMPTY, null).claims()).isEmpty();
    PodSpec spec = PodSpec.builder().container(ctr("ctr")).build();
    PodSpec without = new PodSpec(spec.containers(), spec.initContainers(), spec.overhead(), spec.priority(),
        spec.priorityClassName(), spec.preemptionPolicy(), spec.nodeSelector(), spec.affinity(), spec.tolerations(),
        spec.topologySpreadConstraints(), spec.schedulerName(), spec.nodeName(), spec.volumes(),
        spec.restartPolicy(), spec.terminationGracePeriodSeconds(), spec.activeDeadlineSeconds(), spec.hostname(),
        spec.subdomain(), spec.resources(), spec.schedulingGates());
    assertThat(without).isEqualTo(spec);
    assertThat(without.withNodeName("n").resourceClaims()).isEmpty();
    PodSpec with = spec.toBuilder().resourceClaim(PodResourceClaim.ofClaim("c", "claim")).build();
    assertThat(with.withNodeName("n").resourceClaims()).isEqualTo(with.resourceClaims());
  }
}
