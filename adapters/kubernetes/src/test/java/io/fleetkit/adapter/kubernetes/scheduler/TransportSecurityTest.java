package io.fleetkit.adapter.kubernetes.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import org.junit.jupiter.api.Test;

final class TransportSecurityTest {
  @Test
  void weaknesses_trustCerts_namedWithTheServer() {
    Config c = new ConfigBuilder(Config.empty()).withMasterUrl("https://10.0.0.1:6443").withTrustCerts(true).build();
    assertThat(TransportSecurity.weaknesses(c)).singleElement().asString()
        .contains("TLS certificate verification").contains("https://10.0.0.1:6443").contains("disabled");
  }

  @Test
  void weaknesses_plainHttpAndNoHostnameCheck_bothNamed() {
    Config c = new ConfigBuilder(Config.empty()).withMasterUrl("http://10.0.0.1:8080")
        .withDisableHostnameVerification(true).build();
    assertThat(TransportSecurity.weaknesses(c)).hasSize(2).anySatisfy(w -> assertThat(w).contains("plain http"))
        .anySatisfy(w -> assertThat(w).contains("hostname verification"));
  }

  @Test
  void weaknesses_verifiedHttps_none() {
    Config c = new ConfigBuilder(Config.empty()).withMasterUrl("https://10.0.0.1:6443").build();
    assertThat(TransportSecurity.weaknesses(c)).isEmpty();
  }

  @Test
  void startup_eachWeaknessLoggedAsWarn_andTheSameLinesForReadyz() {
    Config c = new ConfigBuilder(Config.empty()).withMasterUrl("https://10.0.0.9:6443").withTrustCerts(true).build();
    java.util.List<String> readyz = KubernetesSchedulerMain.transportWarnings(c);
    assertThat(readyz).singleElement().asString().startsWith("insecure Kubernetes client configuration: TLS")
        .contains("https://10.0.0.9:6443");
    assertThat(io.fleetkit.api.testing.CapturedLogs.lines())
        .anyMatch(l -> l.startsWith("WARN ") && l.contains(readyz.get(0)));
  }
}
