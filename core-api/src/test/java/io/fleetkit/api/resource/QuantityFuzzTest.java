package io.fleetkit.api.resource;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.charset.StandardCharsets;

/**
 * Fuzzes {@link Quantity#parse}: any string gives a quantity whose canonical form parses back to an equal quantity,
 * or an {@link IllegalArgumentException} with a message; never another exception, never a hang. Regression inputs
 * are in {@code QuantityFuzzTestInputs/}; fuzz longer with {@code JAZZER_FUZZ=1 -Dtest=QuantityFuzzTest}.
 */
final class QuantityFuzzTest {
  @FuzzTest(maxDuration = "30s")
  void parse_anyString_valueOrDocumentedError(byte[] data) {
    String s = new String(data, StandardCharsets.UTF_8);
    Quantity q;
    try {
      q = Quantity.parse(s);
    } catch (IllegalArgumentException e) {
      assertThat(e.getMessage()).isNotBlank();
      return;
    }
    assertThat(Quantity.parse(q.toString())).isEqualTo(q);
  }
}
