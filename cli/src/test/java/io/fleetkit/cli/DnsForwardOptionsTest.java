package io.fleetkit.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.networking.dns.ForwardHealthCheck;
import io.fleetkit.networking.dns.Forwarder;
import java.io.StringWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import picocli.CommandLine;

/**
 * The forwarding options of {@code fleetkit dns} ({@link DnsOptions}) read as CoreDNS's {@code forward} block is:
 * rows of coredns/coredns {@code plugin/forward/setup_test.go} (commit 4b26cced32717eac6dd725e308d7415c8b9db147)
 * TestSetup and TestSetupMaxConcurrent, the Corefile option written as its {@code --forward-*} option, with the
 * upstream's expected {@code maxfails} and {@code proxy.Options} (ForceTCP, PreferUDP, HCRecursionDesired,
 * HCDomain), or its error.
 */
final class DnsForwardOptionsTest {
  private static Forwarder forwarder(String args) {
    DnsOptions o = new DnsOptions();
    List<String> all = new ArrayList<>(List.of("--upstream", "127.0.0.1"));
    if (!args.isBlank()) {
      all.addAll(List.of(args.strip().split("\\s+")));
    }
    new CommandLine(o).parseArgs(all.toArray(String[]::new));
    Forwarder f = o.check().forwarder();
    assertThat(f).isNotNull();
    return f;
  }

  // TestSetup: the rows of options (the address rows are in networking's ForwarderTest)
  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
      // Corefile block | options | maxfails | ForceTCP | PreferUDP | HCRecursionDesired | HCDomain | except
      "'forward . 127.0.0.1' | '' | 2 | false | false | true | . | ''",
      "'health_check 0.5s domain example.org'"
          + " | --forward-health-check 0.5s --forward-health-check-domain example.org"
          + " | 2 | false | false | true | example.org. | ''",
      "'except miek.nl' | --forward-except miek.nl | 2 | false | false | true | . | miek.nl.",
      "'max_fails 3' | --forward-max-fails 3 | 3 | false | false | true | . | ''",
      "'force_tcp' | --forward-force-tcp | 2 | true | false | true | . | ''",
      "'prefer_udp' | --forward-prefer-udp | 2 | false | true | true | . | ''",
      "'force_tcp, prefer_udp' | --forward-force-tcp --forward-prefer-udp | 2 | true | true | true | . | ''",
      // beyond upstream's table: no_rec, and the interval it sets
      "'health_check 100ms no_rec' | --forward-health-check 100ms --forward-health-check-no-rec"
          + " | 2 | false | false | false | . | ''",
  })
  void setup_optionsAsCoreDnsReadsTheBlock(String corefile, String args, int fails, boolean forceTcp,
      boolean preferUdp, boolean recursionDesired, String domain, String except) {
    try (Forwarder f = forwarder(args)) {
      assertThat(f.maxFails()).isEqualTo(fails);
      assertThat(f.forceTcp()).isEqualTo(forceTcp);
      assertThat(f.preferUdp()).isEqualTo(preferUdp);
      assertThat(f.healthCheck().recursionDesired()).isEqualTo(recursionDesired);
      assertThat(f.healthCheck().domain()).isEqualTo(domain);
      assertThat(f.except()).isEqualTo(except.isEmpty() ? List.of() : List.of(except));
      assertThat(f.healthCheck().interval()).isEqualTo(args.contains("100ms") ? Duration.ofMillis(100)
          : ForwardHealthCheck.DEFAULT.interval());
    }
  }

  // TestSetupMaxConcurrent: the positive row
  @Test
  void setup_maxConcurrent() {
    try (Forwarder f = forwarder("--forward-max-concurrent 1000")) {
      assertThat(f.maxConcurrent()).isEqualTo(1000);
    }
    try (Forwarder f = forwarder("--forward-max-concurrent 0 --forward-failfast-all-unhealthy-upstreams")) {
      assertThat(f.maxConcurrent()).isZero();
      assertThat(f.failfastAllUnhealthyUpstreams()).isTrue();
    }
  }

  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int run(String... args) {
    out.getBuffer().setLength(0);
    err.getBuffer().setLength(0);
    List<String> all = new ArrayList<>(List.of("dns", CliHarness.example("networking").toString(), "x.example"));
    all.addAll(List.of(args));
    return CliHarness.run(out, err, all.toArray(String[]::new));
  }

  // TestSetup's and TestSetupMaxConcurrent's negative rows, and FleetKit's own rules: exit 2 naming the option
  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
      // TestSetup "health_check 0.5s domain" (no FQDN after domain): Wrong argument count
      "'health_check 0.5s domain' | --upstream 127.0.0.1 --forward-health-check 0.5s --forward-health-check-domain"
          + " | Missing required parameter for option '--forward-health-check-domain'",
      // TestSetup "blaatl": unknown property
      "'blaatl' | --upstream 127.0.0.1 --forward-blaatl | Unknown option: '--forward-blaatl'",
      // TestSetupMaxConcurrent
      "'max_concurrent many' | --upstream 127.0.0.1 --forward-max-concurrent many"
          + " | Invalid value for option '--forward-max-concurrent': 'many' is not an int",
      "'max_concurrent -4' | --upstream 127.0.0.1 --forward-max-concurrent -4"
          + " | dns: --forward-max-concurrent -4 must not be negative",
      // beyond upstream's tables
      "'max_fails -1' | --upstream 127.0.0.1 --forward-max-fails -1 | dns: --forward-max-fails -1 must not be negative",
      "'health_check 0s' | --upstream 127.0.0.1 --forward-health-check 0s"
          + " | dns: --forward-health-check 0ms must be at least 1ms",
      "'health_check -1s' | --upstream 127.0.0.1 --forward-health-check -1s | '-1s' is not a duration",
      "'health_check domain a..b' | --upstream 127.0.0.1 --forward-health-check-domain a..b"
          + " | dns: --forward-health-check-domain: forward health_check domain \"a..b\" has an empty label",
      "'except a..b' | --upstream 127.0.0.1 --forward-except a..b"
          + " | dns: --forward-except: forward except \"a..b\" has an empty label",
      "'no upstream: max_fails' | --forward-max-fails 3"
          + " | dns: --forward-max-fails is for forwarding, but no --upstream is given",
      "'no upstream: force_tcp' | --forward-force-tcp"
          + " | dns: --forward-force-tcp is for forwarding, but no --upstream is given",
      "'no upstream: except' | --forward-except example.org"
          + " | dns: --forward-except is for forwarding, but no --upstream is given",
      "'no upstream: health_check no_rec' | --forward-health-check-no-rec"
          + " | dns: --forward-health-check-no-rec is for forwarding, but no --upstream is given",
  })
  void setup_badOptions_exitTwoNamingTheOptionAndTheRule(String corefile, String args, String message) {
    assertThat(run(args.strip().split("\\s+"))).as(err.toString()).isEqualTo(2);
    assertThat(err.toString()).contains(message);
  }
}
