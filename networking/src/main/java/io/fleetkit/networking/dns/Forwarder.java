package io.fleetkit.networking.dns;

import java.io.IOException;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.random.RandomGenerator;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.xbill.DNS.DClass;
import org.xbill.DNS.Flags;
import org.xbill.DNS.Message;
import org.xbill.DNS.Name;
import org.xbill.DNS.Record;
import org.xbill.DNS.Section;
import org.xbill.DNS.TXTRecord;
import org.xbill.DNS.TextParseException;
import org.xbill.DNS.Type;

/**
 * Sends questions to upstream resolvers as CoreDNS's {@code forward . <upstreams>} does ({@code plugin/forward},
 * {@code plugin/pkg/proxy}), for the names a cluster DNS does not answer itself.
 *
 * <p>A name under one of the {@code except} names (not {@code .} itself) is not forwarded: SERVFAIL, as CoreDNS
 * answers when {@code forward} is the last plugin. More than {@code maxConcurrent} queries at once are REFUSED
 * (CoreDNS's {@code max_concurrent}; 0 is no limit). For one query the upstreams are tried in the order of the
 * {@link ForwardPolicy} (random by default), from the first again after the last, until one answers,
 * {@value #ATTEMPTS_PER_UPSTREAM} attempts per upstream have failed (CoreDNS's default {@code max_connect_attempts},
 * counted over all upstreams, down ones included) or no attempt is left to start within the timeout (5 s). An
 * attempt fails when the upstream cannot be reached, does not answer within the read timeout (2 s) or answers with
 * bytes that do not parse.
 *
 * <p>Health: after each failed attempt the upstream is health-checked ({@link ForwardHealthCheck}: {@code . IN NS}
 * every 0.5 s until it answers, each failed check counted); an upstream with more than {@code maxFails} (2) failed
 * checks is down and skipped. When every upstream of a pass is down, health checking is taken to be broken and one
 * random upstream is tried, once, before SERVFAIL ({@code failfastAllUnhealthyUpstreams}: SERVFAIL without trying).
 * {@code maxFails} 0 turns health checks off. {@link #close()} stops the checks.
 *
 * <p>Wire: an attempt asks with a fresh random id, ignoring messages with another id, over the client's transport;
 * over TCP always with {@code forceTcp}; over UDP with {@code preferUdp}, asking again over TCP when the UDP answer
 * is truncated ({@code forceTcp} wins when both are set). Without {@code preferUdp} a truncated answer is returned
 * truncated. The answer is returned as the upstream wrote it, with the query's id; an answer to another question
 * (CoreDNS's {@code Match}: one question, the same name in any case and type, the response flag set) is FORMERR, and
 * no answer at all SERVFAIL. Each attempt opens a new socket: connections are not reused (so there is no
 * {@code expire}).
 *
 * <p>Not modelled: TLS and HTTPS upstreams, {@code next}, {@code next_on_nodata}, {@code failover},
 * {@code max_connect_attempts}, {@code source_address}.
 *
 * <p>Thread-safe; each call blocks its thread for at most the timeout plus one read timeout (twice that with
 * {@code preferUdp}). Health checks run on daemon threads named {@code fleetkit-dns-health}, one per upstream being
 * checked.
 */
public final class Forwarder implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(Forwarder.class);
  /** CoreDNS's {@code defaultTimeout}: no attempt starts after this much time on one query. */
  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(5);
  /** CoreDNS's {@code read_timeout} default. */
  public static final Duration DEFAULT_READ_TIMEOUT = Duration.ofSeconds(2);
  /** CoreDNS's limit on the number of upstreams. */
  public static final int MAX_UPSTREAMS = 15;
  /** Queries forwarded at once before REFUSED (CoreDNS's {@code max_concurrent} is unlimited by default). */
  public static final int DEFAULT_MAX_CONCURRENT = 500;
  /** CoreDNS's {@code max_fails} default. */
  public static final int DEFAULT_MAX_FAILS = 2;
  /** How long a health check waits for its answer (CoreDNS's health checker's read timeout). */
  static final Duration HEALTH_CHECK_TIMEOUT = Duration.ofSeconds(1);
  static final int ATTEMPTS_PER_UPSTREAM = 2;

  private final List<Upstream> upstreams;
  private final List<UpstreamHealth> health;
  private final ForwardPolicy policy;
  private final Duration timeout;
  private final Duration readTimeout;
  private final int maxConcurrent;
  private final int maxFails;
  private final ForwardHealthCheck healthCheck;
  private final boolean forceTcp;
  private final boolean preferUdp;
  private final boolean failfastAllUnhealthyUpstreams;
  private final List<String> except;
  private final List<Name> exceptNames;
  private final AtomicInteger concurrent = new AtomicInteger();
  private final ExecutorService probes;
  private final RandomGenerator random;
  private final SecureRandom ids = new SecureRandom();
  private final AtomicLong robin = new AtomicLong();

  /**
   * What forwarding one query came to.
   *
   * @param response the upstream's answer with the query's id, {@code null} when there is none
   * @param rcode with no answer, the code to answer with: SERVFAIL (every attempt failed, or the name is excepted),
   *     FORMERR (an upstream answered another question) or REFUSED (too many queries at once); NOERROR with an
   *     answer, whatever its own
   * @param upstream the upstream that answered, {@code null} when none did
   * @param overTcp whether the answer came over TCP (false when there is none)
   */
  public record Reply(byte @Nullable [] response, Rcode rcode, @Nullable Upstream upstream, boolean overTcp) {
    public Reply {
      Objects.requireNonNull(rcode, "rcode");
    }

    static Reply failed(Rcode rcode) {
      return new Reply(null, rcode, null, false);
    }
  }

  private Forwarder(Builder b) {
    this.upstreams = b.upstreams;
    this.policy = b.policy;
    this.timeout = b.timeout;
    this.readTimeout = b.readTimeout;
    this.maxConcurrent = b.maxConcurrent;
    this.maxFails = b.maxFails;
    this.healthCheck = b.healthCheck;
    this.forceTcp = b.forceTcp;
    this.preferUdp = b.preferUdp;
    this.failfastAllUnhealthyUpstreams = b.failfastAllUnhealthyUpstreams;
    this.except = List.copyOf(b.except);
    List<Name> names = new ArrayList<>();
    for (String e : except) {
      names.add(Name.fromConstantString(e));
    }
    this.exceptNames = List.copyOf(names);
    this.random = b.random;
    AtomicInteger threadCount = new AtomicInteger();
    this.probes = Executors.newCachedThreadPool(r -> {
      Thread t = new Thread(r, "fleetkit-dns-health-" + threadCount.incrementAndGet());
      t.setDaemon(true);
      return t;
    });
    List<UpstreamHealth> h = new ArrayList<>();
    for (Upstream u : upstreams) {
      h.add(new UpstreamHealth(u, healthCheck, forceTcp, b.healthCheckTimeout, probes));
    }
    this.health = List.copyOf(h);
  }

  /**
   * A forwarder to {@code upstreams}, in that order for {@link ForwardPolicy#SEQUENTIAL}.
   *
   * @throws IllegalArgumentException when there are none or more than {@value #MAX_UPSTREAMS}
   */
  public static Builder builder(List<Upstream> upstreams) {
    return new Builder(upstreams);
  }

  public List<Upstream> upstreams() {
    return upstreams;
  }

  public ForwardPolicy policy() {
    return policy;
  }

  /** Failed health checks after which an upstream is down; 0: never down, never checked. */
  public int maxFails() {
    return maxFails;
  }

  public ForwardHealthCheck healthCheck() {
    return healthCheck;
  }

  /** Whether upstreams are always asked over TCP. */
  public boolean forceTcp() {
    return forceTcp;
  }

  /** Whether upstreams are asked over UDP first, whatever the client's transport. */
  public boolean preferUdp() {
    return preferUdp;
  }

  /** The names not forwarded, absolute and lower case. */
  public List<String> except() {
    return except;
  }

  /** Queries forwarded at once before REFUSED; 0 is no limit. */
  public int maxConcurrent() {
    return maxConcurrent;
  }

  /** Whether a query is SERVFAIL at once when every upstream is down, instead of trying a random one. */
  public boolean failfastAllUnhealthyUpstreams() {
    return failfastAllUnhealthyUpstreams;
  }

  /** Whether {@code upstream} is down now (more failed health checks than {@link #maxFails()}). */
  public boolean isDown(Upstream upstream) {
    return healthOf(upstream).down(maxFails);
  }

  /** Failed health checks of {@code upstream} since it last answered one. */
  int fails(Upstream upstream) {
    return healthOf(upstream).fails();
  }

  UpstreamHealth healthOf(Upstream upstream) {
    for (UpstreamHealth h : health) {
      if (h.upstream().equals(upstream)) {
        return h;
      }
    }
    throw new IllegalArgumentException("upstream " + upstream + " is not one of " + upstreams);
  }

  /**
   * Whether a question for {@code name} is forwarded: {@code .} always, other names unless under (or equal to) one
   * of the {@link #except()} names; case-insensitive, as CoreDNS's {@code isAllowedDomain}.
   */
  public boolean forwards(String name) {
    Name n;
    try {
      n = Name.fromString(name.endsWith(".") ? name : name + ".");
    } catch (TextParseException e) {
      return false;
    }
    return forwards(n);
  }

  private boolean forwards(Name n) {
    if (n.equals(Name.root)) {
      return true;
    }
    for (Name e : exceptNames) {
      if (n.subdomain(e)) {
        return false;
      }
    }
    return true;
  }

  /** Stops the health checks; a down upstream stays down. Queries may still be forwarded. */
  @Override
  public void close() {
    health.forEach(UpstreamHealth::stop);
    probes.shutdownNow();
  }

  /**
   * Forwards {@code query} as a UDP client's (one question; its id is the one the answer carries).
   *
   * @throws IllegalArgumentException when the query has no question
   */
  public Reply exchange(Message query) {
    return exchange(query, false);
  }

  /**
   * Forwards {@code query}, which came over TCP when {@code clientOverTcp} (the transport asked upstream, unless
   * {@code forceTcp} or {@code preferUdp} say otherwise).
   *
   * @throws IllegalArgumentException when the query has no question
   */
  public Reply exchange(Message query, boolean clientOverTcp) {
    Record question = query.getQuestion();
    if (question == null) {
      throw new IllegalArgumentException("forwarded query " + query.getHeader().getID() + " has no question");
    }
    if (!forwards(question.getName())) {
      return Reply.failed(Rcode.SERVFAIL); // CoreDNS: NextOrFailure, and forward is the last plugin
    }
    if (maxConcurrent > 0 && concurrent.incrementAndGet() > maxConcurrent) {
      concurrent.decrementAndGet();
      return Reply.failed(Rcode.REFUSED);
    }
    try {
      return relay(question, query.toWire(), clientOverTcp);
    } finally {
      if (maxConcurrent > 0) {
        concurrent.decrementAndGet();
      }
    }
  }

  /** CoreDNS's {@code ServeDNS} loop over the upstreams. */
  private Reply relay(Record question, byte[] wire, boolean clientOverTcp) {
    List<UpstreamHealth> list = policy.order(health, robin.incrementAndGet(), random);
    int n = list.size();
    long deadline = System.nanoTime() + timeout.toNanos();
    int maxAttempts = ATTEMPTS_PER_UPSTREAM * n;
    int attempts = 0;
    int downs = 0; // down upstreams met since the list last started over (CoreDNS's fails)
    int i = 0;
    while (System.nanoTime() - deadline < 0 && attempts < maxAttempts) {
      if (i >= n) {
        i = 0;
        downs = 0;
      }
      UpstreamHealth u = list.get(i++);
      if (u.down(maxFails)) {
        downs++;
        if (downs < n) {
          continue;
        }
        if (failfastAllUnhealthyUpstreams) {
          break;
        }
        // every upstream is down: health checking is taken to be broken, one random upstream is tried
        u = ForwardPolicy.RANDOM.order(health, 0, random).get(0);
      }
      Message answer;
      byte[] bytes;
      boolean tcp = forceTcp || (!preferUdp && clientOverTcp);
      try {
        bytes = ask(u.upstream(), wire, tcp);
        if (!tcp && preferUdp && UpstreamSocket.truncated(bytes)) {
          tcp = true;
          bytes = ask(u.upstream(), wire, true);
        }
        answer = new Message(bytes);
      } catch (IOException | RuntimeException e) { // dnsjava throws both on bytes it cannot read
        LOG.debug("forwarding {} to {} failed: {}", question.getName(), u.upstream(), e.toString());
        if (maxFails != 0) {
          u.healthcheck();
        }
        attempts++;
        if (attempts >= maxAttempts || downs >= n) {
          break;
        }
        continue;
      }
      if (!answers(question, answer)) {
        LOG.debug("upstream {} answered another question than {}", u.upstream(), question.getName());
        return Reply.failed(Rcode.FORMERR);
      }
      bytes[0] = wire[0];
      bytes[1] = wire[1];
      return new Reply(bytes, Rcode.NOERROR, u.upstream(), tcp);
    }
    return Reply.failed(Rcode.SERVFAIL);
  }

  /**
   * Asks the upstreams {@code name} (made absolute) of {@code type}, class IN with recursion desired, and gives the
   * answer as cluster DNS's records: types cluster DNS does not distinguish as {@link RecordType#OTHER} with
   * dnsjava's presentation of their data, OPT records left out, truncated when the answer has TC set; an upstream
   * rcode beyond REFUSED as SERVFAIL. Asked as a UDP client's question: see {@link #exchange(Message, boolean)}.
   *
   * @throws IllegalArgumentException when {@code name} is not a domain name or {@code type} is OTHER
   */
  public DnsResponse resolve(String name, RecordType type) {
    return resolve(name, type, false);
  }

  /**
   * {@link #resolve(String, RecordType)} for a client that asked over TCP when {@code clientOverTcp}, as the
   * {@code kubernetes} plugin asks its upstream for an ExternalName's target with the client's transport.
   *
   * @throws IllegalArgumentException when {@code name} is not a domain name or {@code type} is OTHER
   */
  public DnsResponse resolve(String name, RecordType type, boolean clientOverTcp) {
    if (type == RecordType.OTHER) {
      throw new IllegalArgumentException("forwarded question " + name + ": type OTHER cannot be asked");
    }
    Name n;
    try {
      n = Name.fromString(name.endsWith(".") ? name : name + ".");
    } catch (TextParseException e) {
      throw new IllegalArgumentException("forwarded question \"" + name + "\" is not a domain name: "
          + e.getMessage(), e);
    }
    Reply r = exchange(Message.newQuery(Record.newRecord(n, Type.value(type.name()), DClass.IN)), clientOverTcp);
    if (r.response() == null) {
      return DnsResponse.of(r.rcode());
    }
    Message m;
    try {
      m = new Message(r.response());
    } catch (IOException | RuntimeException e) {
      return DnsResponse.of(Rcode.SERVFAIL); // parsed once already in exchange
    }
    Rcode rcode = Rcode.SERVFAIL;
    for (Rcode c : Rcode.values()) {
      if (c.code() == m.getRcode()) {
        rcode = c;
      }
    }
    return new DnsResponse(rcode, records(m, Section.ANSWER), records(m, Section.AUTHORITY),
        records(m, Section.ADDITIONAL), m.getHeader().getFlag(Flags.TC));
  }

  private static List<DnsRecord> records(Message m, int section) {
    List<DnsRecord> out = new ArrayList<>();
    for (Record r : m.getSection(section)) {
      if (r.getType() == Type.OPT) {
        continue;
      }
      String data = r instanceof TXTRecord t ? String.join("", t.getStrings()) : r.rdataToString();
      out.add(new DnsRecord(r.getName().toString(), DnsServer.typeOf(r.getType()), r.getTTL(), data));
    }
    return out;
  }

  /** CoreDNS's {@code request.Match}: one question, the response flag, the same name (any case) and type. */
  private static boolean answers(Record question, Message answer) {
    List<Record> q = answer.getSection(Section.QUESTION);
    return q.size() == 1 && answer.getHeader().getFlag(Flags.QR) && q.get(0).getName().equals(question.getName())
        && q.get(0).getType() == question.getType();
  }

  /** One attempt's exchange with a fresh random id. */
  private byte[] ask(Upstream u, byte[] query, boolean tcp) throws IOException {
    byte[] out = query.clone();
    int id = ids.nextInt(0x10000);
    out[0] = (byte) (id >>> 8);
    out[1] = (byte) id;
    return UpstreamSocket.exchange(u, out, tcp, readTimeout);
  }

  /** Configures a forwarder. Not thread-safe. */
  public static final class Builder {
    private final List<Upstream> upstreams;
    private ForwardPolicy policy = ForwardPolicy.RANDOM;
    private Duration timeout = DEFAULT_TIMEOUT;
    private Duration readTimeout = DEFAULT_READ_TIMEOUT;
    private int maxConcurrent = DEFAULT_MAX_CONCURRENT;
    private int maxFails = DEFAULT_MAX_FAILS;
    private ForwardHealthCheck healthCheck = ForwardHealthCheck.DEFAULT;
    private Duration healthCheckTimeout = HEALTH_CHECK_TIMEOUT;
    private boolean forceTcp;
    private boolean preferUdp;
    private boolean failfastAllUnhealthyUpstreams;
    private final List<String> except = new ArrayList<>();
    private RandomGenerator random = new java.util.Random();

    private Builder(List<Upstream> upstreams) {
      List<Upstream> u = List.copyOf(Objects.requireNonNull(upstreams, "upstreams"));
      if (u.isEmpty()) {
        throw new IllegalArgumentException("forward upstreams: at least one is needed");
      }
      if (u.size() > MAX_UPSTREAMS) {
        throw new IllegalArgumentException("forward upstreams: " + u.size() + " given, at most " + MAX_UPSTREAMS);
      }
      this.upstreams = u;
    }

    /** Default {@link ForwardPolicy#RANDOM}. */
    public Builder policy(ForwardPolicy v) {
      policy = Objects.requireNonNull(v, "policy");
      return this;
    }

    /** How long attempts may start for one query; default 5 s. */
    public Builder timeout(Duration v) {
      timeout = positive("timeout", v);
      return this;
    }

    /** How long one attempt waits for its answer (UDP, and TCP again when truncated); default 2 s. */
    public Builder readTimeout(Duration v) {
      readTimeout = positive("readTimeout", v);
      return this;
    }

    /**
     * Queries forwarded at once before the next is REFUSED, 0 for no limit (CoreDNS's {@code max_concurrent});
     * default {@value Forwarder#DEFAULT_MAX_CONCURRENT}.
     *
     * @throws IllegalArgumentException when negative
     */
    public Builder maxConcurrent(int v) {
      if (v < 0) {
        throw new IllegalArgumentException("forward max_concurrent " + v + " must not be negative");
      }
      maxConcurrent = v;
      return this;
    }

    /**
     * Failed health checks after which an upstream is down (CoreDNS's {@code max_fails}); 0: never down and never
     * health-checked. Default {@value Forwarder#DEFAULT_MAX_FAILS}.
     *
     * @throws IllegalArgumentException when negative
     */
    public Builder maxFails(int v) {
      if (v < 0) {
        throw new IllegalArgumentException("forward max_fails " + v + " must not be negative");
      }
      maxFails = v;
      return this;
    }

    /** How upstreams are health-checked (CoreDNS's {@code health_check}); default {@link ForwardHealthCheck#DEFAULT}. */
    public Builder healthCheck(ForwardHealthCheck v) {
      healthCheck = Objects.requireNonNull(v, "healthCheck");
      return this;
    }

    /** How long one health check waits for its answer; default 1 s. For tests. */
    Builder healthCheckTimeout(Duration v) {
      healthCheckTimeout = positive("healthCheckTimeout", v);
      return this;
    }

    /** Ask upstreams over TCP, whatever the client's transport; health checks too (CoreDNS's {@code force_tcp}). */
    public Builder forceTcp(boolean v) {
      forceTcp = v;
      return this;
    }

    /**
     * Ask upstreams over UDP first, whatever the client's transport, and again over TCP when the answer is truncated
     * (CoreDNS's {@code prefer_udp}); {@link #forceTcp} wins when both are set.
     */
    public Builder preferUdp(boolean v) {
      preferUdp = v;
      return this;
    }

    /** SERVFAIL at once when every upstream is down (CoreDNS's {@code failfast_all_unhealthy_upstreams}). */
    public Builder failfastAllUnhealthyUpstreams(boolean v) {
      failfastAllUnhealthyUpstreams = v;
      return this;
    }

    /**
     * Adds names whose questions (theirs and their subdomains') are not forwarded (CoreDNS's {@code except}); made
     * absolute and lower case.
     *
     * @throws IllegalArgumentException naming a name that is not a domain name
     */
    public Builder except(List<String> names) {
      for (String n : Objects.requireNonNull(names, "except")) {
        except.add(ForwardHealthCheck.normalize("except", Objects.requireNonNull(n, "except name")));
      }
      return this;
    }

    /** The randomness of {@link ForwardPolicy#RANDOM}; seeded in tests. */
    Builder random(RandomGenerator v) {
      random = Objects.requireNonNull(v, "random");
      return this;
    }

    private static Duration positive(String field, Duration v) {
      Objects.requireNonNull(v, field);
      if (v.isNegative() || v.isZero() || v.toMillis() < 1) {
        throw new IllegalArgumentException("forward " + field + " " + v + " must be at least 1 ms");
      }
      return v;
    }

    public Forwarder build() {
      return new Forwarder(this);
    }
  }
}
