package io.fleetkit.adapter.kubernetes.yaml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.fleetkit.api.apps.Deployment;
import io.fleetkit.api.apps.DeploymentStrategy;
import io.fleetkit.api.autoscaling.HorizontalPodAutoscaler;
import io.fleetkit.api.autoscaling.NodePool;
import io.fleetkit.api.autoscaling.NodePoolAutoscalingOptions;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.RestartPolicy;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.scheduling.PreemptionPolicy;
import io.fleetkit.api.scheduling.TaintEffect;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What the converters put into the core objects: values, Kubernetes' defaults, and the errors of the Pod kind. */
final class KindConversionTest {

  @Test
  void parse_minimalPod_getsKubernetesDefaults() {
    Pod pod = KubernetesYaml.parse("apiVersion: v1\nkind: Pod\nmetadata: {name: p}\n"
        + "spec: {containers: [{name: c, image: i, resources: {requests: {cpu: 250m}}}]}\n", "p.yaml")
        .ofType(Pod.class).get(0);

    assertThat(pod.metadata().namespace()).isEqualTo("default");
    assertThat(pod.spec().restartPolicy()).isEqualTo(RestartPolicy.Always);
    assertThat(pod.spec().preemptionPolicy()).isEqualTo(PreemptionPolicy.PreemptLowerPriority);
    assertThat(pod.spec().schedulerName()).isEqualTo("default-scheduler");
    assertThat(pod.spec().terminationGracePeriodSeconds()).isEqualTo(30);
    assertThat(pod.effectiveRequests().milliCpu()).isEqualTo(250);
  }

  @Test
  void parse_node_readsTaintsCapacityAndGpus() {
    Node node = KubernetesYaml.parse(RoundTripTest.resource("roundtrip/node.yaml"), "node.yaml")
        .ofType(Node.class).get(0);

    assertThat(node.metadata().namespace()).isEmpty();
    assertThat(node.spec().taints()).extracting(t -> t.effect()).containsExactly(TaintEffect.NoSchedule,
        TaintEffect.NoExecute);
    assertThat(node.status().allocatable().get("cpu")).isEqualTo(Quantity.parse("95500m"));
    assertThat(node.status().gpus()).hasSize(2);
    assertThat(node.status().gpus().get(0).interconnectGroup()).isEqualTo("nvl-0");
    assertThat(node.status().gpus().get(1).numaNode()).isEqualTo(-1);
  }

  @Test
  void parse_deploymentAndHpa_defaultsAsKubernetes() {
    LoadedObjects loaded = KubernetesYaml.parse("""
        apiVersion: apps/v1
        kind: Deployment
        metadata: {name: d}
        spec:
          selector: {matchLabels: {a: b}}
          template:
            metadata: {labels: {a: b}}
            spec: {containers: [{name: c, image: i}]}
        ---
        apiVersion: autoscaling/v2
        kind: HorizontalPodAutoscaler
        metadata: {name: h}
        spec:
          scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: d}
          maxReplicas: 5
        """, "d.yaml");

    Deployment d = loaded.ofType(Deployment.class).get(0);
    assertThat(d.spec().replicas()).isEqualTo(1);
    assertThat(d.spec().strategy()).isEqualTo(DeploymentStrategy.ROLLING_UPDATE);
    HorizontalPodAutoscaler h = loaded.ofType(HorizontalPodAutoscaler.class).get(0);
    assertThat(h.spec().minReplicas()).isEqualTo(1);
    assertThat(h.spec().behavior()).isNull();
  }

  @Test
  void parse_nodePool_readsGoDurationAndPrice() {
    NodePool pool = KubernetesYaml.parse(RoundTripTest.resource("roundtrip/policy.yaml"), "policy.yaml")
        .ofType(NodePool.class).get(0);

    assertThat(pool.spec().startupDelay()).isEqualTo(Duration.ofSeconds(90));
    assertThat(pool.spec().pricePerHour()).isEqualTo(32.77);
    assertThat(pool.spec().zeroOrMaxNodeScaling()).isTrue();
    assertThat(pool.spec().template().gpus()).hasSize(1);
    assertThat(pool.spec().autoscalingOptions()).isEqualTo(NodePoolAutoscalingOptions.builder()
        .scaleDownUtilizationThreshold(0.7).maxNodeProvisionTime(Duration.ofMinutes(25)).build());
    assertThat(KubernetesYaml.dump(List.of(pool))).contains("startupDelay: \"1m30s\"")
        .contains("zeroOrMaxNodeScaling: true").contains("scaleDownUtilizationThreshold: 0.7")
        .contains("maxNodeProvisionTime: \"25m0s\""); // Go's Duration.String(), as metav1.Duration writes it
  }

  /**
   * kubernetes/autoscaler's TestNodeGroupGetOptions "keep defaults on unparsable options values" keeps the defaults
   * (with a log line); FleetKit refuses the manifest naming each field, and an unknown setting too.
   */
  @Test
  void parse_nodePoolWithBadAutoscalingOptions_isReportedPerField() {
    ManifestException e = catchThrowableOfType(ManifestException.class, () -> KubernetesYaml.parse(
        "apiVersion: fleetkit.io/v1alpha1\nkind: NodePool\nmetadata: {name: p}\n"
            + "spec: {template: {capacity: {cpu: '4'}}, maxSize: 3, autoscalingOptions: "
            + "{scaleDownGpuUtilizationThreshold: foo, scaleDownUnneededTime: bar, scaleDownUtilisationThreshold: 0.5}}\n",
        "pool.yaml"));

    assertThat(e.problems()).hasSize(3);
    assertThat(String.join("\n", e.problems().stream().map(Object::toString).toList()))
        .contains("spec.autoscalingOptions.scaleDownGpuUtilizationThreshold \"foo\" must be a number")
        .contains("spec.autoscalingOptions.scaleDownUnneededTime \"bar\" must be a duration")
        .contains("spec.autoscalingOptions.scaleDownUtilisationThreshold unknown field");
  }

  /** A NodePool's device templates: read, validated per field, and written back. */
  @Test
  void parse_nodePoolWithDeviceTemplates_readsAndWritesThem() {
    String yaml = "apiVersion: fleetkit.io/v1alpha1\nkind: NodePool\nmetadata: {name: gpu}\n"
        + "spec:\n  template:\n    capacity: {cpu: '8'}\n    resourceSlices:\n    - driver: gpu.example.com\n"
        + "      pool: gpus\n      devices:\n      - name: gpu-0\n        attributes: {model: {string: a100}}\n"
        + "        capacity: {memory: {value: 80Gi}}\n      - name: gpu-1\n  maxSize: 3\n";
    NodePool pool = KubernetesYaml.parse(yaml, "pool.yaml").ofType(NodePool.class).get(0);
    var templates = pool.spec().template().resourceSlices();
    assertThat(templates).singleElement().satisfies(t -> {
      assertThat(t.driver()).isEqualTo("gpu.example.com");
      assertThat(t.pool()).isEqualTo("gpus");
      assertThat(t.devices()).extracting(d -> d.name()).containsExactly("gpu-0", "gpu-1");
      assertThat(t.devices().get(0).attributes().get("model").string()).isEqualTo("a100");
      assertThat(t.devices().get(0).capacity().get("memory")).isEqualTo(Quantity.parse("80Gi"));
    });
    NodePool back = KubernetesYaml.parse(KubernetesYaml.dump(List.of(pool)), "dumped").ofType(NodePool.class).get(0);
    assertThat(back.spec().template().resourceSlices()).isEqualTo(templates);
  }

  @Test
  void parse_nodePoolWithBadDeviceTemplates_isReportedPerField() {
    ManifestException e = catchThrowableOfType(ManifestException.class, () -> KubernetesYaml.parse(
        "apiVersion: fleetkit.io/v1alpha1\nkind: NodePool\nmetadata: {name: p}\n"
            + "spec: {template: {capacity: {cpu: '4'}, resourceSlices: [{driver: gpu.example.com, pools: x, "
            + "devices: [{name: gpu-0, nodeName: n1}]}, {driver: gpu.example.com, devices: [{name: Bad}]}]}, "
            + "maxSize: 3}\n", "pool.yaml"));
    String all = String.join("\n", e.problems().stream().map(Object::toString).toList());
    assertThat(all).contains("spec.template.resourceSlices[0].pools is not a field")
        .contains("spec.template.resourceSlices[0].devices[0] a device template has no node selection");
  }

  @Test
  void parse_nodePoolWithBadDuration_isReported() {
    ManifestException e = catchThrowableOfType(ManifestException.class, () -> KubernetesYaml.parse(
        "apiVersion: fleetkit.io/v1alpha1\nkind: NodePool\nmetadata: {name: p}\n"
            + "spec: {template: {capacity: {cpu: '4'}}, maxSize: 3, startupDelay: soon}\n", "pool.yaml"));

    assertThat(e.problems()).singleElement().asString().isEqualTo("pool.yaml: document 1 (line 1): NodePool p: "
        + "spec.startupDelay \"soon\" must be a duration such as 90s, 5m or 1h30m (at line 4)");
  }

  @Test
  void parse_podWithNegativeCpu_matchesTheDocumentedMessage() {
    String yaml = "apiVersion: v1\nkind: Pod\nmetadata: {name: a}\nspec: {containers: [{name: c, image: i}]}\n"
        + "---\napiVersion: v1\nkind: Pod\nmetadata: {name: web}\nspec:\n  containers:\n  - name: c\n"
        + "    image: i\n    resources:\n      requests: {cpu: -1}\n";

    ManifestException e = catchThrowableOfType(ManifestException.class,
        () -> KubernetesYaml.parse(yaml, "examples/bad/pod.yaml"));

    assertThat(e.getMessage()).isEqualTo("examples/bad/pod.yaml: document 2 (line 6): Pod default/web: "
        + "spec.containers[0].resources.requests.cpu \"-1\" must be greater than or equal to 0 (at line 14)");
  }

  @Test
  void parse_podWithContainersAsString_isAWrongTypeProblem() {
    ManifestException e = catchThrowableOfType(ManifestException.class, () -> KubernetesYaml.parse(
        "apiVersion: v1\nkind: Pod\nmetadata: {name: web, namespace: prod}\nspec:\n  containers: nginx\n",
        "pod.yaml"));

    assertThat(e.getMessage()).isEqualTo("pod.yaml: document 1 (line 1): Pod prod/web: spec.containers \"nginx\" "
        + "must be a list, not a string (at line 5)");
  }

  @Test
  void parse_podBreakingCoreRules_reportsEveryRuleOfTheRecord() {
    ManifestException e = catchThrowableOfType(ManifestException.class, () -> KubernetesYaml.parse("""
        apiVersion: v1
        kind: Pod
        metadata: {name: web}
        spec:
          containers:
          - {name: c}
          - {name: c, image: i}
        """, "pod.yaml"));

    assertThat(e.problems()).extracting(p -> p.violation().field())
        .contains("spec.containers[0].image", "spec.containers[1].name");
    assertThat(e.problems()).allSatisfy(p -> {
      assertThat(p.source()).isEqualTo("pod.yaml");
      assertThat(p.document()).isEqualTo(1);
      assertThat(p.violation().object()).isEqualTo("Pod default/web");
    });
    assertThat(e.problems()).filteredOn(p -> p.violation().field().equals("spec.containers[1].name"))
        .singleElement().satisfies(p -> assertThat(p.line()).isEqualTo(7));
  }

  @Test
  void dump_unsupportedObject_isRejected() {
    io.fleetkit.api.meta.ApiObject<?> alien = new Alien(ObjectMeta.of("x"));

    assertThatThrownBy(() -> KubernetesYaml.dump(List.of(alien))).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Alien x").hasMessageContaining("not supported");
  }

  /** A kind the adapter does not know. */
  private record Alien(ObjectMeta metadata) implements io.fleetkit.api.meta.ApiObject<Alien> {
    @Override
    public String apiVersion() {
      return "example.com/v1";
    }

    @Override
    public String kind() {
      return "Alien";
    }

    @Override
    public boolean namespaced() {
      return false;
    }

    @Override
    public Alien withMetadata(ObjectMeta m) {
      return new Alien(m);
    }

    @Override
    public Object spec() {
      return "";
    }

    @Override
    public @org.jspecify.annotations.Nullable Object status() {
      return null;
    }

    @Override
    public Alien withStatusOf(Alien other) {
      return this;
    }
  }
}
