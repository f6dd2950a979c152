package io.fleetkit.networking.dns;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodPhase;
import io.fleetkit.api.resource.ResourceList;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Pod names ({@code pods disabled|insecure|verified}): the cases of coredns/coredns {@code plugin/kubernetes}
 * {@code handler_pod_insecure_test.go} ({@code podModeInsecureCases}), {@code handler_pod_verified_test.go}
 * ({@code podModeVerifiedCases}) and {@code handler_pod_disabled_test.go} ({@code podModeDisabledCases}), commit
 * 4b26cced32717eac6dd725e308d7415c8b9db147, on {@code handler_test.go}'s fixtures: the pod podns/foo at 10.240.0.1
 * ({@code APIConnServeTest.PodIndex}), and every namespace existing but pod-nons and nsnoexist
 * ({@code GetNamespaceByName}; here the namespaces of the Services and the pod, plus svcns). Each row: question, type,
 * rcode, the answer or "-" for none; every negative row carries the zone's SOA in authority, as upstream's.
 */
final class ClusterDnsPodsTest {
  private static final String SOA =
      "cluster.local.\t5\tIN\tSOA\tns.dns.cluster.local. hostmaster.cluster.local. 1499347823 7200 1800 86400 5";

  static Pod pod(String ns, String name, String ip, PodPhase phase) {
    Pod p = Pod.builder().namespace(ns).name(name).container("c", "img", ResourceList.EMPTY).phase(phase).build();
    return p.withStatus(p.status().withPodIPs(List.of(ip)));
  }

  private static DnsSnapshot snapshot(List<Pod> pods) {
    return DnsSnapshot.of(CoreDnsFixtures.services(), CoreDnsFixtures.slices(), pods, Set.of("svcns"),
        CoreDnsFixtures.SERIAL);
  }

  private static final DnsSnapshot SNAP = snapshot(List.of(pod("podns", "foo", "10.240.0.1", PodPhase.Running)));

  private static void check(PodsMode mode, String name, String type, Rcode rcode, String answer) {
    DnsResponse r = ClusterDns.standard().withPods(mode).resolve(SNAP, name, RecordType.parse(type));
    assertThat(r.rcode()).as("%s %s %s", mode, name, type).isEqualTo(rcode);
    if (answer.equals("-")) {
      assertThat(r.answers()).isEmpty();
      assertThat(r.authority()).extracting(DnsRecord::toString).containsExactly(SOA);
    } else {
      assertThat(r.answers()).extracting(DnsRecord::toString).containsExactly(name + "\t5\tIN\t" + answer);
      assertThat(r.authority()).isEmpty();
    }
  }

  // podModeInsecureCases: all 7 (upstream's SOA rows carry serial 1515173576 and minimum 30, which its checker does
  // not compare; the SOA here is the fixtures' own)
  @ParameterizedTest(name = "insecure {0} {1}")
  @CsvSource(delimiter = '|', value = {
      "10-240-0-1.podns.pod.cluster.local.|A|NOERROR|A\t10.240.0.1",
      "172-0-0-2.podns.pod.cluster.local.|A|NOERROR|A\t172.0.0.2",
      "blah.podns.pod.cluster.local.|A|NXDOMAIN|-",
      "blah.podns.pod.cluster.local.|AAAA|NXDOMAIN|-",
      "blah.podns.pod.cluster.local.|HINFO|NXDOMAIN|-",
      "blah.pod-nons.pod.cluster.local.|A|NXDOMAIN|-",
      "podns.pod.cluster.local.|A|NOERROR|-",
  })
  void resolve_podsInsecure_asCoreDns(String name, String type, Rcode rcode, String answer) {
    check(PodsMode.INSECURE, name, type, rcode, answer);
  }

  // podModeVerifiedCases: all 5
  @ParameterizedTest(name = "verified {0} {1}")
  @CsvSource(delimiter = '|', value = {
      "10-240-0-1.podns.pod.cluster.local.|A|NOERROR|A\t10.240.0.1",
      "podns.pod.cluster.local.|A|NOERROR|-",
      "svcns.svc.cluster.local.|A|NOERROR|-",
      "pod-nons.pod.cluster.local.|A|NXDOMAIN|-",
      "172-0-0-2.podns.pod.cluster.local.|A|NXDOMAIN|-",
  })
  void resolve_podsVerified_asCoreDns(String name, String type, Rcode rcode, String answer) {
    check(PodsMode.VERIFIED, name, type, rcode, answer);
  }

  // podModeDisabledCases: both; the default mode
  @ParameterizedTest(name = "disabled {0} {1}")
  @CsvSource(delimiter = '|', value = {
      "10-240-0-1.podns.pod.cluster.local.|A|NXDOMAIN|-",
      "172-0-0-2.podns.pod.cluster.local.|A|NXDOMAIN|-",
  })
  void resolve_podsDisabled_asCoreDns(String name, String type, Rcode rcode, String answer) {
    check(PodsMode.DISABLED, name, type, rcode, answer);
    assertThat(ClusterDns.standard().pods()).isEqualTo(PodsMode.DISABLED);
  }

  // beyond upstream's tables, from kubernetes.go findPods and backend_lookup.go
  @ParameterizedTest(name = "insecure {0} {1}")
  @CsvSource(delimiter = '|', value = {
      // IPv6 with dashes for colons; the answer in canonical form
      "fd00--1.podns.pod.cluster.local.|AAAA|NOERROR|AAAA\tfd00::1",
      "fd00-0-0-0-0-0-0-1.podns.pod.cluster.local.|AAAA|NOERROR|AAAA\tfd00::1",
      // a name of the other family exists without records of the type
      "fd00--1.podns.pod.cluster.local.|A|NOERROR|-",
      "10-240-0-1.podns.pod.cluster.local.|AAAA|NOERROR|-",
      "10-240-0-1.podns.pod.cluster.local.|TXT|NOERROR|-",
      // an IPv4-mapped address is an A record (msg.Service.HostType)
      "--ffff-a01-203.podns.pod.cluster.local.|A|NOERROR|A\t10.1.2.3",
      // not an address: a leading zero (Go's net.ParseIP), five parts, not hex
      "10-240-0-01.podns.pod.cluster.local.|A|NXDOMAIN|-",
      "1-2-3-4-5.podns.pod.cluster.local.|A|NXDOMAIN|-",
      "10-240-0-1-x.podns.pod.cluster.local.|A|NXDOMAIN|-",
      // three dashes with one doubled read as IPv6
      "10--240-0-1.podns.pod.cluster.local.|AAAA|NOERROR|AAAA\t10::240:0:1",
      // labels left of the pod name are read and ignored, up to two; more is too long
      "x.10-240-0-1.podns.pod.cluster.local.|A|NOERROR|A\t10.240.0.1",
      "_http._tcp.10-240-0-1.podns.pod.cluster.local.|A|NOERROR|A\t10.240.0.1",
      "a.b.c.10-240-0-1.podns.pod.cluster.local.|A|NXDOMAIN|-",
      // any case; the answer keeps the question's
      "10-240-0-1.PodNs.POD.Cluster.Local.|A|NOERROR|A\t10.240.0.1",
  })
  void resolve_podsInsecure_dashedAddressForms(String name, String type, Rcode rcode, String answer) {
    DnsResponse r = ClusterDns.standard().withPods(PodsMode.INSECURE).resolve(SNAP, name, RecordType.parse(type));
    assertThat(r.rcode()).isEqualTo(rcode);
    if (answer.equals("-")) {
      assertThat(r.answers()).isEmpty();
      assertThat(r.authority()).hasSize(1);
    } else {
      assertThat(r.answers()).extracting(DnsRecord::toString).containsExactly(name + "\t5\tIN\t" + answer);
    }
  }

  @Test
  void resolve_podSrv_portZeroTargetThePodNameAddressExtra() {
    DnsResponse r = ClusterDns.standard().withPods(PodsMode.INSECURE).resolve(SNAP,
        "10-240-0-1.podns.pod.cluster.local.", RecordType.SRV);
    assertThat(r.answers()).extracting(DnsRecord::toString).containsExactly("10-240-0-1.podns.pod.cluster.local.\t5"
        + "\tIN\tSRV\t0 100 0 10-240-0-1.podns.pod.cluster.local.");
    assertThat(r.additional()).extracting(DnsRecord::toString)
        .containsExactly("10-240-0-1.podns.pod.cluster.local.\t5\tIN\tA\t10.240.0.1");
  }

  @Test
  void verified_onlyLivePodsPrimaryIpInItsNamespace() {
    Pod done = pod("podns", "done", "10.240.0.2", PodPhase.Succeeded);
    Pod failed = pod("podns", "failed", "10.240.0.3", PodPhase.Failed);
    Pod unknown = pod("podns", "unknown", "10.240.0.4", PodPhase.Unknown);
    Pod pending = pod("podns", "pending", "10.240.0.5", PodPhase.Pending);
    Pod going = pod("podns", "going", "10.240.0.6", PodPhase.Running);
    going = going.withMetadata(going.metadata().toBuilder().deletionTimestamp(Instant.EPOCH).build());
    Pod dual = pod("podns", "dual", "10.240.0.7", PodPhase.Running);
    dual = dual.withStatus(dual.status().withPodIPs(List.of("10.240.0.7", "fd00::7")));
    Pod v6 = pod("other", "six", "fd00::8", PodPhase.Running);
    DnsSnapshot snap = snapshot(new ArrayList<>(List.of(done, failed, unknown, pending, going, dual, v6)));
    ClusterDns dns = ClusterDns.standard().withPods(PodsMode.VERIFIED);
    for (String absent : List.of("10-240-0-2", "10-240-0-3", "10-240-0-4", "10-240-0-6", "fd00--7")) {
      assertThat(dns.resolve(snap, absent + ".podns.pod.cluster.local.", RecordType.A).rcode()).as(absent)
          .isEqualTo(Rcode.NXDOMAIN);
    }
    assertThat(dns.resolve(snap, "10-240-0-5.podns.pod.cluster.local.", RecordType.A).answers()).hasSize(1);
    assertThat(dns.resolve(snap, "10-240-0-7.podns.pod.cluster.local.", RecordType.A).answers()).hasSize(1);
    // the pod's namespace, not another one; compared as text as CoreDNS compares it
    assertThat(dns.resolve(snap, "fd00--8.other.pod.cluster.local.", RecordType.AAAA).answers())
        .extracting(DnsRecord::data).containsExactly("fd00::8");
    assertThat(dns.resolve(snap, "fd00--8.podns.pod.cluster.local.", RecordType.AAAA).rcode())
        .isEqualTo(Rcode.NXDOMAIN);
    assertThat(dns.resolve(snap, "fd00-0-0-0-0-0-0-8.other.pod.cluster.local.", RecordType.AAAA).rcode())
        .isEqualTo(Rcode.NXDOMAIN);
    // a pod's namespace exists: its svc subdomain is NODATA, not NXDOMAIN
    assertThat(dns.resolve(snap, "other.svc.cluster.local.", RecordType.A).rcode()).isEqualTo(Rcode.NOERROR);
  }

  @Test
  void parse_corefileNames_otherTextNamesTheValues() {
    assertThat(PodsMode.parse("Insecure")).isEqualTo(PodsMode.INSECURE);
    assertThat(PodsMode.VERIFIED.corefileName()).isEqualTo("verified");
    assertThatThrownBy(() -> PodsMode.parse("secure")).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("pods mode \"secure\" must be disabled, insecure or verified");
  }
}
