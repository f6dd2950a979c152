package io.fleetkit.adapter.kubernetes.yaml;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.resource.dra.CounterSet;
import io.fleetkit.api.resource.dra.DeviceAllocationMode;
import io.fleetkit.api.resource.dra.DeviceAttribute;
import io.fleetkit.api.resource.dra.DeviceClass;
import io.fleetkit.api.resource.dra.DeviceTaintRule;
import io.fleetkit.api.resource.dra.DeviceTaintRuleStatus;
import io.fleetkit.api.resource.dra.DeviceTaintSelector;
import io.fleetkit.api.resource.dra.DeviceConstraint;
import io.fleetkit.api.resource.dra.DeviceCounterConsumption;
import io.fleetkit.api.resource.dra.DeviceRequestAllocationResult;
import io.fleetkit.api.resource.dra.DeviceSubRequest;
import io.fleetkit.api.resource.dra.DeviceTaint;
import io.fleetkit.api.resource.dra.DeviceTaintEffect;
import io.fleetkit.api.resource.dra.DeviceToleration;
import io.fleetkit.api.resource.dra.ResourceClaim;
import io.fleetkit.api.resource.dra.ResourceClaimConsumerReference;
import io.fleetkit.api.resource.dra.ResourceClaimTemplate;
import io.fleetkit.api.resource.dra.ResourceSlice;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The {@code resource.k8s.io/v1} kinds as {@code kubectl get -o yaml} prints them (fixtures under {@code roundtrip/}
 * from kubernetes-sigs/dra-example-driver, see each file): what is read, Kubernetes' defaults applied and printed, and
 * every broken rule or unmodelled field reported with the object, the field and the rule.
 */
final class DraYamlTest {

  private static String problems(String yaml) {
    try {
      KubernetesYaml.parse(yaml, "dra.yaml");
    } catch (ManifestException e) {
      return e.problems().toString();
    }
    throw new AssertionError("no problem reported for " + yaml);
  }

  @Test
  void resourceSlice_exampleDriverSlice_readWithAttributesCapacityAndPool() {
    List<ResourceSlice> slices = KubernetesYaml.parse(RoundTripTest.resource("roundtrip/resourceslice.yaml"),
        "resourceslice.yaml").ofType(ResourceSlice.class);
    ResourceSlice gpu = slices.get(0);
    assertThat(gpu.spec().driver()).isEqualTo("gpu.example.com");
    assertThat(gpu.spec().nodeName()).isEqualTo("dra-example-driver-cluster-worker");
    assertThat(gpu.spec().pool().generation()).isZero();
    assertThat(gpu.spec().pool().resourceSliceCount()).isEqualTo(1);
    assertThat(gpu.spec().devices()).hasSize(2);
    var d = gpu.spec().devices().get(1);
    assertThat(d.name()).isEqualTo("gpu-1");
    assertThat(d.attributes()).containsEntry("index", DeviceAttribute.ofInt(1))
        .containsEntry("driverVersion", DeviceAttribute.ofVersion("1.0.0"))
        .containsEntry("model", DeviceAttribute.ofString("LATEST-GPU-MODEL"));
    assertThat(d.capacity()).containsExactly(Map.entry("memory", Quantity.parse("80Gi")));
    assertThat(slices.get(1).spec().nodeSelector()).isNotNull();
    assertThat(slices.get(1).spec().devices().get(0).attributes())
        .containsEntry("healthy", DeviceAttribute.ofBool(true));
    assertThat(slices.get(2).spec().allNodes()).isTrue();
    assertThat(slices.get(2).spec().devices()).isEmpty();
  }

  @Test
  void resourceClaim_allocatedClaim_readWithStatusAndDefaultsPrinted() {
    String file = "roundtrip/resourceclaim.yaml";
    List<ResourceClaim> claims = KubernetesYaml.parse(RoundTripTest.resource(file), file).ofType(ResourceClaim.class);
    ResourceClaim c = claims.get(0);
    assertThat(c.allocated()).isTrue();
    assertThat(c.status().allocation().devices()).containsExactly(new DeviceRequestAllocationResult("gpu",
        "gpu.example.com", "dra-example-driver-cluster-worker", "gpu-0"));
    assertThat(c.status().allocation().nodeSelector().nodeSelectorTerms().get(0).matchFields().get(0).values())
        .containsExactly("dra-example-driver-cluster-worker");
    assertThat(c.status().reservedFor()).containsExactly(
        ResourceClaimConsumerReference.pod("pod0", "2d1e4a6b-07f4-4a35-8d6e-6f3b0c9e4d21"));
    ResourceClaim all = claims.get(1);
    assertThat(all.allocated()).isFalse();
    assertThat(all.spec().devices().requests().get(0).exactly().allocationMode()).isEqualTo(DeviceAllocationMode.ALL);
    assertThat(all.spec().devices().requests().get(0).exactly().count()).isZero();
    assertThat(all.spec().devices().constraints())
        .containsExactly(DeviceConstraint.matchAttribute("gpu.example.com/driverVersion"));
    // An ExactCount request without count asks for one device; both defaults are printed, as kubectl does.
    String minimal = """
        apiVersion: resource.k8s.io/v1
        kind: ResourceClaim
        metadata: {name: one-gpu}
        spec:
          devices:
            requests:
            - name: gpu
              exactly: {deviceClassName: gpu.example.com}
        """;
    ResourceClaim one = KubernetesYaml.parse(minimal, "claim.yaml").ofType(ResourceClaim.class).get(0);
    assertThat(one.spec().devices().requests().get(0).exactly().count()).isEqualTo(1);
    assertThat(one.metadata().namespace()).isEqualTo("default");
    assertThat(KubernetesYaml.dump(List.of(one))).contains("allocationMode: \"ExactCount\"").contains("count: 1")
        .doesNotContain("status");
  }

  @Test
  void prioritizedListsAndAdminAccess_readAndResultsNameTheAlternative() {
    String file = "roundtrip/resourceclaim.yaml";
    ResourceClaim c = KubernetesYaml.parse(RoundTripTest.resource(file), file).ofType(ResourceClaim.class).get(2);
    var gpu = c.spec().devices().requests().get(0);
    assertThat(gpu.exactly()).isNull();
    assertThat(gpu.firstAvailable()).extracting(DeviceSubRequest::name).containsExactly("latest-gpu", "older-gpu");
    assertThat(gpu.firstAvailable().get(1).count()).isEqualTo(1);
    assertThat(c.spec().devices().requests().get(1).exactly().adminAccess()).isTrue();
    assertThat(c.status().allocation().devices()).containsExactly(
        new DeviceRequestAllocationResult("gpu/older-gpu", "gpu.dra-example-driver.sigs.k8s.io", "kind-worker",
            "gpu-1"),
        new DeviceRequestAllocationResult("monitor", "gpu.dra-example-driver.sigs.k8s.io", "kind-worker", "gpu-0",
            true));
    String t = "roundtrip/resourceclaimtemplate.yaml";
    List<ResourceClaimTemplate> ts = KubernetesYaml.parse(RoundTripTest.resource(t), t)
        .ofType(ResourceClaimTemplate.class);
    assertThat(ts.get(2).spec().spec().devices().requests().get(0).firstAvailable()).hasSize(3)
        .allSatisfy(s -> assertThat(s.count()).isEqualTo(1));
    var admin = ts.get(3).spec().spec().devices().requests().get(0).exactly();
    assertThat(admin.adminAccess()).isTrue();
    assertThat(admin.allocationMode()).isEqualTo(DeviceAllocationMode.ALL);
    // Both of exactly and firstAvailable, or neither, are refused with the claim's rule.
    assertThat(problems(CLAIM + "    requests:\n    - name: gpu\n      exactly: {deviceClassName: gpu}\n"
        + "      firstAvailable:\n      - {name: a, deviceClassName: gpu}\n"))
        .contains("spec.devices.requests[0]", "but multiple fields are set");
    assertThat(problems(CLAIM + "    requests:\n    - name: gpu\n      firstAvailable:\n      - {name: a,"
        + " deviceClassName: gpu}\n      - {name: a, deviceClassName: gpu, count: 0, allocationMode: All}\n"
        + "    constraints:\n    - {requests: [gpu/b], matchAttribute: example.com/numa}\n"))
        .contains("spec.devices.requests[0].firstAvailable[1].name", "Duplicate value")
        .contains("spec.devices.constraints[0].requests[0]", "name of a request and a subrequest");
  }

  @Test
  void taintsAndTolerations_readWrittenAndValidated() {
    List<ResourceSlice> slices = KubernetesYaml.parse(RoundTripTest.resource("roundtrip/resourceslice.yaml"),
        "resourceslice.yaml").ofType(ResourceSlice.class);
    var devices = slices.get(3).spec().devices();
    assertThat(devices.get(0).taints()).containsExactly(new DeviceTaint("gpu.example.com/unhealthy", "ecc-errors",
        DeviceTaintEffect.NO_EXECUTE, Instant.parse("2025-03-04T10:00:00Z")));
    assertThat(devices.get(1).taints()).containsExactly(DeviceTaint.of("example.com/maintenance", "",
        DeviceTaintEffect.NO_SCHEDULE));
    assertThat(devices.get(2).taints()).extracting(DeviceTaint::effect).containsExactly(DeviceTaintEffect.NONE);
    assertThat(KubernetesYaml.dump(List.of(slices.get(3)))).contains("effect: \"NoExecute\"")
        .contains("timeAdded: \"2025-03-04T10:00:00Z\"");

    String file = "roundtrip/resourceclaim.yaml";
    ResourceClaim c = KubernetesYaml.parse(RoundTripTest.resource(file), file).ofType(ResourceClaim.class).get(3);
    DeviceToleration maintenance = DeviceToleration.exists("example.com/maintenance", DeviceTaintEffect.NO_SCHEDULE);
    DeviceToleration unhealthy = DeviceToleration.equal("gpu.example.com/unhealthy", "ecc-errors",
        DeviceTaintEffect.NO_EXECUTE).withTolerationSeconds(300L);
    assertThat(c.spec().devices().requests().get(0).exactly().tolerations()).containsExactly(maintenance, unhealthy);
    assertThat(c.spec().devices().requests().get(1).firstAvailable().get(0).tolerations())
        .containsExactly(DeviceToleration.exists("", null));
    assertThat(c.status().allocation().devices().get(0).tolerations()).containsExactly(maintenance, unhealthy);
    // An unset operator is Equal (Kubernetes' default), and is printed.
    ResourceClaim defaulted = KubernetesYaml.parse(CLAIM.replace("name: bad", "name: ok") + "    requests:\n"
        + "    - name: gpu\n      exactly:\n        deviceClassName: gpu\n        tolerations: [{key: k, value: v}]\n",
        "claim.yaml").ofType(ResourceClaim.class).get(0);
    assertThat(defaulted.spec().devices().requests().get(0).exactly().tolerations())
        .containsExactly(DeviceToleration.equal("k", "v", null));
    assertThat(KubernetesYaml.dump(List.of(defaulted))).contains("operator: \"Equal\"");

    String req = "    requests:\n    - name: gpu\n      exactly:\n        deviceClassName: gpu\n";
    assertThat(problems(CLAIM + req + "        tolerations: [{key: k, operator: Exists, value: v}]\n"))
        .contains("ResourceClaim ml/bad", "spec.devices.requests[0].exactly.tolerations[0].value",
            "must be empty for operator `Exists`");
    assertThat(problems(CLAIM + req + "        tolerations: [{key: k, operator: Gt, value: '1'}]\n"))
        .contains("spec.devices.requests[0].exactly.tolerations[0].operator", "Unsupported value: \"Gt\"");
    assertThat(problems(CLAIM + req + "        tolerations: [{key: k, operator: Exists, effect: PreferNoSchedule}]\n"))
        .contains("spec.devices.requests[0].exactly.tolerations[0].effect", "Unsupported value");
    assertThat(problems(CLAIM + "    requests:\n    - name: gpu\n      firstAvailable:\n      - {name: a,"
        + " deviceClassName: gpu, tolerations: [{key: 'bad key', operator: Exists}]}\n"))
        .contains("spec.devices.requests[0].firstAvailable[0].tolerations[0].key");
    String slice = """
        apiVersion: resource.k8s.io/v1
        kind: ResourceSlice
        metadata: {name: s}
        spec:
          driver: gpu.example.com
          nodeName: n1
          pool: {name: p, generation: 1, resourceSliceCount: 1}
          devices:
          - name: gpu-0
        """;
    assertThat(problems(slice + "    taints: [{key: k}]\n"))
        .contains("ResourceSlice s", "spec.devices[0].taints[0].effect", "is required");
    assertThat(problems(slice + "    taints: [{key: k, effect: PreferNoSchedule}]\n"))
        .contains("spec.devices[0].taints[0].effect", "Unsupported value: \"PreferNoSchedule\"");
    assertThat(problems(slice + "    taints: [{effect: NoSchedule}]\n"))
        .contains("spec.devices[0].taints[0].key");
  }

  @Test
  void partitionableDevices_countersAndPerDeviceNodeSelection_readAndValidated() {
    List<ResourceSlice> slices = KubernetesYaml.parse(RoundTripTest.resource("roundtrip/resourceslice.yaml"),
        "resourceslice.yaml").ofType(ResourceSlice.class);
    ResourceSlice counters = slices.get(4);
    assertThat(counters.spec().perDeviceNodeSelection()).isTrue();
    assertThat(counters.spec().sharedCounters()).containsExactly(new CounterSet("gpu-0-counters",
        Map.of("memory", Quantity.parse("80Gi"), "multiprocessors", Quantity.parse("98"))));
    var devices = slices.get(5).spec().devices();
    assertThat(devices.get(0).consumesCounters()).containsExactly(new DeviceCounterConsumption("gpu-0-counters",
        Map.of("memory", Quantity.parse("40Gi"), "multiprocessors", Quantity.parse("49"))));
    assertThat(devices.get(0).nodeName()).isEqualTo("gpu-node-1");
    assertThat(devices.get(1).nodeSelector().nodeSelectorTerms().get(0).matchExpressions().get(0).key())
        .isEqualTo("example.com/gpu-rack");
    assertThat(devices.get(2).allNodes()).isTrue();
    assertThat(KubernetesYaml.dump(List.of(slices.get(5)))).contains("perDeviceNodeSelection: true")
        .contains("counterSet: \"gpu-0-counters\"");

    String head = """
        apiVersion: resource.k8s.io/v1
        kind: ResourceSlice
        metadata: {name: s}
        spec:
          driver: gpu.example.com
          pool: {name: p, generation: 1, resourceSliceCount: 1}
        """;
    assertThat(problems(head + "  nodeName: n1\n  devices:\n  - name: a\n    nodeName: n1\n"))
        .contains("ResourceSlice s", "spec.devices[0]", "can only be set if `perDeviceNodeSelection` is set");
    assertThat(problems(head + "  perDeviceNodeSelection: true\n  devices:\n  - name: a\n"))
        .contains("spec.devices[0]", "exactly one of `nodeName`, `nodeSelector`, or `allNodes` is required");
    assertThat(problems(head + "  nodeName: n1\n  perDeviceNodeSelection: true\n"))
        .contains("{`nodeName`, `perDeviceNodeSelection`}", "multiple fields are set");
    assertThat(problems(head + "  nodeName: n1\n  sharedCounters: [{name: c, counters: {mem: {value: 1Gi}}}]\n"
        + "  devices:\n  - name: a\n"))
        .contains("only one of `sharedCounters` or `devices` is allowed");
    assertThat(problems(head + "  nodeName: n1\n  sharedCounters: [{name: c}]\n"))
        .contains("spec.sharedCounters[0].counters", "Required value");
    assertThat(problems(head + "  nodeName: n1\n  sharedCounters: [{name: c, counters: {mem: {value: lots}}}]\n"))
        .contains("spec.sharedCounters[0].counters[mem].value", "must be a quantity");
    assertThat(problems(head + "  nodeName: n1\n  devices:\n  - name: a\n    consumesCounters: [{counterSet: c,"
        + " counters: {mem: {value: 1Gi}}}, {counterSet: c, counters: {mem: {value: 1Gi}}}]\n"))
        .contains("spec.devices[0].consumesCounters[1]", "Duplicate value");
  }

  @Test
  void template_metadataAndClaimSpec_read() {
    String file = "roundtrip/resourceclaimtemplate.yaml";
    List<ResourceClaimTemplate> ts = KubernetesYaml.parse(RoundTripTest.resource(file), file)
        .ofType(ResourceClaimTemplate.class);
    assertThat(ts.get(0).spec().spec().devices().requests().get(0).exactly().selectors()).hasSize(2);
    assertThat(ts.get(1).spec().labels()).containsExactly(Map.entry("app", "inference"));
    assertThat(ts.get(1).spec().annotations()).containsExactly(Map.entry("example.com/owner", "ml-team"));
    assertThat(ts.get(1).spec().spec().devices().constraints().get(0).requests()).containsExactly("gpus");
  }

  @Test
  void deviceClass_selectorsRead() {
    List<DeviceClass> cs = KubernetesYaml.parse(RoundTripTest.resource("roundtrip/deviceclass.yaml"), "dc.yaml")
        .ofType(DeviceClass.class);
    assertThat(cs.get(0).spec().selectors().get(0).expression()).isEqualTo("device.driver == 'gpu.example.com'");
    assertThat(cs.get(1).spec().selectors()).hasSize(2);
  }

  private static final String CLAIM = """
      apiVersion: resource.k8s.io/v1
      kind: ResourceClaim
      metadata: {name: bad, namespace: ml}
      spec:
        devices:
      """;

  @Test
  void badClaims_reportedWithObjectFieldAndRule() {
    assertThat(problems(CLAIM + "    requests:\n    - name: gpu\n      exactly: {deviceClassName: gpu, count: 0,"
        + " allocationMode: Some}\n"))
        .contains("ResourceClaim ml/bad", "spec.devices.requests[0].exactly.allocationMode",
            "Unsupported value: \"Some\"");
    assertThat(problems(CLAIM + "    requests:\n    - name: gpu\n      exactly: {deviceClassName: gpu, count: -2}\n"))
        .contains("ResourceClaim ml/bad", "spec.devices.requests[0].exactly.count", "greater than zero");
    assertThat(problems(CLAIM + "    requests:\n    - name: gpu\n      exactly: {deviceClassName: gpu,"
        + " allocationMode: All, count: 3}\n"))
        .contains("spec.devices.requests[0].exactly.count", "must not be specified when allocationMode is 'All'");
    assertThat(problems(CLAIM + "    requests:\n    - name: Gpu_0\n      exactly: {deviceClassName: gpu}\n"))
        .contains("spec.devices.requests[0].name");
    assertThat(problems(CLAIM + "    requests:\n    - name: gpu\n      exactly: {deviceClassName: gpu, selectors:"
        + " [{cel: {expression: 'device.attributes.exists(a, true)'}}]}\n"))
        .contains("spec.devices.requests[0].exactly.selectors[0].cel.expression", "compilation failed");
    assertThat(problems(CLAIM + "    requests:\n    - name: gpu\n      exactly: {deviceClassName: gpu}\n"
        + "    constraints:\n    - {requests: [cpu], matchAttribute: example.com/numa}\n"))
        .contains("spec.devices.constraints[0].requests[0]", "must be the name of a request in the claim");
    assertThat(problems(CLAIM + "    requests:\n    - name: gpu\n"))
        .contains("spec.devices.requests[0]", "exactly one of `exactly` or `firstAvailable` is required");
    assertThat(problems(CLAIM + "    requests:\n    - name: gpu\n      exactly: {deviceClassName: gpu}\n"
        + "status:\n  reservedFor: [{resource: pods, name: p, uid: u1}]\n"))
        .contains("status.reservedFor", "may not be specified when `allocated` is not set");
    assertThat(problems(CLAIM + "    requests:\n    - name: gpu\n      exactly: {deviceClassName: gpu}\n"
        + "status:\n  allocation:\n    devices:\n      results: [{request: tpu, driver: d.example.com, pool: p,"
        + " device: dev}]\n"))
        .contains("status.allocation.devices.results[0].request", "must be the name of a request in the claim");
    assertThat(problems(CLAIM + "    requests:\n    - name: gpu\n      exactly: {deviceClassName: gpu, countt: 1}\n"))
        .contains("spec.devices.requests[0].exactly.countt");
  }

  @Test
  void unmodelledFields_refusedNotDropped() {
    String req = "    requests:\n    - name: gpu\n      exactly:\n        deviceClassName: gpu\n";
    assertThat(problems(CLAIM + req + "    config:\n    - opaque: {driver: gpu.example.com, parameters: {}}\n"))
        .contains("spec.devices.config", "is not supported");
    String slice = """
        apiVersion: resource.k8s.io/v1
        kind: ResourceSlice
        metadata: {name: s}
        spec:
          driver: gpu.example.com
          nodeName: n1
          pool: {name: p, generation: 1, resourceSliceCount: 1}
          devices:
          - name: gpu-0
        """;
    assertThat(problems(slice + "    consumesCounters: [{counterSet: c, counters: {mem: {value: 1Gi}},"
        + " compatibilityGroups: [g]}]\n"))
        .contains("spec.devices[0].consumesCounters[0].compatibilityGroups", "is not supported");
    assertThat(problems(slice + "    attributes: {models: {strings: [a, b]}}\n"))
        .contains("spec.devices[0].attributes[models].strings", "list-valued attributes");
  }

  @Test
  void badSlices_reportedWithObjectFieldAndRule() {
    String head = """
        apiVersion: resource.k8s.io/v1
        kind: ResourceSlice
        metadata: {name: s}
        spec:
          driver: gpu.example.com
          pool: {name: p, generation: 1, resourceSliceCount: 1}
        """;
    assertThat(problems(head)).contains("ResourceSlice s", "spec",
        "exactly one of `nodeName`, `nodeSelector`, `allNodes`");
    assertThat(problems(head + "  nodeName: n1\n  allNodes: true\n")).contains("multiple fields are set");
    assertThat(problems(head + "  nodeName: n1\n  devices:\n  - name: a\n  - name: a\n"))
        .contains("spec.devices[1].name", "Duplicate value");
    assertThat(problems(head + "  nodeName: n1\n  devices:\n  - name: a\n    attributes: {x: {int: 1, bool: true}}\n"))
        .contains("spec.devices[0].attributes[x]", "exactly one value must be specified");
    assertThat(problems(head + "  nodeName: n1\n  devices:\n  - name: a\n    capacity: {memory: {value: lots}}\n"))
        .contains("spec.devices[0].capacity[memory].value", "must be a quantity");
    assertThat(problems(head + "  nodeName: n1\n  devices:\n  - name: a\n    attributes: {9bad: {int: 1}}\n"))
        .contains("spec.devices[0].attributes[9bad]", "C identifier");
    assertThat(problems(head.replace("resourceSliceCount: 1", "resourceSliceCount: 0") + "  nodeName: n1\n"))
        .contains("spec.pool.resourceSliceCount");
  }

  @Test
  void badTemplatesAndClasses_reported() {
    String template = """
        apiVersion: resource.k8s.io/v1
        kind: ResourceClaimTemplate
        metadata: {name: t}
        spec:
          metadata: {name: fixed, labels: {app: x}}
          spec:
            devices:
              requests:
              - name: gpu
                exactly: {deviceClassName: gpu}
        """;
    assertThat(problems(template)).contains("ResourceClaimTemplate default/t", "spec.metadata",
        "only labels and annotations");
    assertThat(problems(template.replace("name: fixed, ", "").replace("deviceClassName: gpu", "deviceClassName: ''")))
        .contains("spec.spec.devices.requests[0].exactly.deviceClassName", "Required value");
    String cls = """
        apiVersion: resource.k8s.io/v1
        kind: DeviceClass
        metadata: {name: c}
        spec:
          selectors:
          - cel: {expression: 'device.attributes["a.example.com"].x + 1 > 2'}
        """;
    assertThat(problems(cls)).contains("DeviceClass c", "spec.selectors[0].cel.expression", "compilation failed");
    assertThat(problems(cls.replace("- cel: {expression: 'device.attributes[\"a.example.com\"].x + 1 > 2'}", "- {}")))
        .contains("spec.selectors[0].cel", "is required");
    assertThat(problems(cls + "  config: [{opaque: {driver: a.example.com, parameters: {}}}]\n"))
        .contains("spec.config", "is not supported");
  }

  @Test
  void deviceTaintRule_loaded_selectorTaintAndCondition() {
    List<DeviceTaintRule> rules = KubernetesYaml.parse(RoundTripTest.resource("roundtrip/devicetaintrule.yaml"),
        "r.yaml").ofType(DeviceTaintRule.class);
    assertThat(rules).hasSize(3);
    DeviceTaintRule broken = rules.get(0);
    assertThat(broken.spec().deviceSelector()).isEqualTo(DeviceTaintSelector.device("gpu.example.com", "node-1",
        "gpu-0"));
    assertThat(broken.spec().taint()).isEqualTo(new DeviceTaint("example.com/unhealthy", "ecc",
        DeviceTaintEffect.NO_EXECUTE, Instant.parse("2026-01-01T00:00:00Z")));
    assertThat(broken.status().condition(DeviceTaintRuleStatus.EVICTION_IN_PROGRESS).reason())
        .isEqualTo(DeviceTaintRuleStatus.COMPLETED);
    assertThat(broken.matches("gpu.example.com", "node-1", "gpu-0")).isTrue();
    assertThat(rules.get(1).spec().deviceSelector()).isEqualTo(DeviceTaintSelector.driver("gpu.example.com"));
    assertThat(rules.get(2).spec().deviceSelector()).isNull();
    assertThat(rules.get(2).matches("gpu.example.com", "node-1", "gpu-0")).isFalse();
  }

  @Test
  void deviceTaintRule_badFields_refusedWithTheirPaths() {
    String rule = """
        apiVersion: resource.k8s.io/v1
        kind: DeviceTaintRule
        metadata: {name: r}
        spec:
          deviceSelector: {driver: gpu.example.com, device: GPU_0}
          taint: {key: example.com/t, effect: NoExecute}
        """;
    assertThat(problems(rule)).contains("DeviceTaintRule r", "spec.deviceSelector.device",
        "a lowercase RFC 1123 label");
    assertThat(problems(rule.replace("device: GPU_0", "device: gpu-0").replace("effect: NoExecute",
        "effect: Evict"))).contains("spec.taint.effect", "Unsupported value: \"Evict\"");
    assertThat(problems(rule.replace("device: GPU_0", "device: gpu-0").replace(", effect: NoExecute", "")))
        .contains("spec.taint.effect", "is required");
    assertThat(problems(rule.replace("  taint: {key: example.com/t, effect: NoExecute}\n", "")))
        .contains("spec.taint", "is required");
  }
}
