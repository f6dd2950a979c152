package io.fleetkit.networking.dns;

import java.util.List;
import java.util.Objects;

/**
 * An answer of cluster DNS: rcode, the answer, authority and additional sections, and whether records are missing
 * because an upstream's answer they came from was truncated (the TC flag).
 */
public record DnsResponse(Rcode rcode, List<DnsRecord> answers, List<DnsRecord> authority,
    List<DnsRecord> additional, boolean truncated) {
  public DnsResponse {
    Objects.requireNonNull(rcode, "rcode");
    answers = List.copyOf(answers);
    authority = List.copyOf(authority);
    additional = List.copyOf(additional);
  }

  /** A whole answer (not truncated). */
  public DnsResponse(Rcode rcode, List<DnsRecord> answers, List<DnsRecord> authority, List<DnsRecord> additional) {
    this(rcode, answers, authority, additional, false);
  }

  public static DnsResponse of(Rcode rcode) {
    return new DnsResponse(rcode, List.of(), List.of(), List.of());
  }
}
