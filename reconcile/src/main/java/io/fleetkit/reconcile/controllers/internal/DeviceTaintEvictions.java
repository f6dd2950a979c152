package io.fleetkit.reconcile.controllers.internal;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodResourceClaim;
import io.fleetkit.api.resource.dra.AllocationResult;
import io.fleetkit.api.resource.dra.Device;
import io.fleetkit.api.resource.dra.DeviceRequestAllocationResult;
import io.fleetkit.api.resource.dra.DeviceTaint;
import io.fleetkit.api.resource.dra.DeviceTaintEffect;
import io.fleetkit.api.resource.dra.DeviceTaintRule;
import io.fleetkit.api.resource.dra.DeviceToleration;
import io.fleetkit.api.resource.dra.ResourceClaim;
import io.fleetkit.api.resource.dra.ResourceClaimConsumerReference;
import io.fleetkit.api.resource.dra.ResourceSlice;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * The arithmetic of Kubernetes' device taint eviction controller
 * ({@code pkg/controller/devicetainteviction/device_taint_eviction.go}) over one snapshot of slices and rules: which
 * NoExecute taints reach a claim's allocated devices, from the device's ResourceSlice or from a DeviceTaintRule
 * matching it ({@code allEvictingDeviceTaints}); when the claim's pods must go ({@code claimEvictionTime}: for each
 * such taint its {@code timeAdded}, plus the smallest {@code tolerationSeconds} of the allocated request's
 * tolerations with effect NoExecute that tolerate it (negative counts as 0), none when one of them tolerates it
 * without seconds; the earliest over all taints); and when a pod must go ({@code podEvictionTime}: a pod on a node,
 * the earliest over the allocated claims it uses and that are reserved for it, all reasons joined).
 *
 * <p>Only the slices of a pool's newest generation count ({@code pool.getDevice}). Not thread-safe (it remembers
 * each claim's eviction): one instance per pass over a snapshot.
 */
public final class DeviceTaintEvictions {
  private final Map<String, Map<String, Located>> devicesByPool;
  private final List<DeviceTaintRule> rules;
  private final Function<String, Instant> timeAddedFallback;
  private final Map<String, @Nullable Eviction> claimCache = new HashMap<>();

  private record Located(ResourceSlice slice, Device device) {}

  private DeviceTaintEvictions(Map<String, Map<String, Located>> devicesByPool, List<DeviceTaintRule> rules,
      Function<String, Instant> timeAddedFallback) {
    this.devicesByPool = devicesByPool;
    this.rules = rules;
    this.timeAddedFallback = timeAddedFallback;
  }

  /**
   * A snapshot of {@code slices} and the {@code rules} (only those with effect NoExecute count).
   * {@code timeAddedFallback} gives the time of a taint without {@code timeAdded}, by the taint's {@link Reason#id()}
   * (Kubernetes' API server always sets it; a caller remembers when it first saw the taint).
   */
  public static DeviceTaintEvictions of(Collection<ResourceSlice> slices, Collection<DeviceTaintRule> rules,
      Function<String, Instant> timeAddedFallback) {
    Map<String, Long> newest = new HashMap<>();
    for (ResourceSlice s : slices) {
      newest.merge(poolKey(s.spec().driver(), s.spec().pool().name()), s.spec().pool().generation(), Math::max);
    }
    Map<String, Map<String, Located>> pools = new HashMap<>();
    for (ResourceSlice s : slices) {
      String key = poolKey(s.spec().driver(), s.spec().pool().name());
      if (s.spec().pool().generation() != newest.get(key)) {
        continue;
      }
      Map<String, Located> devices = pools.computeIfAbsent(key, k -> new HashMap<>());
      for (Device d : s.spec().devices()) {
        devices.putIfAbsent(d.name(), new Located(s, d));
      }
    }
    List<DeviceTaintRule> evicting = new ArrayList<>();
    for (DeviceTaintRule r : rules) {
      if (r.spec().taint().effect() == DeviceTaintEffect.NO_EXECUTE) {
        evicting.add(r);
      }
    }
    evicting.sort(Comparator.comparing(r -> r.metadata().name()));
    return new DeviceTaintEvictions(pools, List.copyOf(evicting), Objects.requireNonNull(timeAddedFallback));
  }

  private static String poolKey(String driver, String pool) {
    return driver + "/" + pool;
  }

  /**
   * One NoExecute taint that causes an eviction: a DeviceTaintRule ({@code rule} set) or taint number
   * {@code taintIndex} of a device in ResourceSlice {@code slice}. Ordered as upstream's {@code trackedTaint.Compare}:
   * rules first by name, then slice taints by driver, pool, device and index.
   */
  public record Reason(@Nullable String rule, String slice, String driver, String pool, String device,
      int taintIndex) implements Comparable<Reason> {
    private static final Comparator<Reason> ORDER = Comparator.comparing((Reason r) -> r.rule == null)
        .thenComparing(r -> r.rule == null ? "" : r.rule).thenComparing(Reason::driver)
        .thenComparing(Reason::pool).thenComparing(Reason::device).thenComparingInt(Reason::taintIndex);

    static Reason ofRule(DeviceTaintRule r) {
      return new Reason(r.metadata().name(), "", "", "", "", 0);
    }

    /** A stable identity of the taint, for remembering when it was first seen. */
    public String id() {
      return rule != null ? "rule/" + rule : sliceTaintId(driver, pool, device, taintIndex);
    }

    @Override
    public int compareTo(Reason o) {
      return ORDER.compare(this, o);
    }

    /** As upstream's {@code trackedTaint.String}. */
    @Override
    public String toString() {
      return rule != null ? "DeviceTaintRule " + rule
          : "ResourceSlice " + slice + " " + driver + "/" + pool + "/" + device + " taint #" + taintIndex;
    }
  }

  /** The {@link Reason#id()} of {@code rule}'s taint. */
  public static String ruleTaintId(DeviceTaintRule rule) {
    return "rule/" + rule.metadata().name();
  }

  /** The {@link Reason#id()} of taint number {@code index} of a published device. */
  public static String sliceTaintId(String driver, String pool, String device, int index) {
    return "slice/" + driver + "/" + pool + "/" + device + "/" + index;
  }

  /** When pods must be evicted and every taint that causes it ({@code evictionAndReason}), reasons sorted. */
  public record Eviction(Instant when, List<Reason> reasons) {
    public Eviction {
      Objects.requireNonNull(when, "when");
      reasons = List.copyOf(reasons);
    }

    /** Whether {@code rule} is among the reasons. */
    public boolean causedBy(String rule) {
      for (Reason r : reasons) {
        if (rule.equals(r.rule())) {
          return true;
        }
      }
      return false;
    }

    /** The earlier time of the two, and the reasons of both. */
    Eviction join(Eviction other) {
      TreeSet<Reason> all = new TreeSet<>(reasons);
      all.addAll(other.reasons);
      return new Eviction(when.isBefore(other.when) ? when : other.when, new ArrayList<>(all));
    }
  }

  /** Upstream's {@code claimEvictionTime} for an allocated claim, or {@code null} when no taint requires eviction. */
  public @Nullable Eviction claimEviction(ResourceClaim claim) {
    String key = claim.metadata().key();
    if (claimCache.containsKey(key)) {
      return claimCache.get(key);
    }
    Eviction e = computeClaimEviction(claim);
    claimCache.put(key, e);
    return e;
  }

  private @Nullable Eviction computeClaimEviction(ResourceClaim claim) {
    AllocationResult allocation = claim.status().allocation();
    if (allocation == null) {
      return null;
    }
    Instant when = null;
    TreeSet<Reason> reasons = new TreeSet<>();
    for (DeviceRequestAllocationResult r : allocation.devices()) {
      Map<String, Located> pool = devicesByPool.get(poolKey(r.driver(), r.pool()));
      Located found = pool == null ? null : pool.get(r.device());
      List<DeviceTaint> taints = new ArrayList<>();
      List<Reason> origins = new ArrayList<>();
      if (found != null) {
        List<DeviceTaint> own = found.device().taints();
        for (int i = 0; i < own.size(); i++) {
          if (own.get(i).effect() == DeviceTaintEffect.NO_EXECUTE) {
            taints.add(own.get(i));
            origins.add(new Reason(null, found.slice().metadata().name(), r.driver(), r.pool(), r.device(), i));
          }
        }
      }
      for (DeviceTaintRule rule : rules) {
        if (rule.matches(r.driver(), r.pool(), r.device())) {
          taints.add(rule.spec().taint());
          origins.add(Reason.ofRule(rule));
        }
      }
      for (int i = 0; i < taints.size(); i++) {
        Instant t = evictionTime(taints.get(i), origins.get(i), r.tolerations());
        if (t == null) {
          continue;
        }
        reasons.add(origins.get(i));
        if (when == null || t.isBefore(when)) {
          when = t;
        }
      }
    }
    return when == null ? null : new Eviction(when, new ArrayList<>(reasons));
  }

  /** When one taint evicts, given the allocated request's tolerations; {@code null} when tolerated forever. */
  private @Nullable Instant evictionTime(DeviceTaint taint, Reason origin, List<DeviceToleration> tolerations) {
    Instant added = taint.timeAdded() != null ? taint.timeAdded() : timeAddedFallback.apply(origin.id());
    long seconds = Long.MAX_VALUE;
    boolean tolerated = false;
    for (DeviceToleration t : tolerations) {
      // upstream counts only tolerations naming the NoExecute effect
      if (t.effect() == DeviceTaintEffect.NO_EXECUTE && t.toleratesTaint(taint)) {
        if (t.tolerationSeconds() == null) {
          return null;
        }
        seconds = Math.min(seconds, Math.max(0, t.tolerationSeconds()));
        tolerated = true;
      }
    }
    return tolerated ? added.plusSeconds(seconds) : added;
  }

  /**
   * Upstream's {@code podEvictionTime}: {@code null} for a pod not on a node; else the join of the evictions of the
   * allocated claims ({@code claims} by {@code namespace/name}) it names, made for it when from a template, and
   * reserved for it.
   */
  public @Nullable Eviction podEviction(Pod pod, Map<String, ResourceClaim> claims) {
    if (!pod.isBound()) {
      return null;
    }
    Eviction out = null;
    String ns = pod.metadata().namespace();
    String uid = pod.metadata().uid();
    for (PodResourceClaim pc : pod.spec().resourceClaims()) {
      String name = pod.resourceClaimName(pc);
      if (name == null || name.isEmpty()) {
        continue;
      }
      ResourceClaim claim = claims.get(ns + "/" + name);
      if (claim == null || claim.status().allocation() == null) {
        continue;
      }
      if (pc.fromTemplate()) {
        if (!claim.metadata().isControlledBy(uid)) {
          continue; // resourceclaim.IsForPod
        }
      }
      if (!reservedFor(claim, pod)) {
        continue;
      }
      Eviction e = claimEviction(claim);
      if (e != null) {
        out = out == null ? e : out.join(e);
      }
    }
    return out;
  }

  private static boolean reservedFor(ResourceClaim claim, Pod pod) {
    for (ResourceClaimConsumerReference c : claim.status().reservedFor()) {
      if (c.apiGroup().isEmpty() && c.resource().equals("pods") && c.uid().equals(pod.metadata().uid())) {
        return true;
      }
    }
    return false;
  }

  /** How many published devices (of each pool's newest generation) {@code rule} matches. */
  public long publishedDevicesMatching(DeviceTaintRule rule) {
    long n = 0;
    for (Map<String, Located> pool : devicesByPool.values()) {
      for (Located l : pool.values()) {
        if (rule.matches(l.slice().spec().driver(), l.slice().spec().pool().name(), l.device().name())) {
          n++;
        }
      }
    }
    return n;
  }

  /** How many allocated devices of {@code claims} {@code rule} matches. */
  public static long allocatedDevicesMatching(DeviceTaintRule rule, Collection<ResourceClaim> claims) {
    long n = 0;
    for (ResourceClaim c : claims) {
      AllocationResult a = c.status().allocation();
      if (a == null) {
        continue;
      }
      for (DeviceRequestAllocationResult r : a.devices()) {
        if (rule.matches(r.driver(), r.pool(), r.device())) {
          n++;
        }
      }
    }
    return n;
  }
}
