package io.fleetkit.networking.dns;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Semaphore;
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
 * <p>For one query the upstreams are tried in the order of the {@link ForwardPolicy} (random by default), from the
 * first again after the last, until one answers, {@value #ATTEMPTS_PER_UPSTREAM} attempts per upstream have failed
 * (CoreDNS's default {@code max_connect_attempts}) or no attempt is left to start within the timeout (5 s). An attempt
 * fails when the upstream cannot be reached, does not answer within the read timeout (2 s) or answers with bytes that
 * do not parse. Each attempt asks over UDP with a fresh random id, ignoring datagrams with another id, and asks
 * again over TCP when the UDP answer is truncated (CoreDNS's {@code prefer_udp}). The answer is returned as the
 * upstream wrote it, with the query's id; an answer to another question (CoreDNS's {@code Match}: one question, the
 * same name in any case and type, the response flag set) is FORMERR, and no answer at all SERVFAIL. More than
 * {@code maxConcurrent} queries at once are REFUSED (CoreDNS's {@code max_concurrent}).
 *
 * <p>Not modelled: health checks and {@code max_fails} (no upstream is ever marked down, each query tries them in
 * order), connection reuse, TLS and HTTPS upstreams, {@code except}, {@code next} and {@code failover}.
 *
 * <p>Thread-safe; each call blocks its thread for at most the timeout plus one read timeout.
 */
public final class Forwarder {
  private static final Logger LOG = LoggerFactory.getLogger(Forwarder.class);
  /** CoreDNS's {@code defaultTimeout}: no attempt starts after this much time on one query. */
  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(5);
  /** CoreDNS's {@code read_timeout} default. */
  public static final Duration DEFAULT_READ_TIMEOUT = Duration.ofSeconds(2);
  /** CoreDNS's limit on the number of upstreams. */
  public static final int MAX_UPSTREAMS = 15;
  /** Queries forwarded at once before REFUSED (CoreDNS's {@code max_concurrent} is unlimited by default). */
  public static final int DEFAULT_MAX_CONCURRENT = 500;
  static final int ATTEMPTS_PER_UPSTREAM = 2;
  private static final int HEADER = 12;

  private final List<Upstream> upstreams;
  private final ForwardPolicy policy;
  private final Duration timeout;
  private final Duration readTimeout;
  private final Semaphore inFlight;
  private final RandomGenerator random;
  private final SecureRandom ids = new SecureRandom();
  private final AtomicLong robin = new AtomicLong();

  /**
   * What forwarding one query came to.
   *
   * @param response the upstream's answer with the query's id, {@code null} when there is none
   * @param rcode with no answer, the code to answer with: SERVFAIL (every attempt failed), FORMERR (an upstream
   *     answered another question) or REFUSED (too many queries at once); NOERROR with an answer, whatever its own
   * @param upstream the upstream that answered, {@code null} when none did
   */
  public record Reply(byte @Nullable [] response, Rcode rcode, @Nullable Upstream upstream) {
    public Reply {
      Objects.requireNonNull(rcode, "rcode");
    }

    static Reply failed(Rcode rcode) {
      return new Reply(null, rcode, null);
    }
  }

  private Forwarder(Builder b) {
    this.upstreams = b.upstreams;
    this.policy = b.policy;
    this.timeout = b.timeout;
    this.readTimeout = b.readTimeout;
    this.inFlight = new Semaphore(b.maxConcurrent);
    this.random = b.random;
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

  /**
   * Forwards {@code query} (one question; its id is the one the answer carries).
   *
   * @throws IllegalArgumentException when the query has no question
   */
  public Reply exchange(Message query) {
    Record question = query.getQuestion();
    if (question == null) {
      throw new IllegalArgumentException("forwarded query " + query.getHeader().getID() + " has no question");
    }
    if (!inFlight.tryAcquire()) {
      return Reply.failed(Rcode.REFUSED);
    }
    try {
      byte[] wire = query.toWire();
      List<Upstream> order = policy.order(upstreams, robin.incrementAndGet(), random);
      long deadline = System.nanoTime() + timeout.toNanos();
      int attempts = ATTEMPTS_PER_UPSTREAM * order.size();
      for (int i = 0, tried = 0; tried < attempts && System.nanoTime() - deadline < 0; i = (i + 1) % order.size()) {
        Upstream u = order.get(i);
        tried++;
        Message answer;
        byte[] bytes;
        try {
          bytes = ask(u, wire);
          answer = new Message(bytes);
        } catch (IOException | RuntimeException e) { // dnsjava throws both on bytes it cannot read
          LOG.debug("forwarding {} to {} failed: {}", question.getName(), u, e.toString());
          continue;
        }
        if (!answers(question, answer)) {
          LOG.debug("upstream {} answered another question than {}", u, question.getName());
          return Reply.failed(Rcode.FORMERR);
        }
        bytes[0] = wire[0];
        bytes[1] = wire[1];
        return new Reply(bytes, Rcode.NOERROR, u);
      }
      return Reply.failed(Rcode.SERVFAIL);
    } finally {
      inFlight.release();
    }
  }

  /**
   * Asks the upstreams {@code name} (made absolute) of {@code type}, class IN with recursion desired, and gives the
   * answer as cluster DNS's records: types cluster DNS does not distinguish as {@link RecordType#OTHER} with
   * dnsjava's presentation of their data, OPT records left out, truncated when the answer has TC set; an upstream
   * rcode beyond REFUSED as SERVFAIL.
   *
   * @throws IllegalArgumentException when {@code name} is not a domain name or {@code type} is OTHER
   */
  public DnsResponse resolve(String name, RecordType type) {
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
    Reply r = exchange(Message.newQuery(Record.newRecord(n, Type.value(type.name()), DClass.IN)));
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

  /** One attempt: UDP, then TCP when the UDP answer is truncated. */
  private byte[] ask(Upstream u, byte[] query) throws IOException {
    byte[] out = query.clone();
    int id = withNewId(out);
    byte[] answer = udp(u, out, id);
    if ((answer[2] & 0x02) != 0) { // TC
      answer = tcp(u, out, withNewId(out));
    }
    return answer;
  }

  private int withNewId(byte[] wire) {
    int id = ids.nextInt(0x10000);
    wire[0] = (byte) (id >>> 8);
    wire[1] = (byte) id;
    return id;
  }

  private static boolean isAnswerTo(byte[] b, int len, int id) {
    return len >= HEADER && (((b[0] & 0xff) << 8) | (b[1] & 0xff)) == id && (b[2] & 0x80) != 0;
  }

  private byte[] udp(Upstream u, byte[] query, int id) throws IOException {
    try (DatagramSocket s = new DatagramSocket()) {
      s.connect(u.socketAddress());
      s.send(new DatagramPacket(query, query.length));
      long end = System.nanoTime() + readTimeout.toNanos();
      byte[] buf = new byte[65535];
      DatagramPacket p = new DatagramPacket(buf, buf.length);
      while (true) {
        s.setSoTimeout(millisUntil(end));
        p.setLength(buf.length);
        s.receive(p);
        if (isAnswerTo(buf, p.getLength(), id)) {
          return java.util.Arrays.copyOf(buf, p.getLength());
        }
        // another id: a late answer to an earlier query, or a forgery; CoreDNS reads on too
      }
    }
  }

  private byte[] tcp(Upstream u, byte[] query, int id) throws IOException {
    long end = System.nanoTime() + readTimeout.toNanos();
    try (Socket s = new Socket()) {
      s.connect(u.socketAddress(), millisUntil(end));
      DataOutputStream out = new DataOutputStream(s.getOutputStream());
      out.writeShort(query.length);
      out.write(query);
      out.flush();
      DataInputStream in = new DataInputStream(s.getInputStream());
      while (true) {
        s.setSoTimeout(millisUntil(end));
        byte[] buf = new byte[in.readUnsignedShort()];
        in.readFully(buf);
        if (isAnswerTo(buf, buf.length, id)) {
          return buf;
        }
      }
    }
  }

  private static int millisUntil(long end) throws SocketTimeoutException {
    long left = (end - System.nanoTime()) / 1_000_000L;
    if (left <= 0) {
      throw new SocketTimeoutException("no answer within the read timeout");
    }
    return (int) Math.min(Integer.MAX_VALUE, left);
  }

  /** Configures a forwarder. Not thread-safe. */
  public static final class Builder {
    private final List<Upstream> upstreams;
    private ForwardPolicy policy = ForwardPolicy.RANDOM;
    private Duration timeout = DEFAULT_TIMEOUT;
    private Duration readTimeout = DEFAULT_READ_TIMEOUT;
    private int maxConcurrent = DEFAULT_MAX_CONCURRENT;
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

    /** Queries forwarded at once before the next is REFUSED; default {@value Forwarder#DEFAULT_MAX_CONCURRENT}. */
    public Builder maxConcurrent(int v) {
      if (v < 1) {
        throw new IllegalArgumentException("forward maxConcurrent " + v + " must be at least 1");
      }
      maxConcurrent = v;
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
