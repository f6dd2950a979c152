package io.fleetkit.api.resource.dra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.resource.Quantity;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Ported from kubernetes {@code staging/src/k8s.io/dynamic-resource-allocation/cel/compile_test.go} (commit
 * 052bb7dc), the {@code testcases} table run by TestCEL: the cases inside the CEL subset FleetKit evaluates, with
 * their expected match, compile error or match error (the {@code expectCost} column is not ported: FleetKit has no
 * cost estimator). The cases outside the subset are checked to be refused at compile time, never evaluated.
 */
final class DeviceSelectorExpressionTest {
  private static final String DRA = "dra.example.com";

  record Case(String name, String expression, String driver, Map<String, DeviceAttribute> attributes,
      Map<String, Quantity> capacity, @Nullable String compileError, @Nullable String matchError, boolean match) {}

  private static Case match(String name, String expr, String driver, Map<String, DeviceAttribute> attributes,
      Map<String, Quantity> capacity, boolean expect) {
    return new Case(name, expr, driver, attributes, capacity, null, null, expect);
  }

  static Stream<Arguments> upstreamCases() {
    Map<String, DeviceAttribute> none = Map.of();
    Map<String, Quantity> noCap = Map.of();
    return Stream.of(
        match("true", "true", "", none, noCap, true),
        match("false", "false", "", none, noCap, false),
        new Case("syntax-error", "?!", "", none, noCap, "Syntax error", null, false),
        new Case("type-error", "1", "", none, noCap, "must evaluate to bool or the unknown type, not int", null,
            false),
        new Case("runtime-error-lookup-identifier",
            "device.attributes[\"no-such-domain\"].noSuchAttr.isGreaterThan(quantity(\"0\"))", "", none, noCap,
            null, "no such key: noSuchAttr", false),
        new Case("runtime-error-lookup-map",
            "device.attributes[\"no-such-domain\"][\"noSuchAttr\"].isGreaterThan(quantity(\"0\"))", "", none, noCap,
            null, "no such key: noSuchAttr", false),
        match("domain-check-negative", "\"no-such-domain\" in device.attributes", "", none, noCap, false),
        match("domain-check-positive", "\"dra.example.com\" in device.attributes", "",
            Map.of("dra.example.com/something", DeviceAttribute.ofBool(true)), noCap, true),
        match("empty-driver-name", "device.driver == \"\"", "", none, noCap, true),
        match("real-driver-name", "device.driver == \"dra.example.com\"", DRA, none, noCap, true),
        match("driver-name-qualifier", "device.attributes[\"dra.example.com\"].name", DRA,
            Map.of("name", DeviceAttribute.ofBool(true)), noCap, true),
        match("driver-name-qualifier-map-lookup", "device.attributes[\"dra.example.com\"][\"name\"]", DRA,
            Map.of("name", DeviceAttribute.ofBool(true)), noCap, true),
        match("qualified-attribute-name", "device.attributes[\"other.example.com\"].name", DRA,
            Map.of("other.example.com/name", DeviceAttribute.ofBool(true)), noCap, true),
        match("bool", "device.attributes[\"dra.example.com\"].name", DRA,
            Map.of("name", DeviceAttribute.ofBool(true)), noCap, true),
        match("int", "device.attributes[\"dra.example.com\"].name > 0", DRA,
            Map.of("name", DeviceAttribute.ofInt(1)), noCap, true),
        match("string", "device.attributes[\"dra.example.com\"].name == \"fish\"", DRA,
            Map.of("name", DeviceAttribute.ofString("fish")), noCap, true),
        match("quantity", "device.capacity[\"dra.example.com\"].name.isGreaterThan(quantity(\"1Ki\"))", DRA, none,
            Map.of("name", Quantity.parse("1Mi")), true),
        match("check-positive", "\"name\" in device.capacity[\"dra.example.com\"] && "
            + "device.capacity[\"dra.example.com\"].name.isGreaterThan(quantity(\"1Ki\"))", DRA, none,
            Map.of("name", Quantity.parse("1Mi")), true),
        match("check-negative", "!(\"name\" in device.capacity[\"dra.example.com\"]) || "
            + "device.capacity[\"dra.example.com\"].name.isGreaterThan(quantity(\"1Ki\"))", "", none, noCap, true),
        match("many", "device.attributes[\"dra.example.com\"].a && device.attributes[\"dra.example.com\"].b && "
            + "device.attributes[\"dra.example.com\"].c", DRA,
            Map.of("a", DeviceAttribute.ofBool(true), "b", DeviceAttribute.ofBool(true),
                "c", DeviceAttribute.ofBool(true)), noCap, true),
        // FleetKit has no consumable capacity: upstream's case with that feature disabled.
        new Case("allow_multiple_allocations_disabled", "device.allowMultipleAllocations == false", DRA, none,
            noCap, "undefined field 'allowMultipleAllocations'", null, false))
        .map(c -> Arguments.of(c.name(), c));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("upstreamCases")
  void upstreamTable_eachCase_asUpstream(String name, Case c) {
    if (c.compileError() != null) {
      assertThatThrownBy(() -> DeviceSelectorExpression.compile(c.expression()))
          .isInstanceOf(DeviceSelectorException.class).hasMessageContaining(c.compileError());
      return;
    }
    DeviceSelectorExpression e = DeviceSelectorExpression.compile(c.expression());
    Device device = new Device("device-0", c.attributes(), c.capacity());
    if (c.matchError() != null) {
      assertThatThrownBy(() -> e.matches(c.driver(), device))
          .isInstanceOf(DeviceSelectorException.class).hasMessageContaining(c.matchError());
      return;
    }
    assertThat(e.matches(c.driver(), device)).isEqualTo(c.match());
  }

  /** The upstream cases outside the subset: refused when compiled, with a message naming the construct. */
  static Stream<Arguments> outsideSubset() {
    return Stream.of(
        Arguments.of("bind", "cel.bind(dra, device.attributes[\"dra.example.com\"], dra.name)", "'cel'"),
        Arguments.of("macro-exists-on-int", "device.attributes[\"dra.example.com\"].name.exists(x, x > 0)",
            "'exists'"),
        Arguments.of("includes", "device.attributes[\"dra.example.com\"].name.includes(\"fish\")", "'includes'"),
        Arguments.of("list-of-int", "device.attributes[\"dra.example.com\"].names.size() == 2", "'size'"),
        Arguments.of("in-operator-on-list", "1 in device.attributes[\"dra.example.com\"].names", "'in' on dyn"),
        Arguments.of("version", "device.attributes[\"dra.example.com\"].name.isGreaterThan(semver(\"0.0.1\"))",
            "'semver'"),
        Arguments.of("check_attribute_domains", "device.attributes.exists_one(x, x == \"dra.example.com\")",
            "'exists_one'"),
        Arguments.of("split_attribute", "device.attributes[\"dra.example.com\"].services.split(\"example\").size()"
            + " >= 2", "'split'"),
        Arguments.of("regexp_attribute", "device.attributes[\"dra.example.com\"].services.matches(\"[^a]?sym\")",
            "'matches'"),
        Arguments.of("expensive", "[1, 2, 3].all(x, x < 100)", "list literal"),
        Arguments.of("allow_multiple_allocations", "device.allowMultipleAllocations == true",
            "undefined field 'allowMultipleAllocations'"),
        Arguments.of("arithmetic", "device.attributes[\"dra.example.com\"].n + 1 > 2", "arithmetic"),
        Arguments.of("conditional", "true ? true : false", "conditional"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("outsideSubset")
  void compile_outsideSubset_refusedNamingTheConstruct(String name, String expression, String construct) {
    assertThatThrownBy(() -> DeviceSelectorExpression.compile(expression))
        .isInstanceOf(DeviceSelectorException.class).hasMessageContaining(construct);
  }

  @Test
  void compareTo_quantities_signOfTheComparison() {
    Device d = Device.builder("gpu-0").capacity("gpu.example.com/memory", Quantity.parse("40Gi")).build();
    assertThat(DeviceSelectorExpression.compile(
        "device.capacity[\"gpu.example.com\"].memory.compareTo(quantity(\"40Gi\")) >= 0")
        .matches("gpu.example.com", d)).isTrue();
    assertThat(DeviceSelectorExpression.compile(
        "device.capacity[\"gpu.example.com\"].memory.compareTo(quantity(\"80Gi\")) >= 0")
        .matches("gpu.example.com", d)).isFalse();
    assertThat(DeviceSelectorExpression.compile(
        "device.capacity[\"gpu.example.com\"].memory.isLessThan(quantity(\"80Gi\"))")
        .matches("gpu.example.com", d)).isTrue();
  }

  @Test
  void logicalOperators_errorAbsorbedByTheDecidingSide_asCelCommutativeLogic() {
    Device d = Device.of("d");
    DeviceSelectorExpression andFalse = DeviceSelectorExpression.compile(
        "device.attributes[\"x.example.com\"].missing && false");
    assertThat(andFalse.matches("x.example.com", d)).isFalse();
    DeviceSelectorExpression orTrue = DeviceSelectorExpression.compile(
        "device.attributes[\"x.example.com\"].missing || true");
    assertThat(orTrue.matches("x.example.com", d)).isTrue();
    DeviceSelectorExpression andTrue = DeviceSelectorExpression.compile(
        "device.attributes[\"x.example.com\"].missing && true");
    assertThatThrownBy(() -> andTrue.matches("x.example.com", d)).hasMessageContaining("no such key: missing");
  }

  @Test
  void relation_mismatchedRuntimeTypes_noSuchOverload() {
    Device d = Device.builder("d").attribute("model", DeviceAttribute.ofString("a100")).build();
    DeviceSelectorExpression e = DeviceSelectorExpression.compile("device.attributes[\"g.example.com\"].model > 1");
    assertThatThrownBy(() -> e.matches("g.example.com", d)).hasMessageContaining("no such overload");
  }

  @Test
  void relation_staticallyMismatchedTypes_refusedAtCompile() {
    assertThatThrownBy(() -> DeviceSelectorExpression.compile("device.driver == 1"))
        .hasMessageContaining("found no matching overload for '_==_' applied to '(string, int)'");
  }

  @Test
  void quantity_invalidLiteral_refusedAtCompile() {
    assertThatThrownBy(() -> DeviceSelectorExpression.compile(
        "device.capacity[\"d.example.com\"].m.compareTo(quantity(\"lots\")) > 0"))
        .hasMessageContaining("quantity(\"lots\")");
  }

  @Test
  void realClassSelectors_matchAsWritten() {
    Device a100 = Device.builder("gpu-0").attribute("model", DeviceAttribute.ofString("a100"))
        .attribute("gpu.example.com/numa", DeviceAttribute.ofInt(1))
        .capacity("memory", Quantity.parse("80Gi")).build();
    for (String expr : List.of(
        "device.driver == \"gpu.example.com\" && device.attributes[\"gpu.example.com\"].model == \"a100\"",
        "device.capacity[\"gpu.example.com\"].memory.compareTo(quantity(\"40Gi\")) >= 0",
        "device.attributes['gpu.example.com'].numa != 0 && !(device.attributes[\"gpu.example.com\"].model == 'h100')",
        "\"model\" in device.attributes[\"gpu.example.com\"] && (1 <= 2 || false)")) {
      assertThat(DeviceSelectorExpression.compile(expr).matches("gpu.example.com", a100)).as(expr).isTrue();
    }
  }

  @Test
  void result_nonBoolAttribute_cannotBeConvertedToBool() {
    Device d = Device.builder("d").attribute("n", DeviceAttribute.ofInt(3)).build();
    assertThatThrownBy(() -> DeviceSelectorExpression.compile("device.attributes[\"d.example.com\"].n")
        .matches("d.example.com", d)).hasMessageContaining("could not be converted to bool");
  }

  /**
   * cel-spec langdef.md: {@code DIGIT ::= [0-9]}, {@code IDENT ::= [_a-zA-Z][_a-zA-Z0-9]*}, whitespace
   * {@code [\t\n\f\r ]}. An Arabic-Indic three, an NKo one or a fullwidth five is not a number, and a letter of
   * another script does not start or continue a name: each is a syntax error naming its position.
   */
  @Test
  void compile_nonAsciiDigitsLettersAndSpaces_syntaxErrorAtTheirPosition() {
    assertThatThrownBy(() -> DeviceSelectorExpression.compile("\u0663 == 3"))
        .isInstanceOf(DeviceSelectorException.class).hasMessage("Syntax error: unexpected '\u0663' at position 0");
    assertThatThrownBy(() -> DeviceSelectorExpression.compile("3 == \u07c1"))
        .hasMessage("Syntax error: unexpected '\u07c1' at position 5");
    assertThatThrownBy(() -> DeviceSelectorExpression.compile("1\uff15 == 15"))
        .hasMessageStartingWith("Syntax error: ").hasMessageContaining("at position 1");
    assertThatThrownBy(() -> DeviceSelectorExpression.compile("-\u0663 == 3"))
        .isInstanceOf(DeviceSelectorException.class);
    assertThatThrownBy(() -> DeviceSelectorExpression.compile("device.driv\u00e9r == 'a'")) // the name stops at é
        .isInstanceOf(DeviceSelectorException.class).hasMessageStartingWith("undefined field 'driv' ");
    assertThatThrownBy(() -> DeviceSelectorExpression.compile("1 ==\u00a03"))
        .hasMessageStartingWith("Syntax error: ").hasMessageContaining("at position 4");
    assertThat(DeviceSelectorExpression.compile("3 ==\t3").matches("d.example.com", Device.of("d"))).isTrue();
  }
}
