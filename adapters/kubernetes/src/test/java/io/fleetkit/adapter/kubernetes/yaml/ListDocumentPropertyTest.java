package io.fleetkit.adapter.kubernetes.yaml;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * A list document loads as its items written as separate documents would: the same objects in the same order, the
 * same warnings (field, rule, object), each placed at the line of its field in the list.
 */
final class ListDocumentPropertyTest {
  /** Objects as one-line-per-field YAML maps (kubectl's style), some with fields FleetKit does not model. */
  private static final List<String> OBJECTS = List.of(
      "apiVersion: v1\nkind: Node\nmetadata:\n  name: n%d\nstatus:\n  allocatable:\n    cpu: \"4\"\n"
          + "  nodeInfo:\n    kubeletVersion: v1.29.2\n",
      "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p%d\n  namespace: default\nspec:\n  containers:\n"
          + "  - image: nginx\n    imagePullPolicy: Always\n    name: c\n",
      "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c%d\ndata:\n  k: v\n",
      "apiVersion: v1\nkind: Endpoints\nmetadata:\n  name: e%d\nsubsets: []\n",
      "apiVersion: coordination.k8s.io/v1\nkind: Lease\nmetadata:\n  name: l%d\nspec:\n  holderIdentity: x\n");

  @Provide
  Arbitrary<List<Integer>> picks() {
    return Arbitraries.integers().between(0, OBJECTS.size() - 1).list().ofMinSize(0).ofMaxSize(8);
  }

  @Property(tries = 40)
  void list_loadsAsSeparateDocuments(@ForAll("picks") List<Integer> picks) {
    List<String> objects = new ArrayList<>();
    for (int i = 0; i < picks.size(); i++) {
      objects.add(OBJECTS.get(picks.get(i)).formatted(i));
    }
    StringBuilder docs = new StringBuilder();
    StringBuilder list = new StringBuilder("apiVersion: v1\nkind: List\nitems:\n");
    for (String o : objects) {
      docs.append("---\n").append(o);
      list.append("- ").append(o.indent(2).substring(2));
    }
    LoadedObjects separate = KubernetesYaml.parse(docs.toString(), "docs.yaml");
    LoadedObjects listed = KubernetesYaml.parse(list.toString(), "list.yaml");

    assertThat(listed.objects()).isEqualTo(separate.objects());
    assertThat(listed.warnings()).extracting(ManifestProblem::violation)
        .containsExactlyElementsOf(separate.warnings().stream().map(ManifestProblem::violation).toList());
    String[] lines = list.toString().split("\n", -1);
    for (ManifestProblem w : listed.warnings()) {
      assertThat(w.document()).isEqualTo(1);
      assertThat(w.item()).isBetween(0, objects.size() - 1);
      String field = w.violation().field();
      String last = field.substring(Math.max(field.lastIndexOf('.'), -1) + 1);
      assertThat(lines[w.line() - 1].trim()).as(w.toString()).startsWith(last + ":");
    }
    for (int i = 0; i < listed.size(); i++) {
      ManifestLocation at = listed.locations().get(i);
      assertThat(lines[at.lineOf("metadata.name") - 1].trim())
          .isEqualTo("name: " + listed.objects().get(i).metadata().name());
    }
  }
}
