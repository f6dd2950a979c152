package io.fleetkit.adapter.kubernetes.scheduler;

import io.fabric8.kubernetes.client.Config;
import java.util.ArrayList;
import java.util.List;

/**
 * The ways a Kubernetes client configuration weakens transport security. fabric8 builds its configuration from the
 * environment and kubeconfig, so {@code KUBERNETES_TRUST_CERTIFICATES=true} or a kubeconfig's
 * {@code insecure-skip-tls-verify: true} silently turns certificate verification off; {@link KubernetesSchedulerMain}
 * logs each finding as a warning at start. Stateless.
 */
public final class TransportSecurity {
  private TransportSecurity() {}

  /** One sentence per weakness of {@code config}; empty when it verifies the API server properly. */
  public static List<String> weaknesses(Config config) {
    List<String> out = new ArrayList<>(3);
    if (config.isTrustCerts()) {
      out.add("TLS certificate verification of the API server " + config.getMasterUrl() + " is disabled (trustCerts:"
          + " KUBERNETES_TRUST_CERTIFICATES=true or insecure-skip-tls-verify in kubeconfig); anyone on the path can"
          + " impersonate it and read the service account token");
    }
    if (config.isDisableHostnameVerification()) {
      out.add("hostname verification of the API server " + config.getMasterUrl() + " is disabled"
          + " (KUBERNETES_DISABLE_HOSTNAME_VERIFICATION=true)");
    }
    String url = config.getMasterUrl();
    if (url != null && url.startsWith("http://")) {
      out.add("the API server URL " + url + " is plain http: requests and the token cross the network in clear text");
    }
    return List.copyOf(out);
  }
}
