package io.fleetkit.adapter.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.adapter.kubernetes.yaml.KubernetesYaml;
import io.fleetkit.adapter.kubernetes.yaml.LoadedObjects;
import io.fleetkit.api.core.Secret;
import io.fleetkit.api.testing.CapturedLogs;
import io.fleetkit.api.testing.SecretFixtures;
import java.util.List;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * No log line of this module's whole test run holds a secret value ({@link CapturedLogs}: the test Secret, token and
 * ConfigMap values, plain and base64). Runs last, after manifests with Secrets, a ConfigMap and a pod's env holding
 * the values were read, written back, and rejected for broken fields (the errors logged as a caller would).
 */
@Order(Integer.MAX_VALUE)
final class SecretValuesInLogsTest {
  private static final String GOOD = """
      apiVersion: v1
      kind: Secret
      metadata: {namespace: ns, name: db}
      stringData: {password: %s}
      ---
      apiVersion: v1
      kind: ConfigMap
      metadata: {namespace: ns, name: cfg}
      data: {api-key: %s}
      ---
      apiVersion: v1
      kind: Pod
      metadata: {namespace: ns, name: web}
      spec:
        containers:
        - name: app
          image: nginx
          env: [{name: TOKEN, value: %s}]
      """.formatted(CapturedLogs.TEST_SECRET, CapturedLogs.TEST_CONFIG_SECRET, CapturedLogs.TEST_TOKEN);

  private static final String BROKEN = """
      apiVersion: v1
      kind: Secret
      metadata: {namespace: ns, name: bad}
      type: kubernetes.io/basic-auth
      data: {"bad key!": %s, password: 12}
      ---
      apiVersion: v1
      kind: Pod
      metadata: {namespace: ns, name: bad}
      spec:
        containers:
        - name: app
          image: nginx
          env: [{name: TOKEN, value: %s, valueFrom: 7}]
          resources: {requests: {cpu: "-%s"}}
      """.formatted(java.util.Base64.getEncoder().encodeToString(CapturedLogs.TEST_SECRET.getBytes()),
      CapturedLogs.TEST_TOKEN, CapturedLogs.TEST_TOKEN);

  @Test
  void wholeSuite_noLogLineContainsASecretValue() {
    LoadedObjects good = KubernetesYaml.parse(GOOD, "good.yaml");
    assertThat(good.objects()).hasSize(3);
    assertThat(((Secret) good.objects().get(0)).data().get("password").toString())
        .doesNotContain(CapturedLogs.TEST_SECRET);
    String dumped = KubernetesYaml.dump(List.of(SecretFixtures.secret("ns", "db"), SecretFixtures.pod("ns", "p")));
    assertThat(dumped).contains(CapturedLogs.TEST_TOKEN); // written out, as kubectl would; never logged
    var log = LoggerFactory.getLogger(SecretValuesInLogsTest.class);
    assertThatThrownBy(() -> KubernetesYaml.parse(BROKEN, "broken.yaml"))
        .satisfies(e -> log.warn("loading manifests failed", e));
    assertThat(CapturedLogs.lines()).anyMatch(l -> l.contains("loading manifests failed"));
    CapturedLogs.assertNoLeaks();
  }
}
