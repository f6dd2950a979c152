package io.fleetkit.networking.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.gateway.GatewayClass;
import io.fleetkit.api.meta.Condition;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The GatewayClass {@code SupportedVersion} condition, as kubernetes-sigs/gateway-api {@code apis/v1/
 * gatewayclass_types.go} (commit 4564255a) specifies it: set whenever the class is marked Accepted, True with reason
 * {@code SupportedVersion} for a supported bundle version, else False with {@code UnsupportedVersion} and a message
 * naming the detected and the supported versions (the class stays Accepted: "best effort" support). The upstream
 * conformance suite has no test of this condition.
 */
final class GatewayClassSupportedVersionTest {
  private static final String OURS = GatewayStatusController.DEFAULT_CONTROLLER_NAME;

  private static GatewayClass run(UnaryOperator<GatewayStatusController.Builder> options, GatewayClass c) {
    ManualClock clock = ManualClock.atEpoch2026();
    try (ObjectStore store = ObjectStore.builder().directDelivery().build();
        GatewayStatusController controller = options.apply(GatewayStatusController.builder(store).clock(clock)
            .stepping()).build()) {
      store.create(c);
      controller.start().join();
      controller.runUntilIdle();
      return store.require(GatewayClass.class, "", c.metadata().name());
    }
  }

  private static GatewayClass ours() {
    return new GatewayClass(ObjectMeta.of("fleetkit"), OURS);
  }

  @Test
  void fleetKitsOwnKinds_supportedVersionTrue() {
    GatewayClass c = run(b -> b, ours());
    Condition v = c.status().condition(Conditions.SUPPORTED_VERSION);
    assertThat(v).isNotNull();
    assertThat(v.status()).isEqualTo(ConditionStatus.True);
    assertThat(v.reason()).isEqualTo("SupportedVersion");
    assertThat(v.message()).isEqualTo("Gateway API bundle version v1.6.1 is supported");
    assertThat(v.observedGeneration()).isEqualTo(c.metadata().generation());
    assertThat(v.lastTransitionTime()).isEqualTo(ManualClock.atEpoch2026().instant());
    assertThat(c.status().conditions()).extracting(Condition::type)
        .containsExactly(Conditions.ACCEPTED, Conditions.SUPPORTED_VERSION);
  }

  @Test
  void otherSupportedRelease_true() {
    Condition v = run(b -> b.crdBundleVersion("v1.6.0"), ours()).status().condition(Conditions.SUPPORTED_VERSION);
    assertThat(v.isTrue()).isTrue();
    assertThat(v.message()).contains("v1.6.0");
  }

  @Test
  void unsupportedVersion_falseButStillAccepted() {
    GatewayClass c = run(b -> b.crdBundleVersion("v1.2.0"), ours());
    Condition v = c.status().condition(Conditions.SUPPORTED_VERSION);
    assertThat(v.status()).isEqualTo(ConditionStatus.False);
    assertThat(v.reason()).isEqualTo("UnsupportedVersion");
    // the detected and the supported versions, as upstream's reason asks
    assertThat(v.message()).isEqualTo("Gateway API bundle version v1.2.0 is not supported; supported: v1.6.0, v1.6.1");
    assertThat(c.status().condition(Conditions.ACCEPTED).isTrue()).isTrue();
  }

  @Test
  void crdsWithoutTheAnnotation_false() {
    Condition v = run(b -> b.crdBundleVersion(""), ours()).status().condition(Conditions.SUPPORTED_VERSION);
    assertThat(v.status()).isEqualTo(ConditionStatus.False);
    assertThat(v.reason()).isEqualTo("UnsupportedVersion");
    assertThat(v.message()).startsWith("the Gateway API CRDs have no gateway.networking.k8s.io/bundle-version"
        + " annotation");
  }

  @Test
  void anotherControllersClass_noCondition() {
    GatewayClass c = run(b -> b, new GatewayClass(ObjectMeta.of("other"), "example.com/other"));
    assertThat(c.status().conditions()).isEmpty();
  }

  @ParameterizedTest
  @ValueSource(strings = {"1.6.1", "v1.6", "latest", " v1.6.1"})
  void crdBundleVersion_notAVersion_refused(String version) {
    try (ObjectStore store = ObjectStore.inMemory()) {
      assertThatThrownBy(() -> GatewayStatusController.builder(store).crdBundleVersion(version))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("crdBundleVersion must be a version such as v1.6.1")
          .hasMessageContaining("\"" + version + "\"");
    }
  }

  @Test
  void generationBump_observedGenerationFollows_transitionTimeKept() {
    ManualClock clock = ManualClock.atEpoch2026();
    try (ObjectStore store = ObjectStore.builder().directDelivery().build();
        GatewayStatusController controller = GatewayStatusController.builder(store).clock(clock).stepping()
            .build()) {
      store.create(ours());
      controller.start().join();
      controller.runUntilIdle();
      Instant first = store.require(GatewayClass.class, "", "fleetkit").status()
          .condition(Conditions.SUPPORTED_VERSION).lastTransitionTime();
      clock.advance(Duration.ofMinutes(5));
      GatewayClass c = store.require(GatewayClass.class, "", "fleetkit");
      store.update(c.withDescription("the edge"));
      controller.runUntilIdle();
      GatewayClass after = store.require(GatewayClass.class, "", "fleetkit");
      Condition v = after.status().condition(Conditions.SUPPORTED_VERSION);
      assertThat(after.metadata().generation()).isGreaterThan(c.metadata().generation());
      assertThat(v.observedGeneration()).isEqualTo(after.metadata().generation());
      assertThat(v.lastTransitionTime()).isEqualTo(first);
    }
  }
}
