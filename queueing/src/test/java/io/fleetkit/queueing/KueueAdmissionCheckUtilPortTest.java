package io.fleetkit.queueing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Ported from kubernetes-sigs/kueue {@code pkg/util/admissioncheck/admissioncheck_test.go} (commit ff69552e): {@code
 * TestConfigHelper} (as {@link AdmissionChecks#configFor}, with a map of configuration objects for Kueue's client and
 * its {@code ProvisioningRequestConfig} kind), {@code TestIndexerFunc} ({@link AdmissionChecks#configName}) and
 * {@code TestFilterCheckStates} ({@link AdmissionChecks#forController}). Skipped: {@code
 * TestGetMultiKueueAdmissionCheck} (3 cases) and {@code TestGetRemoteClusters} (4 cases), which read MultiKueue's
 * cluster configuration, not modelled.
 */
final class KueueAdmissionCheckUtilPortTest {
  private static final String GROUP = "kueue.x-k8s.io";
  private static final String KIND = "ProvisioningRequestConfig";
  private static final Map<String, String> CONFIGS = Map.of("config", "className/p1=v1/cpu");

  private static Map<String, AdmissionCheck> checks(AdmissionCheck... cs) {
    java.util.Map<String, AdmissionCheck> out = new java.util.HashMap<>();
    for (AdmissionCheck c : cs) {
      out.put(c.name(), c);
    }
    return out;
  }

  private static AdmissionCheck ac(String group, String kind, String name) {
    return AdmissionCheck.of("ac", "test-controller").withParameters(new AdmissionCheck.Parameters(group, kind, name));
  }

  // TestConfigHelper

  @Test
  void configHelper_admissionCheckBadName() {
    assertThatThrownBy(() -> AdmissionChecks.configFor(checks(), "123", GROUP, KIND, CONFIGS::get))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("AdmissionCheck 123");
  }

  @Test
  void configHelper_noParameterReference() {
    assertThatThrownBy(() -> AdmissionChecks.configFor(checks(AdmissionCheck.of("ac", "c")), "ac", GROUP, KIND,
        CONFIGS::get)).hasMessageEndingWith(AdmissionCheck.MISSING_PARAMETERS);
  }

  @Test
  void configHelper_badParameterReferenceNoName() {
    assertThatThrownBy(() -> AdmissionChecks.configFor(checks(ac(GROUP, KIND, "")), "ac", GROUP, KIND, CONFIGS::get))
        .hasMessageEndingWith(AdmissionCheck.BAD_PARAMETERS).hasMessageContaining("empty name");
  }

  @Test
  void configHelper_badParameterReferenceBadGroup() {
    assertThatThrownBy(() -> AdmissionChecks.configFor(checks(ac("not-" + GROUP, KIND, "config")), "ac", GROUP, KIND,
        CONFIGS::get)).hasMessageEndingWith(AdmissionCheck.BAD_PARAMETERS)
        .hasMessageContaining("wrong group \"not-kueue.x-k8s.io\", expecting \"kueue.x-k8s.io\"");
  }

  @Test
  void configHelper_badParameterReferenceBadKind() {
    assertThatThrownBy(() -> AdmissionChecks.configFor(checks(ac(GROUP, "NptProvisioningRequestConfig", "config")),
        "ac", GROUP, KIND, CONFIGS::get)).hasMessageEndingWith(AdmissionCheck.BAD_PARAMETERS)
        .hasMessageContaining("wrong kind");
  }

  @Test
  void configHelper_configNotFound() {
    assertThatThrownBy(() -> AdmissionChecks.configFor(checks(ac(GROUP, KIND, "config")), "ac", GROUP, KIND,
        name -> null)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not found");
  }

  @Test
  void configHelper_configFound() {
    assertThat(AdmissionChecks.configFor(checks(ac(GROUP, KIND, "config")), "ac", GROUP, KIND, CONFIGS::get))
        .isEqualTo("className/p1=v1/cpu");
  }

  // TestIndexerFunc

  @Test
  void indexer_nilAc() {
    assertThat(AdmissionChecks.configName(null, "test-controller", GROUP, KIND)).isNull();
  }

  @Test
  void indexer_wrongController() {
    AdmissionCheck c = AdmissionCheck.of("ac", "other-controller")
        .withParameters(new AdmissionCheck.Parameters(GROUP, KIND, "config-name"));
    assertThat(AdmissionChecks.configName(c, "test-controller", GROUP, KIND)).isNull();
  }

  @Test
  void indexer_wrongRef() {
    AdmissionCheck c = AdmissionCheck.of("ac", "test-controller")
        .withParameters(new AdmissionCheck.Parameters(GROUP, "NotProvisioningRequestConfig", "config-name"));
    assertThat(AdmissionChecks.configName(c, "test-controller", GROUP, KIND)).isNull();
  }

  @Test
  void indexer_good() {
    AdmissionCheck c = AdmissionCheck.of("ac", "test-controller")
        .withParameters(new AdmissionCheck.Parameters(GROUP, KIND, "config-name"));
    assertThat(AdmissionChecks.configName(c, "test-controller", GROUP, KIND)).isEqualTo("config-name");
  }

  // TestFilterCheckStates

  private static AdmissionCheckState state(String name) {
    return AdmissionCheckState.of(name, CheckState.PENDING, "");
  }

  @Test
  void filter_empty() {
    assertThat(AdmissionChecks.forController(List.of(), checks(), "test-controller")).isEmpty();
  }

  @Test
  void filter_noMatch() {
    assertThat(AdmissionChecks.forController(List.of(state("check1"), state("check2"), state("check3")), checks(),
        "test-controller")).isEmpty();
  }

  @Test
  void filter_twoMatches() {
    Map<String, AdmissionCheck> cs = checks(AdmissionCheck.of("check1", "test-controller"),
        AdmissionCheck.of("check2", "other-controller"), AdmissionCheck.of("check3", "test-controller"));
    assertThat(AdmissionChecks.forController(List.of(state("check1"), state("check2"), state("check3")), cs,
        "test-controller")).containsExactly("check1", "check3");
  }
}
