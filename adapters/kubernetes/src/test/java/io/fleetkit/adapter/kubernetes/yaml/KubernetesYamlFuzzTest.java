package io.fleetkit.adapter.kubernetes.yaml;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.charset.StandardCharsets;

/**
 * Fuzzes the manifest loader: any text gives loaded objects or a {@link ManifestException} whose problems each name a
 * rule; never another exception, never a hang (aliases included: the aliasing bound holds).
 */
final class KubernetesYamlFuzzTest {
  @FuzzTest(maxDuration = "60s")
  void parse_anyText_objectsOrProblems(byte[] data) {
    String text = new String(data, StandardCharsets.UTF_8);
    try {
      LoadedObjects o = KubernetesYaml.parse(text, "fuzz.yaml");
      assertThat(o.size()).isGreaterThanOrEqualTo(0);
    } catch (ManifestException e) {
      assertThat(e.problems()).isNotEmpty().allSatisfy(p -> assertThat(p.violation().rule()).isNotBlank());
    }
  }
}
