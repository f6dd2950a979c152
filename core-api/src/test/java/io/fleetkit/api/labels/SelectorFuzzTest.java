package io.fleetkit.api.labels;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * Fuzzes the label selector parser: any string gives a selector that can match a label set, or a
 * {@link SelectorParseException} with a message; never another exception, never a hang.
 */
final class SelectorFuzzTest {
  @FuzzTest(maxDuration = "30s")
  void parse_anyString_selectorOrDocumentedError(byte[] data) {
    String s = new String(data, StandardCharsets.UTF_8);
    Selector sel;
    try {
      sel = Selector.parse(s);
    } catch (SelectorParseException e) {
      assertThat(e.getMessage()).isNotBlank();
      return;
    }
    sel.matches(Map.of("a", "b", "k", "1"));
  }
}
