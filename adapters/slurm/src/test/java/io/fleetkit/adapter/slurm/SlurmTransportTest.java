package io.fleetkit.adapter.slurm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The JWT never crosses a network in clear text unless the embedder says the network is trusted. */
final class SlurmTransportTest {
  private static SlurmClient.Builder to(String url) {
    return SlurmClient.builder().baseUri(url).token(SlurmToken.of("root", "a.b.c"));
  }

  @Test
  void build_plainHttpToRemoteHost_refusedNamingTheUriAndTheWayOut() {
    assertThatThrownBy(() -> to("http://slurm.example.org:6820").build())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("\"http://slurm.example.org:6820\"")
        .hasMessageContaining("clear text")
        .hasMessageContaining("allowPlainHttpToRemote(true)");
    assertThatThrownBy(() -> to("http://10.0.0.5:6820").build()).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void build_plainHttpToLoopback_allowed() {
    assertThat(to("http://127.0.0.1:6820").build()).isNotNull();
    assertThat(to("http://localhost:6820").build()).isNotNull();
    assertThat(to("http://[::1]:6820").build()).isNotNull();
  }

  @Test
  void build_httpsOrExplicitOptIn_allowed() {
    assertThat(to("https://slurm.example.org:6820").build()).isNotNull();
    assertThat(to("http://slurm.example.org:6820").allowPlainHttpToRemote(true).build()).isNotNull();
  }

  @Test
  void isLoopback_namesThatMerelyLookLocal_areNotLoopback() {
    assertThat(SlurmClient.Builder.isLoopback("127.0.0.1.evil.example")).isFalse();
    assertThat(SlurmClient.Builder.isLoopback("localhost.example")).isFalse();
    assertThat(SlurmClient.Builder.isLoopback("127.255.0.9")).isTrue();
  }
}
