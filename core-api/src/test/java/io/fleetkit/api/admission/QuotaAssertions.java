package io.fleetkit.api.admission;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.ResourceQuota;
import io.fleetkit.api.store.ObjectStore;
import java.util.List;
import java.util.function.Predicate;

/**
 * The closing check of the quota concurrency tests ({@link ConcurrentCreates}): the pods a quota applies to, as
 * stored, stay within its hard {@code pods} and {@code requests.cpu}, and its recorded usage counts them exactly.
 */
public final class QuotaAssertions {
  private QuotaAssertions() {}

  /**
   * Asserts that the pods of {@code namespace} that {@code applies} to quota {@code quota} stay within its hard
   * {@code pods} and {@code requests.cpu} (a limit it does not set is not checked) and that its
   * {@code status.used} holds their count and cpu requests; returns those pods.
   */
  public static List<Pod> assertWithinQuotaAndCounted(ObjectStore store, String namespace, String quota,
      Predicate<Pod> applies) {
    List<Pod> charged = store.list(Pod.class, namespace).items().stream().filter(applies).toList();
    long milli = charged.stream().mapToLong(p -> p.spec().effectiveRequests().milliCpu()).sum();
    ResourceQuota q = store.require(ResourceQuota.class, namespace, quota);
    if (q.spec().hard().has("pods")) {
      assertThat((long) charged.size()).as("pods under %s", quota).isLessThanOrEqualTo(q.spec().hard().pods());
    }
    if (q.spec().hard().has("requests.cpu")) {
      assertThat(milli).as("cpu under %s", quota).isLessThanOrEqualTo(q.spec().hard().milliValue("requests.cpu"));
    }
    assertThat(q.status().used().pods()).as("used pods of %s", quota).isEqualTo(charged.size());
    assertThat(q.status().used().milliValue("requests.cpu")).as("used cpu of %s", quota).isEqualTo(milli);
    return charged;
  }

  /** {@link #assertWithinQuotaAndCounted(ObjectStore, String, String, Predicate)} for a quota on every pod. */
  public static List<Pod> assertWithinQuotaAndCounted(ObjectStore store, String namespace, String quota) {
    return assertWithinQuotaAndCounted(store, namespace, quota, p -> true);
  }
}
