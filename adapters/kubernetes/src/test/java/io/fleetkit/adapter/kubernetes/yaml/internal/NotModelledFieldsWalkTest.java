package io.fleetkit.adapter.kubernetes.yaml.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The comparison and probing of {@link NotModelledFields} with a probe given by the test: a partly read subtree is
 * examined child by child, a subtree nobody reads is reported once, free-form maps are leaves, empty values and
 * excluded paths are skipped, probes are cached and capped.
 */
final class NotModelledFieldsWalkTest {
  private static final JsonMapper JSON = JsonMapper.builder().build();

  private static JsonNode json(String s) {
    return JSON.readTree(s.replace('\'', '"'));
  }

  /** A probe that reads only {@code spec.a.read}: the result changes when that value was changed. */
  private final List<JsonNode> probed = new ArrayList<>();

  private boolean readsSpecARead(JsonNode changed) {
    probed.add(changed);
    JsonNode v = changed.at("/spec/a/read");
    return !v.isMissingNode() && !v.equals(json("{'x': 1}").get("x"));
  }

  @Test
  void find_partlyReadSubtree_reportsTheChildrenNobodyReads() {
    JsonNode doc = json("{'spec': {'a': {'read': 1, 'notRead': {'x': 2, 'y': [3]}}, 'b': 'z'}}");
    List<String> found = new NotModelledFields().find("K", doc, json("{'spec': {}}"), Set.of(),
        this::readsSpecARead);
    assertThat(found).containsExactly("spec.a.notRead", "spec.b");
  }

  @Test
  void find_presentPathsAndFreeFormMapsAndEmptyValues_notReported() {
    JsonNode doc = json("{'metadata': {'labels': {'a': 'b', 'c': 'd'}}, 'spec': {'e': [], 'f': {}, 'g': null,"
        + " 'selector': {'app': 'x', 'tier': 'y'}, 'list': [{'k': 1}, {'k': 2}]}}");
    JsonNode written = json("{'metadata': {'labels': {'a': 'b'}}, 'spec': {'selector': {'app': 'x'},"
        + " 'list': [{'k': 1}, {'k': 2}]}}");
    assertThat(new NotModelledFields().find("K", doc, written, Set.of(), c -> {
      throw new AssertionError("nothing to probe");
    })).isEmpty();
  }

  /**
   * After one object of a kind was written back, a document whose every path (list indexes generalised, free-form
   * maps whole) was among the written ones needs no write-back; one with a path never written does.
   */
  @Test
  void covered_onlyByPathsAnObjectOfTheKindWasWrittenBackWith() {
    NotModelledFields f = new NotModelledFields();
    JsonNode first = json("{'metadata': {'name': 'a', 'labels': {'app': 'x'}}, 'spec': {'list': [{'k': 1}]}}");
    assertThat(f.covered("K", first)).isFalse(); // nothing written back yet
    assertThat(f.find("K", first, first, Set.of(), c -> {
      throw new AssertionError("nothing to probe");
    })).isEmpty();
    // another name, other labels, more list items, an empty value and server bookkeeping: covered
    assertThat(f.covered("K", json("{'metadata': {'name': 'b', 'labels': {'tier': 'y', 'z': 'w'},"
        + " 'managedFields': [{'manager': 'kubectl'}]}, 'spec': {'list': [{'k': 2}, {'k': 3}], 'e': {}}}"))).isTrue();
    // a field no object of the kind was written back with, or another kind: checked in full
    assertThat(f.covered("K", json("{'metadata': {'name': 'c'}, 'spec': {'list': [{'k': 2, 'extra': 1}]}}")))
        .isFalse();
    assertThat(f.covered("L", first)).isFalse();
  }

  @Test
  void find_listItems_comparedByIndex() {
    JsonNode doc = json("{'spec': {'list': [{'k': 1}, {'k': 2, 'extra': true}]}}");
    JsonNode written = json("{'spec': {'list': [{'k': 1}, {'k': 2}]}}");
    assertThat(new NotModelledFields().find("K", doc, written, Set.of(), c -> false))
        .containsExactly("spec.list[1].extra");
  }

  @Test
  void find_excludedPathAndBookkeeping_notReported() {
    JsonNode doc = json("{'metadata': {'managedFields': [{'manager': 'm'}], 'selfLink': '/x'}, 'spec': {'u': 1}}");
    assertThat(new NotModelledFields().find("K", doc, json("{'metadata': {}, 'spec': {}}"), Set.of("spec.u"),
        c -> false)).isEmpty();
  }

  @Test
  void find_sameFieldInManyDocuments_probedOnce() {
    NotModelledFields finder = new NotModelledFields();
    for (int i = 0; i < 10; i++) {
      JsonNode doc = json("{'spec': {'list': [{'k': 1, 'u': 'v'}, {'k': 1, 'u': 'v'}]}}");
      assertThat(finder.find("K", doc, json("{'spec': {'list': [{'k': 1}, {'k': 1}]}}"), Set.of(), c -> {
        probed.add(c);
        return false;
      })).containsExactly("spec.list[0].u", "spec.list[1].u");
    }
    assertThat(probed).hasSize(1);
  }

  @Test
  void find_probeChangesEveryScalarOfTheSubtree() {
    JsonNode doc = json("{'spec': {'u': {'n': 1, 'b': true, 's': 'x', 'l': [2.5]}}}");
    new NotModelledFields().find("K", doc, json("{'spec': {}}"), Set.of(), c -> {
      probed.add(c);
      return false;
    });
    assertThat(probed).singleElement().satisfies(c -> {
      assertThat(c.at("/spec/u/n").asInt()).isEqualTo(2);
      assertThat(c.at("/spec/u/b").asBoolean()).isFalse();
      assertThat(c.at("/spec/u/s").asString()).isNotEqualTo("x").startsWith("x");
      assertThat(c.at("/spec/u/l/0").asDouble()).isNotEqualTo(2.5);
    });
    assertThat(doc.at("/spec/u/n").asInt()).as("the document itself is not changed").isEqualTo(1);
  }

  @Test
  void find_beyondTheProbeCap_absentPathsReportedUnprobed() {
    StringBuilder sb = new StringBuilder("{'spec': {");
    int n = NotModelledFields.MAX_PROBES_PER_DOCUMENT + 10;
    for (int i = 0; i < n; i++) {
      sb.append(i == 0 ? "" : ", ").append("'f").append(i).append("': ").append(i);
    }
    JsonNode doc = json(sb.append("}}").toString());
    List<String> found = new NotModelledFields().find("K", doc, json("{'spec': {}}"), Set.of(), c -> {
      probed.add(c);
      return false;
    });
    assertThat(found).hasSize(n);
    assertThat(probed).hasSize(NotModelledFields.MAX_PROBES_PER_DOCUMENT);
  }
}
