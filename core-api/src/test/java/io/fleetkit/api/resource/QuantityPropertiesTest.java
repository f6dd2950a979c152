package io.fleetkit.api.resource;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.resource.Quantity.Format;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/**
 * Invariants of {@link Quantity}, checked against {@link BigDecimal} as the reference. The round-trip properties
 * generalise upstream's {@code TestAddSubRoundTrip}, {@code TestAddSubRoundTripAcrossScales} and
 * {@code TestNegateRoundTrip} (quantity_test.go), which use random values.
 */
final class QuantityPropertiesTest {

  private static final BigInteger TEN_TO_40 = BigInteger.TEN.pow(40);

  @Provide
  Arbitrary<Quantity> quantities() {
    Arbitrary<Long> longs = Arbitraries.oneOf(
        Arbitraries.longs(),
        Arbitraries.longs().between(-1_000_000, 1_000_000),
        Arbitraries.of(0L, 1L, -1L, 1024L, 1L << 30, 3L << 40, Long.MAX_VALUE, Long.MIN_VALUE, Long.MIN_VALUE + 1));
    Arbitrary<Integer> scales = Arbitraries.integers().between(-9, 24);
    Arbitrary<Format> formats = Arbitraries.of(Format.class);
    Arbitrary<Quantity> small = Combinators.combine(longs, scales, formats)
        .as((v, s, f) -> Quantity.ofScaled(v, s).withFormat(f));
    Arbitrary<Quantity> large = Combinators.combine(
            Arbitraries.bigIntegers().between(TEN_TO_40.negate(), TEN_TO_40), scales, formats)
        .as((v, s, f) -> Quantity.of(new BigDecimal(v, -s), f));
    return Arbitraries.oneOf(small, large);
  }

  /** Quantities Kubernetes can hold without capping: binary SI ones fit an int64 in magnitude. */
  @Provide
  Arbitrary<Quantity> representable() {
    BigDecimal max = BigDecimal.valueOf(Long.MAX_VALUE);
    return quantities().filter(q -> q.format() != Format.BINARY_SI || q.toBigDecimal().abs().compareTo(max) <= 0);
  }

  @Property
  void parse_ofToString_equalsOriginal(@ForAll("representable") Quantity q) {
    Quantity reparsed = Quantity.parse(q.toString());

    assertThat(reparsed).isEqualTo(q);
    if (q.format() != Format.BINARY_SI) {
      // binary SI without a factor of 1024 prints a plain number, which reads back as decimal SI (as upstream)
      assertThat(reparsed.toString()).isEqualTo(q.toString());
    }
  }

  @Property
  void add_thenSubtract_returnsOriginal(@ForAll("quantities") Quantity a, @ForAll("quantities") Quantity b) {
    assertThat(a.add(b).subtract(b)).isEqualTo(a);
    assertThat(a.subtract(b).add(b)).isEqualTo(a);
  }

  @Property
  void addSubtractMultiply_matchBigDecimal(
      @ForAll("quantities") Quantity a, @ForAll("quantities") Quantity b, @ForAll long factor) {
    assertThat(a.add(b).toBigDecimal()).isEqualByComparingTo(a.toBigDecimal().add(b.toBigDecimal()));
    assertThat(a.subtract(b).toBigDecimal()).isEqualByComparingTo(a.toBigDecimal().subtract(b.toBigDecimal()));
    assertThat(a.multiply(factor).toBigDecimal())
        .isEqualByComparingTo(a.toBigDecimal().multiply(BigDecimal.valueOf(factor)));
    assertThat(a.add(b)).isEqualTo(b.add(a));
  }

  @Property
  void negate_twice_returnsOriginal(@ForAll("quantities") Quantity q) {
    assertThat(q.negate().negate()).isEqualTo(q);
    assertThat(q.add(q.negate()).isZero()).isTrue();
  }

  @Property
  void compareTo_matchesBigDecimal_consistentWithEqualsAndHashCode(
      @ForAll("quantities") Quantity a, @ForAll("quantities") Quantity b) {
    int expected = a.toBigDecimal().compareTo(b.toBigDecimal());

    assertThat(Integer.signum(a.compareTo(b))).isEqualTo(expected);
    assertThat(a.equals(b)).isEqualTo(expected == 0);
    if (expected == 0) {
      assertThat(a.hashCode()).isEqualTo(b.hashCode());
    }
  }

  @Property
  void hashCode_sameValueWrittenDifferently_equal(@ForAll("quantities") Quantity q, @ForAll @IntRange(max = 30) int pad) {
    BigDecimal v = q.toBigDecimal();
    Quantity padded = Quantity.of(v.setScale(v.scale() + pad), q.format());

    assertThat(padded).isEqualTo(q).hasSameHashCodeAs(q);
  }

  @Property
  void scaledValue_matchesRoundingAwayFromZeroWithSaturation(
      @ForAll("quantities") Quantity q, @ForAll @IntRange(min = -12, max = 12) int scale) {
    BigDecimal v = q.toBigDecimal().scaleByPowerOfTen(-scale).setScale(0, RoundingMode.UP);
    long expected = v.compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) > 0 ? Long.MAX_VALUE
        : v.compareTo(BigDecimal.valueOf(Long.MIN_VALUE)) < 0 ? Long.MIN_VALUE : v.longValueExact();

    assertThat(q.scaledValue(scale)).isEqualTo(expected);
  }

  /** Parsing a plain decimal with an SI suffix matches exact arithmetic rounded up to 1n (fast and slow paths). */
  @Property
  void parse_decimalWithSuffix_matchesReference(
      @ForAll("digitStrings") String whole,
      @ForAll("digitStrings") String fraction,
      @ForAll("decimalSuffixes") String suffix,
      @ForAll boolean negative) {
    String text = (negative ? "-" : "") + whole + "." + fraction + suffix;
    int exponent = switch (suffix) {
      case "n" -> -9;
      case "u" -> -6;
      case "m" -> -3;
      case "k" -> 3;
      case "M" -> 6;
      case "G" -> 9;
      case "T" -> 12;
      case "P" -> 15;
      case "E" -> 18;
      default -> 0;
    };
    BigDecimal reference = new BigDecimal((negative ? "-" : "") + whole + "." + fraction + "0")
        .scaleByPowerOfTen(exponent);
    if (reference.scale() > 9) {
      reference = reference.setScale(9, RoundingMode.UP);
    }

    assertThat(Quantity.parse(text).toBigDecimal()).as(text).isEqualByComparingTo(reference);
  }

  @Provide
  Arbitrary<String> digitStrings() {
    return Arbitraries.strings().withCharRange('0', '9').ofMinLength(1).ofMaxLength(24);
  }

  @Provide
  Arbitrary<String> decimalSuffixes() {
    return Arbitraries.of("n", "u", "m", "", "k", "M", "G", "T", "P", "E");
  }

  // TestAddSubRoundTrip / TestAddSubRoundTripAcrossScales (quantity_test.go): adding then removing many values
  // at one or many scales cancels exactly.
  @Property(tries = 200)
  void addAll_thenSubtractAll_isZero(
      @ForAll @Size(max = 100) List<@IntRange(min = -10, max = 10) Integer> scales, @ForAll long seed) {
    java.util.Random random = new java.util.Random(seed);
    long[] values = new long[scales.size()];
    Quantity sum = Quantity.ZERO;
    for (int i = 0; i < values.length; i++) {
      values[i] = random.nextLong() & Long.MAX_VALUE;
      sum = sum.add(Quantity.ofScaled(values[i], scales.get(i)));
    }
    for (int i = 0; i < values.length; i++) {
      sum = sum.subtract(Quantity.ofScaled(values[i], scales.get(i)));
    }

    assertThat(sum.isZero()).isTrue();
    assertThat(sum.toString()).isEqualTo("0");
  }
}
