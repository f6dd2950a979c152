package io.fleetkit.storage.scheduling;

import io.fleetkit.storage.scheduling.VolumeBindingState.StaticBinding;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Volumes the scheduler has promised to claims (Reserve) but not yet bound (PreBind), as kube's assume cache: other
 * pods' cycles must not pick them. Keyed by volume name, valued by claim key. Thread-safe.
 */
final class AssumeCache {
  private final ConcurrentHashMap<String, String> assumed = new ConcurrentHashMap<>();

  /** Promises {@code volume} to {@code claimKey}; false if it is promised to another claim. */
  boolean tryAssume(String volume, String claimKey) {
    String prev = assumed.putIfAbsent(volume, claimKey);
    return prev == null || prev.equals(claimKey);
  }

  void release(String volume, String claimKey) {
    assumed.remove(volume, claimKey);
  }

  /**
   * Promises each binding's volume to its claim, all or none (upstream's {@code AssumePodVolumes}); false, with
   * nothing promised, if one volume is promised to another claim.
   */
  boolean tryAssumeAll(List<StaticBinding> bindings) {
    List<StaticBinding> done = new ArrayList<>();
    for (StaticBinding b : bindings) {
      if (!tryAssume(b.pv().metadata().name(), b.claim().metadata().key())) {
        done.forEach(d -> release(d.pv().metadata().name(), d.claim().metadata().key()));
        return false;
      }
      done.add(b);
    }
    return true;
  }

  /** Releases each binding's promise. */
  void releaseAll(List<StaticBinding> bindings) {
    for (StaticBinding b : bindings) {
      release(b.pv().metadata().name(), b.claim().metadata().key());
    }
  }

  boolean assumedByOther(String volume, String claimKey) {
    String v = assumed.get(volume);
    return v != null && !v.equals(claimKey);
  }
}
