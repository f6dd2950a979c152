package io.fleetkit.admission;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.ResourceQuota;
import io.fleetkit.api.core.ResourceQuotaStatus;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.resource.ResourceList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.Size;

/**
 * The ledger's primitive counters decide and print exactly as quantity arithmetic does ({@code quota.Add},
 * {@code SubtractWithNonNegativeResult}, the limit comparison), also for amounts that do not fit a {@code long} of
 * milli-units: finer than a milli-unit ({@code 1n}), or beyond the range ({@code 9Ei}).
 */
final class QuotaCountersPropertyTest {
  private static final String R = "requests.cpu";

  record Op(boolean add, Quantity amount) {}

  @Provide
  Arbitrary<Quantity> quantities() {
    Arbitrary<String> digits = Arbitraries.longs().between(0, 999_999).map(String::valueOf);
    Arbitrary<String> suffix = Arbitraries.of("", "m", "n", "u", "k", "M", "Ki", "Mi", "Gi", "Ti", "Ei", "e3");
    return Combinators.combine(digits, suffix).as((d, s) -> Quantity.parse(d + s));
  }

  @Provide
  Arbitrary<List<Op>> ops() {
    Arbitrary<Op> op = Combinators.combine(Arbitraries.of(true, true, false), quantities()).as(Op::new);
    return op.list().ofMinSize(1).ofMaxSize(30);
  }

  @Property(tries = 400)
  void countersAgreeWithQuantityArithmetic(@ForAll("quantities") Quantity hard, @ForAll("ops") List<Op> ops) {
    ResourceList hardList = ResourceList.builder().put(R, hard).build();
    ResourceQuota q = ResourceQuota.of("ns", "q", hardList)
        .withStatus(new ResourceQuotaStatus(hardList, ResourceList.builder().put(R, Quantity.ZERO).build()));
    QuotaCounters c = new QuotaCounters(q);
    Quantity used = Quantity.ZERO;
    for (Op op : ops) {
      Quantity a = op.amount();
      long d = QuotaCounters.milli(a);
      if (op.add()) {
        boolean refExceeds = used.add(a).compareTo(hard) > 0;
        assertThat(c.exceeds(0, d, d == QuotaCounters.INEXACT ? a : null)).as("exceeds %s + %s > %s", used, a, hard)
            .isEqualTo(refExceeds);
        if (!c.tryAdd(0, d)) {
          c.addExact(0, a);
        }
        used = used.add(a);
      } else {
        if (!c.trySubtract(0, d)) {
          c.subtractExact(0, a);
        }
        Quantity after = used.subtract(a);
        used = after.signum() < 0 ? Quantity.ZERO : after;
      }
      assertThat(c.usedQuantity(0)).isEqualTo(used);
      assertThat(c.usedQuantity(0)).hasToString(used.toString());
    }
    assertThat(c.usedList()).isEqualTo(ResourceList.builder().put(R, used).build());
    assertThat(c.status().used().get(R)).hasToString(used.toString());
  }

  @Property(tries = 100)
  void loadingAStoredUsage_keepsItsValueAndFormat(@ForAll("quantities") Quantity stored,
      @ForAll @Size(max = 3) List<@net.jqwik.api.constraints.IntRange(min = 1, max = 5000) Integer> milliAdds) {
    ResourceList hardList = ResourceList.builder().put(R, "1e30").build();
    ResourceQuota q = new ResourceQuota(ObjectMeta.of("ns", "q"), io.fleetkit.api.core.ResourceQuotaSpec.of(hardList),
        new ResourceQuotaStatus(hardList, ResourceList.builder().put(R, stored).build()));
    QuotaCounters c = new QuotaCounters(q);
    Quantity used = stored;
    for (int m : milliAdds) {
      if (!c.tryAdd(0, m)) {
        c.addExact(0, Quantity.ofMilli(m));
      }
      used = used.add(Quantity.ofMilli(m));
    }
    assertThat(c.usedQuantity(0)).isEqualTo(used).hasToString(used.toString());
  }
}
