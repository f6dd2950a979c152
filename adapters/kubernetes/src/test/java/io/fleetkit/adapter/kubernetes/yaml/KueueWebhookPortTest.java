package io.fleetkit.adapter.kubernetes.yaml;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.Violation;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Ports of Kueue's webhook tables (kubernetes-sigs/kueue, commit ff69552e), run through the YAML loader: the
 * manifest of upstream's object is loaded and the field paths of the problems compared with upstream's {@code
 * wantErr} (upstream ignores details and bad values except where a case sets {@code wantDetail} or {@code
 * wantBadValue}; so does this port). Upstream's flavors without resources ({@code MakeFlavorQuotas("x86").Obj()})
 * are given a {@code cpu} quota of 0: Kueue's CRD requires at least one covered resource and one resource per flavor
 * ({@code MinItems=1}), so an API server refuses the object before the webhook sees it; the webhook rule under test
 * is unchanged. Upstream's {@code Resource("cpu")} without quantities has a zero nominal quota, written {@code "0"}.
 */
final class KueueWebhookPortTest {
  private static final String RG = "spec.resourceGroups";

  /** One case: its upstream name, the manifest, the paths of the expected problems, upstream's detail and value. */
  record Case(String name, String yaml, List<String> wantPaths, @Nullable String wantDetail,
      @Nullable String wantBadValue) {
    @Override
    public String toString() {
      return name;
    }
  }

  private static Case ok(String name, String yaml) {
    return new Case(name, yaml, List.of(), null, null);
  }

  private static Case bad(String name, String yaml, String... paths) {
    return new Case(name, yaml, List.of(paths), null, null);
  }

  private static Case badWith(String name, String yaml, @Nullable String detail, @Nullable String badValue,
      String... paths) {
    return new Case(name, yaml, List.of(paths), detail, badValue);
  }

  private static String cq(String spec) {
    return "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\nmetadata: {name: cluster-queue}\nspec:\n"
        + spec.stripIndent().indent(2);
  }

  private static String oneFlavor(String flavor, String resource, String quota) {
    return "resourceGroups:\n- coveredResources: [\"" + resource + "\"]\n  flavors:\n  - name: " + flavor
        + "\n    resources:\n    - {name: \"" + resource + "\", " + quota + "}\n";
  }

  private static String quota(String path) {
    return RG + "[0].flavors[0].resources[0]." + path;
  }

  /** pkg/webhooks/clusterqueue_webhook_test.go, TestValidateClusterQueue. */
  static Stream<Case> clusterQueue() {
    String fungibility = "flavorFungibility: {whenCanBorrow: %s, whenCanPreempt: %s, preference: %s}\n";
    return Stream.of(
        ok("built-in resources with qualified names", cq(oneFlavor("default", "cpu", "nominalQuota: \"0\""))),
        bad("invalid resource name", cq(oneFlavor("default", "@cpu", "nominalQuota: \"0\"")),
            RG + "[0].coveredResources[0]"),
        ok("admissionChecks defined", cq("admissionChecksStrategy: {admissionChecks: [{name: ac1}]}\n")),
        ok("admissionCheckStrategy defined with a valid flavor", cq(oneFlavor("flavor1", "cpu", "nominalQuota: \"0\"")
            + "admissionChecksStrategy: {admissionChecks: [{name: ac1, onFlavors: [flavor1]}]}\n")),
        badWith("admissionCheckStrategy refers to a flavor that is not in quota",
            cq("admissionChecksStrategy: {admissionChecks: [{name: ac1, onFlavors: [flavor1]}]}\n"),
            null, "flavor1", "spec.admissionChecksStrategy.admissionChecks[0].onFlavors[0]"),
        ok("in cohort", cq("cohortName: prod\n")),
        ok("extended resources with qualified names",
            cq(oneFlavor("default", "example.com/gpu", "nominalQuota: \"0\""))),
        ok("flavor with qualified names", cq(oneFlavor("x86", "cpu", "nominalQuota: \"0\""))),
        bad("flavor quota with negative value", cq(oneFlavor("x86", "cpu", "nominalQuota: \"-1\"")),
            quota("nominalQuota")),
        ok("flavor quota with zero value", cq(oneFlavor("x86", "cpu", "nominalQuota: \"0\""))),
        ok("flavor quota with borrowingLimit 0",
            cq(oneFlavor("x86", "cpu", "nominalQuota: \"1\", borrowingLimit: \"0\"") + "cohortName: cohort\n")),
        bad("flavor quota with negative borrowingLimit",
            cq(oneFlavor("x86", "cpu", "nominalQuota: \"1\", borrowingLimit: \"-1\"") + "cohortName: cohort\n"),
            quota("borrowingLimit")),
        ok("flavor quota with lendingLimit 0",
            cq(oneFlavor("x86", "cpu", "nominalQuota: \"1\", lendingLimit: \"0\"") + "cohortName: cohort\n")),
        bad("flavor quota with negative lendingLimit",
            cq(oneFlavor("x86", "cpu", "nominalQuota: \"1\", lendingLimit: \"-1\"") + "cohortName: cohort\n"),
            quota("lendingLimit")),
        badWith("flavor quota with lendingLimit and empty cohort",
            cq(oneFlavor("x86", "cpu", "nominalQuota: \"1\", lendingLimit: \"1\"")),
            "must be nil when cohort is empty", "1", quota("lendingLimit")),
        bad("flavor quota with lendingLimit greater than nominalQuota",
            cq(oneFlavor("x86", "cpu", "nominalQuota: \"1\", lendingLimit: \"2\"") + "cohortName: cohort\n"),
            quota("lendingLimit")),
        ok("empty queueing strategy is supported", cq("queueingStrategy: \"\"\n")),
        bad("namespaceSelector with invalid labels",
            cq("namespaceSelector: {matchLabels: {\"nospecialchars^=@\": bar}}\n"),
            "spec.namespaceSelector.matchLabels"),
        bad("namespaceSelector with invalid expressions",
            cq("namespaceSelector: {matchExpressions: [{key: key, operator: In}]}\n"),
            "spec.namespaceSelector.matchExpressions[0].values"),
        ok("multiple resource groups", cq("""
            resourceGroups:
            - coveredResources: [cpu, memory]
              flavors:
              - {name: alpha, resources: [{name: cpu, nominalQuota: "0"}, {name: memory, nominalQuota: "0"}]}
              - {name: beta, resources: [{name: cpu, nominalQuota: "0"}, {name: memory, nominalQuota: "0"}]}
            - coveredResources: [example.com/gpu]
              flavors:
              - {name: gamma, resources: [{name: example.com/gpu, nominalQuota: "0"}]}
              - {name: omega, resources: [{name: example.com/gpu, nominalQuota: "0"}]}
            """)),
        bad("resources in a flavor in different order", cq("""
            resourceGroups:
            - coveredResources: [cpu, memory]
              flavors:
              - {name: alpha, resources: [{name: cpu, nominalQuota: "0"}, {name: memory, nominalQuota: "0"}]}
              - {name: beta, resources: [{name: memory, nominalQuota: "0"}, {name: cpu, nominalQuota: "0"}]}
            """), RG + "[0].flavors[1].resources[0].name", RG + "[0].flavors[1].resources[1].name"),
        bad("resource in more than one resource group", cq("""
            resourceGroups:
            - coveredResources: [cpu, memory]
              flavors:
              - {name: alpha, resources: [{name: cpu, nominalQuota: "0"}, {name: memory, nominalQuota: "0"}]}
            - coveredResources: [memory]
              flavors:
              - {name: beta, resources: [{name: memory, nominalQuota: "0"}]}
            """), RG + "[1].coveredResources[0]"),
        bad("flavor in more than one resource group", cq("""
            resourceGroups:
            - coveredResources: [cpu]
              flavors:
              - {name: alpha, resources: [{name: cpu, nominalQuota: "0"}]}
              - {name: beta, resources: [{name: cpu, nominalQuota: "0"}]}
            - coveredResources: [memory]
              flavors:
              - {name: beta, resources: [{name: memory, nominalQuota: "0"}]}
            """), RG + "[1].flavors[0].name"),
        ok("valid preemption with borrowWithinCohort", cq("""
            preemption:
              reclaimWithinCohort: LowerPriority
              borrowWithinCohort: {policy: LowerPriority, maxPriorityThreshold: 10}
            """)),
        ok("existing cluster queue created with older Kueue version that has a nil borrowWithinCohort field",
            cq("preemption: {reclaimWithinCohort: Never}\n")),
        badWith("flavorFungibility preference set but whenCanPreempt != TryNextFlavor",
            cq(fungibility.formatted("TryNextFlavor", "MayStopSearch", "BorrowingOverPreemption")),
            "preference \"BorrowingOverPreemption\" requires both whenCanBorrow and whenCanPreempt to be TryNextFlavor",
            "BorrowingOverPreemption", "spec.flavorFungibility.preference"),
        badWith("flavorFungibility preference set but whenCanBorrow != TryNextFlavor",
            cq(fungibility.formatted("MayStopSearch", "MayStopSearch", "BorrowingOverPreemption")),
            "preference \"BorrowingOverPreemption\" requires both whenCanBorrow and whenCanPreempt to be TryNextFlavor",
            "BorrowingOverPreemption", "spec.flavorFungibility.preference"),
        ok("flavorFungibility preference BorrowingOverPreemption with both TryNextFlavor is valid",
            cq(fungibility.formatted("TryNextFlavor", "TryNextFlavor", "BorrowingOverPreemption"))),
        ok("flavorFungibility preference PreemptionOverBorrowing with both TryNextFlavor is valid",
            cq(fungibility.formatted("TryNextFlavor", "TryNextFlavor", "PreemptionOverBorrowing"))),
        badWith("flavorFungibility preference PreemptionOverBorrowing but whenCanBorrow != TryNextFlavor",
            cq(fungibility.formatted("MayStopSearch", "TryNextFlavor", "PreemptionOverBorrowing")),
            "preference \"PreemptionOverBorrowing\" requires both whenCanBorrow and whenCanPreempt to be TryNextFlavor",
            "PreemptionOverBorrowing", "spec.flavorFungibility.preference"));
  }

  /** A group of {@code flavors} flavors f000.. that each cover {@code resources} resources res000.. at 1. */
  private static String group(int flavors, int resources) {
    StringBuilder covered = new StringBuilder();
    StringBuilder quotas = new StringBuilder();
    for (int j = 0; j < resources; j++) {
      String r = resources == 1 ? "cpu" : "res%03d".formatted(j);
      covered.append(j == 0 ? "" : ", ").append(r);
      quotas.append(j == 0 ? "" : ", ").append("{name: ").append(r).append(", nominalQuota: \"1\"}");
    }
    StringBuilder out = new StringBuilder("resourceGroups:\n- coveredResources: [" + covered + "]\n  flavors:\n");
    for (int i = 0; i < flavors; i++) {
      out.append("  - {name: ").append(flavors == 1 && resources > 1 ? "default" : "f%03d".formatted(i))
          .append(", resources: [").append(quotas).append("]}\n");
    }
    return out.toString();
  }

  /**
   * pkg/webhooks/clusterqueue_webhook_test.go, TestValidateTotalFlavors, TestValidateTotalCoveredResources,
   * TestValidateFlavorResourceCombinations (upstream asserts only whether there is an error).
   */
  static Stream<Case> limits() {
    return Stream.of(
        ok("within limit (10 flavors)", cq(group(10, 1))),
        ok("At limit (256 flavors)", cq(group(256, 1))),
        bad("over limit (257 flavors)", cq(group(257, 1)), RG),
        ok("within limit (10 covered resources)", cq(group(1, 10))),
        ok("At limit (256 covered resources)", cq(group(1, 256))),
        bad("over limit (257 covered resources)", cq(group(1, 257)), RG),
        ok("within limit (1 flavor x 10 resources = 10)", cq(group(1, 10))),
        ok("at limit (8 flavors x 64 resources = 512)", cq(group(8, 64))),
        bad("over limit (9 flavors x 64 resources = 576)", cq(group(9, 64)), RG + "[0]"));
  }

  private static String rf(String spec) {
    return "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ResourceFlavor\nmetadata: {name: resource-flavor}\n"
        + (spec.isEmpty() ? "" : "spec:\n" + spec.stripIndent().indent(2));
  }

  /** pkg/webhooks/resourceflavor_webhook_test.go, TestValidateResourceFlavor. */
  static Stream<Case> resourceFlavor() {
    return Stream.of(
        ok("empty", rf("")),
        ok("valid", rf("nodeLabels: {foo: bar}\nnodeTaints: [{key: spot, value: \"true\", effect: NoSchedule}]\n")),
        bad("invalid label name", rf("nodeLabels: {\"@abc\": foo}\n"), "spec.nodeLabels"),
        bad("invalid label value", rf("nodeLabels: {foo: \"@abc\"}\n"), "spec.nodeLabels"));
  }

  /** pkg/webhooks/cohort_webhook_test.go, TestValidateCohort. */
  static Stream<Case> cohort() {
    return Stream.of(badWith("flavor quota with lendingLimit and empty parent",
        "apiVersion: kueue.x-k8s.io/v1beta2\nkind: Cohort\nmetadata: {name: cohort}\nspec:\n"
            + oneFlavor("x86", "cpu", "nominalQuota: \"1\", lendingLimit: \"1\"").indent(2),
        "must be nil when parent is empty", null, quota("lendingLimit")));
  }

  private static String ac(String spec) {
    return "apiVersion: kueue.x-k8s.io/v1beta2\nkind: AdmissionCheck\nmetadata: {name: foo}\nspec:\n"
        + spec.stripIndent().indent(2);
  }

  private static String ref(String group, String kind, String name) {
    return "controllerName: controller-name\nparameters: {" + String.join(", ", Stream.of(
        group == null ? null : "apiGroup: \"" + group + "\"", kind == null ? null : "kind: \"" + kind + "\"",
        name == null ? null : "name: \"" + name + "\"").filter(x -> x != null).toList()) + "}\n";
  }

  /**
   * test/integration/singlecluster/webhook/core/admissioncheck_test.go, "Defaulting on creating" and "Validate
   * AdmissionCheck on creation" (upstream expects an invalid error; the port names the field; the objects upstream
   * leaves unnamed are named foo, so that the field under test is the only problem).
   */
  static Stream<Case> admissionCheck() {
    return Stream.of(
        ok("All defaults", ac("controllerName: ac-controller\n")),
        bad("Should fail to create AdmissionCheck with no controller name",
            ac("parameters: {apiGroup: ref.api.group, kind: RefKind, name: ref-name}\n"), "spec.controllerName"),
        bad("Should fail to create AdmissionCheck with bad ref api group",
            ac(ref("ref.api.group/Bad", "RefKind", "ref-name")), "spec.parameters.apiGroup"),
        bad("Should fail to create AdmissionCheck with no ref api group",
            ac(ref(null, "RefKind", "ref-name")), "spec.parameters.apiGroup"),
        bad("Should fail to create AdmissionCheck with bad ref kind",
            ac(ref("ref.api.group", "RefKind/Bad", "ref-name")), "spec.parameters.kind"),
        bad("Should fail to create AdmissionCheck with no ref kind",
            ac(ref("ref.api.group", null, "ref-name")), "spec.parameters.kind"),
        bad("Should fail to create AdmissionCheck with bad ref name",
            ac(ref("ref.api.group", "RefKind", "ref-name/Bad")), "spec.parameters.name"),
        bad("Should fail to create AdmissionCheck with no ref name",
            ac(ref("ref.api.group", "RefKind", null)), "spec.parameters.name"),
        ok("Should allow to create AdmissionCheck with no parameters", ac("controllerName: controller-name\n")),
        ok("Should allow to create AdmissionCheck with valid spec",
            ac(ref("ref.api.group", "RefKind", "ref-name"))));
  }

  private static String topology(String name, String... levels) {
    StringBuilder sb = new StringBuilder("apiVersion: kueue.x-k8s.io/v1beta2\nkind: Topology\nmetadata: {name: "
        + name + "}\nspec:\n  levels:");
    sb.append(levels.length == 0 ? " []\n" : "\n");
    for (String l : levels) {
      sb.append("  - nodeLabel: \"").append(l).append("\"\n");
    }
    return sb.toString();
  }

  /** test/integration/singlecluster/tas/tas_test.go, "Topology validations", "Validate Topology on creation". */
  static Stream<Case> topology() {
    String block = "cloud.provider.com/topology-block";
    String rack = "cloud.provider.com/topology-rack";
    String host = "kubernetes.io/hostname";
    return Stream.of(
        ok("valid Topology", topology("valid", host)),
        bad("no levels", topology("no-levels"), "spec.levels"),
        bad("invalid levels", topology("invalid-level", "@invalid"), "spec.levels[0].nodeLabel"),
        bad("non-unique levels", topology("default", block, block), "spec.levels"),
        bad("kubernetes.io/hostname first", topology("default", host, block, rack), "spec.levels"),
        bad("kubernetes.io/hostname middle", topology("default", block, host, rack), "spec.levels"),
        ok("kubernetes.io/hostname last", topology("default", block, rack, host)));
  }

  static Stream<Arguments> cases() {
    return Stream.of(clusterQueue(), limits(), resourceFlavor(), cohort(), admissionCheck(), topology())
        .flatMap(s -> s).map(Arguments::of);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void validate_kueueWebhookCase(Case c) {
    List<Violation> got = new ArrayList<>();
    try {
      KubernetesYaml.parse(c.yaml(), "webhook.yaml");
    } catch (ManifestException e) {
      e.problems().forEach(p -> got.add(p.violation()));
    }

    assertThat(got).as("%s", got).extracting(Violation::field).containsExactlyElementsOf(c.wantPaths());
    if (c.wantDetail() != null) {
      assertThat(got.get(0).rule()).isEqualTo(c.wantDetail());
    }
    if (c.wantBadValue() != null) {
      assertThat(got.get(0).value()).isEqualTo(c.wantBadValue());
    }
  }
}
