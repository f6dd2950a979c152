package io.fleetkit.store.etcd;

import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Runs the etcd tests only when an etcd is named by the system property {@code fleetkit.etcd}
 * ({@code http://127.0.0.1:23790} from {@code scripts/etcd-local.sh start}). When it is set the tests must reach it:
 * an unreachable etcd fails them ({@link io.fleetkit.api.StoreUnavailableException} from the first store built), it
 * never skips them.
 */
public final class LiveEtcd implements ExecutionCondition {
  static final String PROPERTY = "fleetkit.etcd";

  @Override
  public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
    String v = System.getProperty(PROPERTY, "");
    if (v.isBlank()) {
      return ConditionEvaluationResult.disabled("etcd tests skipped: " + PROPERTY + " is not set (start one with"
          + " scripts/etcd-local.sh start and pass -D" + PROPERTY + "=http://127.0.0.1:23790)");
    }
    return ConditionEvaluationResult.enabled(PROPERTY + "=" + v);
  }

  /** A builder for a store on the test etcd under a prefix of its own, so that every store starts empty. */
  static EtcdStoreBuilder newStore() {
    return EtcdStore.builder(endpoint()).prefix("/fleetkit-test/" + java.util.UUID.randomUUID());
  }

  /** The endpoint the tests use. */
  static String endpoint() {
    return System.getProperty(PROPERTY, "").trim();
  }
}
