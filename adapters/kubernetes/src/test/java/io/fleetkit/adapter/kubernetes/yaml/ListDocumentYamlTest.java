package io.fleetkit.adapter.kubernetes.yaml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.fleetkit.api.apps.Deployment;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * List documents, as {@code kubectl get a,b -o yaml} prints them ({@code apiVersion: v1, kind: List}) and as the API
 * server returns one kind ({@code PodList}): each item is read as a document of its own, its problems and warnings
 * placed at the item's lines.
 */
final class ListDocumentYamlTest {
  private static final String LIST = """
      apiVersion: v1
      items:
      - apiVersion: v1
        kind: Node
        metadata:
          name: worker-1
        status:
          allocatable: {cpu: "8", memory: 16Gi, pods: "110"}
      - apiVersion: v1
        kind: Pod
        metadata:
          name: web-0
          namespace: default
        spec:
          enableServiceLinks: true
          containers:
          - name: c
            image: nginx:1.25
            resources:
              requests: {cpu: 100m}
      kind: List
      metadata:
        resourceVersion: ""
      """;

  private static ManifestException refused(String yaml) {
    ManifestException e = catchThrowableOfType(ManifestException.class, () -> KubernetesYaml.parse(yaml, "l.yaml"));
    assertThat(e).as("refused").isNotNull();
    return e;
  }

  @Test
  void parse_list_readsEachItemInOrder() {
    LoadedObjects loaded = KubernetesYaml.parse(LIST, "cluster.yaml");

    assertThat(loaded.objects()).extracting(o -> o.kind() + " " + o.metadata().name())
        .containsExactly("Node worker-1", "Pod web-0");
    assertThat(loaded.ofType(Node.class).get(0).status().allocatable().get("cpu").toString()).isEqualTo("8");
  }

  @Test
  void parse_list_warningsNameTheItemAndItsOwnLines() {
    LoadedObjects loaded = KubernetesYaml.parse(LIST, "cluster.yaml");

    assertThat(loaded.warnings()).extracting(ManifestProblem::toString).containsExactly(
        "cluster.yaml: document 1, items[1] (line 9): Pod default/web-0: spec.enableServiceLinks not modelled by"
            + " FleetKit; ignored (at line 15)");
    assertThat(loaded.warnings().get(0).item()).isEqualTo(1);
    assertThat(loaded.warnings().get(0).line()).isEqualTo(15);
  }

  @Test
  void locationOf_anItem_givesTheItemsLinesByItsOwnPaths() {
    LoadedObjects loaded = KubernetesYaml.parse(LIST, "cluster.yaml");
    Pod pod = loaded.ofType(Pod.class).get(0);
    ManifestLocation at = loaded.locationOf(pod).orElseThrow();

    assertThat(at.document()).isEqualTo(1);
    assertThat(at.item()).isEqualTo(1);
    assertThat(at.documentLine()).isEqualTo(9);
    assertThat(at.lineOf("spec.containers[0].image")).isEqualTo(18);
    assertThat(at.lineOf("metadata.name")).isEqualTo(12);
    assertThat(at.problem(new io.fleetkit.api.Violation(pod.describe(), "spec.containers[0].image", "is old", null)))
        .hasToString("cluster.yaml: document 1, items[1] (line 9): Pod default/web-0: spec.containers[0].image is"
            + " old (at line 18)");
    assertThat(loaded.locationOf(loaded.ofType(Node.class).get(0)).orElseThrow().item()).isZero();
  }

  @Test
  void parse_listItemBreakingARule_isAProblemAtTheItemsLine() {
    ManifestException e = refused(LIST.replace("cpu: 100m", "cpu: \"-1\""));

    assertThat(e.problems()).hasSize(1);
    ManifestProblem p = e.problems().get(0);
    assertThat(p.item()).isEqualTo(1);
    assertThat(p.line()).isEqualTo(20);
    assertThat(p.toString()).startsWith("l.yaml: document 1, items[1] (line 9): Pod default/web-0:"
        + " spec.containers[0].resources.requests.cpu").endsWith("(at line 20)");
  }

  @Test
  void parse_listItemsDuplicated_isAProblemNamingTheFirstItem() {
    String twice = LIST.replace("kind: List\n", "- apiVersion: v1\n  kind: Node\n  metadata: {name: worker-1}\n"
        + "kind: List\n");
    ManifestException e = refused(twice);

    assertThat(e.getMessage()).contains("items[2]").contains("already defined in l.yaml document 1, items[0] (line 3)");
  }

  @Test
  void parse_typedList_fillsInTheItemsKindAndApiVersion() {
    LoadedObjects loaded = KubernetesYaml.parse("""
        apiVersion: apps/v1
        kind: DeploymentList
        metadata: {resourceVersion: "99"}
        items:
        - metadata: {name: web, namespace: prod}
          spec:
            selector: {matchLabels: {app: web}}
            template:
              metadata: {labels: {app: web}}
              spec:
                containers: [{name: c, image: nginx}]
        - apiVersion: apps/v1
          kind: Deployment
          metadata: {name: api}
          spec:
            selector: {matchLabels: {app: api}}
            template:
              metadata: {labels: {app: api}}
              spec:
                containers: [{name: c, image: nginx}]
        """, "deps.yaml");

    assertThat(loaded.ofType(Deployment.class)).extracting(d -> d.metadata().key())
        .containsExactly("prod/web", "default/api");
  }

  @Test
  void parse_typedListOfAKindFleetKitDoesNotModel_warnsPerItem() {
    LoadedObjects loaded = KubernetesYaml.parse("""
        apiVersion: coordination.k8s.io/v1
        kind: LeaseList
        items:
        - metadata: {name: worker-1, namespace: kube-node-lease}
          spec: {holderIdentity: worker-1}
        """, "leases.yaml");

    assertThat(loaded.objects()).isEmpty();
    assertThat(loaded.warnings()).extracting(ManifestProblem::toString).containsExactly(
        "leases.yaml: document 1, items[0] (line 4): Lease kube-node-lease/worker-1: kind Lease"
            + " (coordination.k8s.io/v1) is not modelled by FleetKit; ignored");
  }

  @Test
  void parse_typedListItemOfAnotherKind_isRefused() {
    ManifestException e = refused("""
        apiVersion: v1
        kind: PodList
        items:
        - apiVersion: v1
          kind: Node
          metadata: {name: n}
        """);

    assertThat(e.getMessage()).isEqualTo("l.yaml: document 1 (line 1): PodList: items[0].kind \"Node\" must be Pod in"
        + " a PodList (at line 5)");
  }

  @Test
  void parse_listWithWrongApiVersion_isRefused() {
    assertThat(refused(LIST.replace("apiVersion: v1\nitems", "apiVersion: v2\nitems")).getMessage())
        .isEqualTo("l.yaml: document 1 (line 1): List: apiVersion \"v2\" must be v1 for kind List");
    assertThat(refused("apiVersion: v1\nkind: DeploymentList\nitems: []\n").getMessage())
        .contains("apiVersion \"v1\" must be apps/v1 for kind DeploymentList");
  }

  @Test
  void parse_itemThatIsAList_isRefused() {
    ManifestException e = refused("""
        apiVersion: v1
        kind: List
        items:
        - apiVersion: v1
          kind: List
          items: []
        """);

    assertThat(e.getMessage()).isEqualTo("l.yaml: document 1 (line 1): List: items[0].kind \"List\" must not be a"
        + " list: the items of a list are objects (at line 5)");
  }

  @Test
  void parse_emptyOrMissingItems_loadsNothing() {
    assertThat(KubernetesYaml.parse("apiVersion: v1\nkind: List\nitems: []\n", "e.yaml").objects()).isEmpty();
    assertThat(KubernetesYaml.parse("apiVersion: v1\nkind: List\nmetadata: {}\n", "e.yaml").objects()).isEmpty();
  }

  @Test
  void parse_listWithItemsNotAListOrAnUnknownField_isRefused() {
    assertThat(refused("apiVersion: v1\nkind: List\nitems: {a: b}\n").getMessage())
        .contains("List: items must be a list of objects");
    assertThat(refused("apiVersion: v1\nkind: List\nitems: []\nfoo: 1\n").getMessage())
        .contains("List: foo unknown field (a list has apiVersion, kind, metadata and items)");
    assertThat(KubernetesYaml.parse("apiVersion: v1\nkind: List\nitems: []\nfoo: 1\n", "e.yaml",
        FieldValidation.IGNORE).objects()).isEmpty();
  }

  @Test
  void parse_problemsOfSeveralItems_areAllReported() {
    ManifestException e = refused("""
        apiVersion: v1
        kind: List
        items:
        - apiVersion: v1
          kind: Pod
          metadata: {name: a}
          spec: {containers: [{name: c, image: x, resources: {requests: {cpu: "-1"}}}]}
        - apiVersion: v1
          kind: Pod
          metadata: {name: b}
          spec: {containers: [{name: c, image: x, resources: {requests: {memory: "-1"}}}]}
        - 42
        """);

    assertThat(e.problems()).extracting(ManifestProblem::item).containsExactly(0, 1, -1);
    assertThat(e.problems().get(2).toString()).contains("List: items[2] must be a map");
    ManifestException e2 = refused("""
        apiVersion: v1
        kind: List
        items:
        - apiVersion: v1
          kind: Pod
          metadata: {name: a}
          spec: {containers: [{name: c, image: x, resources: {requests: {cpu: "-1"}}}]}
        - apiVersion: v1
          kind: Pod
          metadata: {name: b}
          spec: {containers: [{name: c, image: x, resources: {requests: {memory: "-1"}}}]}
        """);
    assertThat(e2.problems()).extracting(ManifestProblem::item).containsExactly(0, 1);
    assertThat(e2.problems()).extracting(ManifestProblem::line).containsExactly(7, 11);
  }

  @Test
  void load_realClusterDumpExample_loadsTheModelledKindsAndWarnsOfTheOthers() {
    LoadedObjects loaded = KubernetesYaml.load(List.of(java.nio.file.Path.of("..", "..", "examples",
        "real-cluster-dump")));

    assertThat(loaded.summary()).isEqualTo("11 objects (1 Deployment, 1 EndpointSlice, 1 Endpoints, 1 Namespace,"
        + " 3 Node, 2 Pod, 1 ReplicaSet, 1 Service)");
    assertThat(loaded.warnings()).filteredOn(w -> w.violation().field().equals("kind"))
        .extracting(w -> w.violation().rule()).containsExactly(
            "Lease (coordination.k8s.io/v1) is not modelled by FleetKit; ignored",
            "Event (v1) is not modelled by FleetKit; ignored",
            "ClusterRole (rbac.authorization.k8s.io/v1) is not modelled by FleetKit; ignored",
            "NetworkPolicy (networking.k8s.io/v1) is not modelled by FleetKit; ignored");
    assertThat(loaded.warnings()).allSatisfy(w -> assertThat(w.item()).isNotNegative());
    assertThat(loaded.warnings()).extracting(w -> w.violation().field()).doesNotContain("status",
        "metadata.uid", "metadata.resourceVersion", "metadata.creationTimestamp", "metadata.ownerReferences");
    Pod pod = loaded.ofType(Pod.class).get(0);
    assertThat(pod.metadata().ownerReferences()).extracting(r -> r.kind() + "/" + r.name() + "/" + r.uid())
        .containsExactly("ReplicaSet/web-5d9c8f7b6c/99999999-8888-7777-6666-555555555555");
    assertThat(pod.spec().volumes().get(0).source().configMapNames()).containsExactly("kube-root-ca.crt");
  }

  @Test
  void dump_ofListItems_isTheSameObjects() {
    LoadedObjects loaded = KubernetesYaml.parse(LIST, "cluster.yaml");
    LoadedObjects again = KubernetesYaml.parse(KubernetesYaml.dump(loaded.objects()), "again.yaml");

    assertThat(again.objects()).isEqualTo(loaded.objects());
    assertThat(List.of(again.ofType(Pod.class).get(0).metadata().name())).containsExactly("web-0");
  }
}
