package io.fleetkit.networking.dns;

/** DNS response codes cluster DNS uses. */
public enum Rcode {
  NOERROR(0), FORMERR(1), SERVFAIL(2), NXDOMAIN(3), NOTIMP(4), REFUSED(5);

  private final int code;

  Rcode(int code) {
    this.code = code;
  }

  /** The wire value. */
  public int code() {
    return code;
  }
}
