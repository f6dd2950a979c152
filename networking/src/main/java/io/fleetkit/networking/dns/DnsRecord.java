package io.fleetkit.networking.dns;

import java.util.Objects;

/**
 * One resource record in presentation form: {@code name} absolute with a trailing dot, {@code data} as a zone file
 * writes it ({@code 10.0.0.1}; SRV {@code "0 100 80 svc1.testns.svc.cluster.local."}; CNAME/PTR a name with a
 * trailing dot; SOA {@code "mname rname serial refresh retry expire minimum"}; TXT the text).
 */
public record DnsRecord(String name, RecordType type, long ttl, String data) {
  public DnsRecord {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(data, "data");
  }

  @Override
  public String toString() {
    return name + "\t" + ttl + "\tIN\t" + type + "\t" + data;
  }
}
