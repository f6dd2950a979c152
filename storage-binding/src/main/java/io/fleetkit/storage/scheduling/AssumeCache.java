package io.fleetkit.storage.scheduling;

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

  boolean assumedByOther(String volume, String claimKey) {
    String v = assumed.get(volume);
    return v != null && !v.equals(claimKey);
  }
}
