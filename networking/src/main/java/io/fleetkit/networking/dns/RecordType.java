package io.fleetkit.networking.dns;

/** The record types cluster DNS distinguishes; every other type is {@code OTHER} (answered like CoreDNS does). */
public enum RecordType {
  A, AAAA, SRV, CNAME, PTR, TXT, SOA, NS, AXFR, IXFR, OTHER;

  /** The type named {@code name} (case-insensitive), {@code OTHER} for names not listed. */
  public static RecordType parse(String name) {
    for (RecordType t : values()) {
      if (t.name().equalsIgnoreCase(name)) {
        return t;
      }
    }
    return OTHER;
  }
}
