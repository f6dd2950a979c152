package io.fleetkit.networking.dns;

import java.util.List;
import java.util.Objects;

/** An answer of cluster DNS: rcode and the answer, authority and additional sections. */
public record DnsResponse(Rcode rcode, List<DnsRecord> answers, List<DnsRecord> authority,
    List<DnsRecord> additional) {
  public DnsResponse {
    Objects.requireNonNull(rcode, "rcode");
    answers = List.copyOf(answers);
    authority = List.copyOf(authority);
    additional = List.copyOf(additional);
  }

  public static DnsResponse of(Rcode rcode) {
    return new DnsResponse(rcode, List.of(), List.of(), List.of());
  }
}
