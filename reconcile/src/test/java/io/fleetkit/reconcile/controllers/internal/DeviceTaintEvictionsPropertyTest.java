package io.fleetkit.reconcile.controllers.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.dra.AllocationResult;
import io.fleetkit.api.resource.dra.Device;
import io.fleetkit.api.resource.dra.DeviceRequest;
import io.fleetkit.api.resource.dra.DeviceRequestAllocationResult;
import io.fleetkit.api.resource.dra.DeviceTaint;
import io.fleetkit.api.resource.dra.DeviceTaintEffect;
import io.fleetkit.api.resource.dra.DeviceTaintRule;
import io.fleetkit.api.resource.dra.DeviceTaintSelector;
import io.fleetkit.api.resource.dra.DeviceToleration;
import io.fleetkit.api.resource.dra.ExactDeviceRequest;
import io.fleetkit.api.resource.dra.ResourceClaim;
import io.fleetkit.api.resource.dra.ResourceClaimSpec;
import io.fleetkit.api.resource.dra.ResourcePool;
import io.fleetkit.api.resource.dra.ResourceSlice;
import io.fleetkit.api.resource.dra.ResourceSliceSpec;
import io.fleetkit.reconcile.controllers.internal.DeviceTaintEvictions.Eviction;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Invariants of the device taint eviction arithmetic: a claim with one more toleration without seconds is never
 * evicted earlier (nor at all when it was not before; a toleration with seconds may well make it earlier, as the
 * smallest matching {@code tolerationSeconds} counts), a device with more rules tainting it never later; and the eviction time is always
 * the time of some NoExecute taint plus a non-negative delay, never before the earliest taint.
 */
final class DeviceTaintEvictionsPropertyTest {
  private static final Instant T0 = Instant.parse("2000-01-01T00:00:00Z");
  private static final String DRIVER = "gpu.example.com";
  private static final String POOL = "node-1";

  private static ResourceSlice slice(List<DeviceTaint> taints) {
    Device.Builder d = Device.builder("gpu-0");
    for (DeviceTaint t : taints) {
      d.taint(t);
    }
    return ResourceSlice.of("node-1-gpu", ResourceSliceSpec.builder(DRIVER, new ResourcePool(POOL, 1, 1))
        .nodeName(POOL).devices(List.of(d.build())).build());
  }

  private static ResourceClaim claim(List<DeviceToleration> tolerations) {
    ResourceClaim c = ResourceClaim.of(ObjectMeta.of("default", "c"),
        ResourceClaimSpec.of(new DeviceRequest("req-1", ExactDeviceRequest.count("gpu", 1))));
    return c.withStatus(c.status().withAllocation(new AllocationResult(List.of(
        new DeviceRequestAllocationResult("req-1", DRIVER, POOL, "gpu-0", false, tolerations)), null)));
  }

  private static List<DeviceTaintRule> rules(List<DeviceTaint> taints) {
    List<DeviceTaintRule> out = new ArrayList<>();
    for (int i = 0; i < taints.size(); i++) {
      out.add(DeviceTaintRule.of("rule-" + i, DeviceTaintSelector.device(DRIVER, POOL, "gpu-0"), taints.get(i)));
    }
    return out;
  }

  private static Eviction eviction(List<DeviceTaint> own, List<DeviceTaint> ruled, List<DeviceToleration> tol) {
    return DeviceTaintEvictions.of(List.of(slice(own)), rules(ruled), id -> T0).claimEviction(claim(tol));
  }

  @Property
  void oneMoreForeverToleration_neverEarlier(@ForAll("taintLists") List<DeviceTaint> own,
      @ForAll("taintLists") List<DeviceTaint> ruled, @ForAll("tolerationLists") List<DeviceToleration> tol,
      @ForAll("tolerations") DeviceToleration extra) {
    Eviction before = eviction(own, ruled, tol);
    List<DeviceToleration> more = new ArrayList<>(tol);
    more.add(extra.withTolerationSeconds(null));
    Eviction after = eviction(own, ruled, more);
    if (before == null) {
      assertThat(after).isNull();
    } else if (after != null) {
      assertThat(after.when()).isAfterOrEqualTo(before.when());
    }
  }

  @Property
  void moreRules_neverLater(@ForAll("taintLists") List<DeviceTaint> own, @ForAll("taintLists") List<DeviceTaint> ruled,
      @ForAll("tolerationLists") List<DeviceToleration> tol, @ForAll("taints") DeviceTaint extra) {
    Eviction before = eviction(own, ruled, tol);
    List<DeviceTaint> more = new ArrayList<>(ruled);
    more.add(extra);
    Eviction after = eviction(own, more, tol);
    if (before != null) {
      assertThat(after).isNotNull();
      assertThat(after.when()).isBeforeOrEqualTo(before.when());
    }
  }

  @Property
  void evictsOnlyForNoExecute_neverBeforeTheEarliestTaint(@ForAll("taintLists") List<DeviceTaint> own,
      @ForAll("taintLists") List<DeviceTaint> ruled, @ForAll("tolerationLists") List<DeviceToleration> tol) {
    Eviction e = eviction(own, ruled, tol);
    List<DeviceTaint> all = new ArrayList<>(own);
    all.addAll(ruled);
    List<DeviceTaint> noExecute = all.stream().filter(t -> t.effect() == DeviceTaintEffect.NO_EXECUTE).toList();
    if (noExecute.isEmpty()) {
      assertThat(e).isNull();
      return;
    }
    if (tol.isEmpty()) {
      assertThat(e).isNotNull();
    }
    if (e != null) {
      Instant earliest = noExecute.stream().map(DeviceTaint::timeAdded).min(Instant::compareTo).orElseThrow();
      assertThat(e.when()).isAfterOrEqualTo(earliest);
      assertThat(e.reasons()).isNotEmpty();
    }
  }

  @Provide
  Arbitrary<DeviceTaint> taints() {
    return Combinators.combine(Arbitraries.of("a", "b"), Arbitraries.of("", "x"),
        Arbitraries.of(DeviceTaintEffect.class), Arbitraries.integers().between(0, 100))
        .as((k, v, e, s) -> new DeviceTaint(k, v, e, T0.plusSeconds(s)));
  }

  @Provide
  Arbitrary<List<DeviceTaint>> taintLists() {
    return taints().list().ofMaxSize(3);
  }

  @Provide
  Arbitrary<DeviceToleration> tolerations() {
    Arbitrary<Long> seconds = Arbitraries.longs().between(-5, 100).injectNull(0.3);
    return Combinators.combine(Arbitraries.of("", "a", "b"), Arbitraries.of(DeviceTaintEffect.NO_EXECUTE,
        DeviceTaintEffect.NO_SCHEDULE).injectNull(0.2), seconds)
        .as((k, e, s) -> DeviceToleration.exists(k, e).withTolerationSeconds(s));
  }

  @Provide
  Arbitrary<List<DeviceToleration>> tolerationLists() {
    return tolerations().list().ofMaxSize(3);
  }
}
